/**
 * `mergeMeta`: how the contributions of `op(fn, ...contributions)` combine.
 *
 * @example
 * ```ts
 * import { mergeMeta } from "@ramify/api/tree";
 *
 * const meta = mergeMeta({ tags: { idempotent: true } }, { tags: { destructive: false } });
 * console.log(meta.tags); // { idempotent: true, destructive: false }
 * ```
 *
 * @module
 */

import type { Meta } from "./node.ts";
import { isPlainObject, setOwn } from "./plain_data.ts";

/**
 * Merges meta values left to right:
 *
 * 1. a later value wins per top-level key;
 * 2. an `undefined` value defers to an earlier one;
 * 3. when both values are plain objects they merge one level deeper, by the same
 *    two rules (so `tags` and `http` accumulate);
 * 4. arrays, schemas and other non-plain values are replaced, never merged.
 *
 * The inputs are not modified.
 *
 * @example
 * ```ts
 * import { mergeMeta } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const meta = mergeMeta(http.put, { tags: { destructive: false } });
 * console.log(meta.tags); // { idempotent: true, destructive: false }
 * console.log(meta.http?.directives?.length); // 2
 * ```
 */
export function mergeMeta(...metas: ReadonlyArray<Meta | undefined>): Meta {
  const merged: Record<string, unknown> = {};
  for (const meta of metas) {
    if (meta === undefined) continue;
    for (const key of Object.keys(meta)) {
      const incoming = meta[key];
      if (incoming === undefined) continue;
      const existing = merged[key];
      setOwn(
        merged,
        key,
        isPlainObject(existing) && isPlainObject(incoming)
          ? mergeLevel(existing, incoming)
          : incoming,
      );
    }
  }
  return merged as Meta;
}

function mergeLevel(
  existing: Record<string, unknown>,
  incoming: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...existing };
  for (const key of Object.keys(incoming)) {
    const value = incoming[key];
    if (value !== undefined) setOwn(merged, key, value);
  }
  return merged;
}
