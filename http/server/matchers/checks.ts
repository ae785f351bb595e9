/**
 * Checks every matcher strategy makes on its definitions, with one wording, so
 * the strategies refuse the same bad input in the same words.
 *
 * Internal: not a public subpath. Used by the three matcher strategies (trie,
 * radix, compiled).
 *
 * @module
 */

import type { RouteDefinition } from "./types.ts";

/** A static segment must be one non-empty path segment, or no path could equal it. */
export function checkStatic(value: string): void {
  if (value === "" || value.includes("/")) {
    throw new TypeError(
      `Static segment ${JSON.stringify(value)} must be non-empty and contain no "/"`,
    );
  }
}

/** The error for two definitions of one shape. */
export function duplicate(segments: RouteDefinition<unknown>["segments"]): TypeError {
  const shape = segments.map((s) => (s.kind === "static" ? s.value : `{${s.name}}`)).join("/");
  return new TypeError(`Two definitions share the shape /${shape}`);
}
