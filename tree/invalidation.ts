/**
 * What a mutation makes stale, decided in the tree: by default the reads of
 * its own subtree (the query utils derive it from the leaf's position); a
 * leaf's `meta.invalidates` names others as tree paths (`"books/list"`,
 * `"books/{bookId}"`, where `{bookId}` stands for the value the call
 * captured), or `false` for none. The client manifests carry it, so a
 * client knows it without the tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({
 *   books: api({ list: op(() => [], { tags: { readOnly: true } }) }),
 *   stats: api({ reset: op(() => 0, { invalidates: ["books/list"] }) }),
 * });
 * ```
 *
 * @module
 */

/**
 * A leaf's `meta.invalidates`: tree paths of the reads it makes stale, or
 * `false` for none.
 *
 * @example
 * ```ts
 * import type { Invalidates } from "@ramify/api/tree";
 *
 * const some: Invalidates = ["books/list", "books/{bookId}"];
 * const none: Invalidates = false;
 * ```
 */
export type Invalidates = false | readonly string[];

const STEP = /^(?:\{[^{}/]+\}|[^{}/]+)$/;

/**
 * Whether a value is a well-formed `invalidates`: `false`, or a list of
 * paths whose steps are names or `{capture}`s.
 *
 * @example
 * ```ts
 * import { isInvalidates } from "@ramify/api/tree/catalogue";
 *
 * console.log(isInvalidates(["books/{bookId}"]), isInvalidates(["books//x"])); // true false
 * ```
 */
export function isInvalidates(value: unknown): value is Invalidates {
  if (value === false) return true;
  return Array.isArray(value) && value.length <= 100 &&
    value.every((path) =>
      typeof path === "string" && path.length <= 500 && path.split("/").every((s) => STEP.test(s))
    );
}

/**
 * A leaf's own `meta.invalidates`, checked, for a manifest: nothing when it
 * has none, so that manifests of other trees stay as they were.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { invalidatesOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(invalidatesOf(op(() => 0, { invalidates: false }))); // { invalidates: false }
 * ```
 *
 * @throws {TypeError} for a malformed `meta.invalidates`.
 */
export function invalidatesOf(
  leaf: { readonly meta?: { readonly invalidates?: unknown } },
): { invalidates?: Invalidates } {
  const value = leaf.meta?.invalidates;
  if (value === undefined) return {};
  if (!isInvalidates(value)) {
    throw new TypeError(
      `meta.invalidates must be false or a list of tree paths ("books/list", "books/{bookId}"), got ${
        JSON.stringify(value)
      }`,
    );
  }
  return { invalidates: value };
}

/**
 * A path's steps: each a name, or `{ capture }` for a captured value.
 *
 * @example
 * ```ts
 * import { invalidationSteps } from "@ramify/api/tree/catalogue";
 *
 * console.log(invalidationSteps("books/{bookId}")); // ["books", { capture: "bookId" }]
 * ```
 */
export function invalidationSteps(path: string): (string | { readonly capture: string })[] {
  return path.split("/").map((step) =>
    step.startsWith("{") ? { capture: step.slice(1, -1) } : step
  );
}
