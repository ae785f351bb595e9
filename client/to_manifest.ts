/**
 * `toClientManifest(tree)`: a tree's client manifest, made where the tree is
 * (the server, or a build step writing it to a module for a browser bundle).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toClientManifest } from "@ramify/api/http";
 *
 * const manifest = toClientManifest(api({ ping: op(() => "pong") }));
 * console.log(manifest.operations[0].path); // "/ping"
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { httpProjection, type HttpProjectionOptions } from "../route/projection.ts";
import { type HttpRoute, listOperations } from "../route/route.ts";
import { idempotencyKeyOf } from "../route/idempotency.ts";
import type { ClientManifest } from "./manifest.ts";

/**
 * The client manifest of a tree, projected as the server projects it (give
 * the same projection options).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toClientManifest } from "@ramify/api/http";
 *
 * const manifest = toClientManifest(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * console.log(JSON.stringify(manifest).includes("pong")); // false: no handler travels
 * ```
 */
export function toClientManifest(tree: Node, opts: HttpProjectionOptions = {}): ClientManifest {
  return manifestOfRoute(httpProjection(tree, opts));
}

/** The manifest of a route tree: each operation's facts as the tree's catalogue holds them. */
export function manifestOfRoute(route: HttpRoute): ClientManifest {
  return {
    manifest: 1,
    operations: listOperations(route).map((operation) => ({
      steps: operation.steps.map((step) => ({ kind: step.kind, name: step.name })),
      method: operation.method,
      path: operation.path,
      tags: { ...operation.tags },
      stream: operation.response === "event-stream",
      // Only when true, so that manifests of trees without bytes stay as they were.
      ...(operation.response === "bytes" ? { bytes: true } : {}),
      dates: operation.entry.dates,
      errors: Object.keys(operation.entry.errors),
      ...only("idempotencyKey", idempotencyKeyOf(operation)),
      ...only("invalidates", operation.entry.invalidates),
    })),
  };
}

/**
 * `{ [key]: value }` only when the leaf has a value (an idempotency key, what
 * it invalidates), so that manifests of other trees stay as they were.
 */
function only<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : { [key]: value } as Record<K, V>;
}
