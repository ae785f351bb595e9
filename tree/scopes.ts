/**
 * Scopes: the OAuth scopes a call of a leaf needs, declared on the tree. A
 * leaf declares its own (`op(fn, { scopes: ["books:write"] })`); a subtree
 * declares them for every leaf beneath it (`api(children, { meta: { scopes } })`),
 * which `api()` writes onto each of those leaves, so a leaf's `meta.scopes`
 * is the union along its path, whichever surface calls it. A guard (for
 * instance `oauth()` of `@ramify/api/auth`) enforces them; a leaf that
 * declares none gets the guard's defaults. `scopes: []` declares none needed.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { scopesOf } from "@ramify/api/tree/catalogue";
 *
 * const tree = api({
 *   add: op(() => 1, { scopes: ["books:write"] }),
 * }, { meta: { scopes: ["books"] } });
 * console.log(scopesOf(tree.children.add)); // ["books", "books:write"]
 * ```
 *
 * @module
 */

import type { Node } from "./node.ts";
import { mapNodes } from "./tags.ts";

/**
 * The scopes a leaf declares (its own and its subtrees'), or `undefined` when
 * it declares none, so that a guard's defaults apply.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { scopesOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(scopesOf(op(() => 1))); // undefined
 * console.log(scopesOf(op(() => 1, { scopes: [] }))); // []
 * ```
 */
export function scopesOf(node: Node): readonly string[] | undefined {
  const scopes = node.meta?.scopes;
  return Array.isArray(scopes) ? scopes : undefined;
}

/** Why `meta.scopes` is not a list of scope tokens (RFC 6749 §3.3), or `undefined`. */
export function scopesProblem(scopes: unknown): string | undefined {
  if (scopes === undefined) return undefined;
  const token = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== "string" || !token.test(s))) {
    return "meta.scopes must be a list of scope tokens (no spaces, quotes or backslashes)";
  }
  return undefined;
}

/** A subtree whose every leaf also declares `scopes` (the union, in order, without repeats). */
export function withScopes<T extends Node>(tree: T, scopes: readonly string[]): T {
  return mapNodes(tree, (node) => {
    if (typeof node.handler !== "function") return node;
    const own = scopesOf(node) ?? [];
    const union = Object.freeze([...new Set([...scopes, ...own])]);
    return Object.freeze({ ...node, meta: Object.freeze({ ...node.meta, scopes: union }) });
  }) as T;
}
