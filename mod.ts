/**
 * ramify: write plain functions once, as a tree built with `op()` and `api()`,
 * and get every network surface from it.
 *
 * This entry holds the tree and the HTTP surface; GraphQL lives in
 * `@ramify/api/graphql`, so HTTP-only users never load it.
 *
 * @example
 * ```ts
 * import { api, http, op } from "@ramify/api";
 *
 * const tree = api({
 *   books: api({
 *     list: op(() => [{ id: "1", title: "Dune" }], http.get),
 *   }),
 * });
 * ```
 *
 * @module
 */

export * from "./tree/mod.ts";
export * from "./http/mod.ts";
