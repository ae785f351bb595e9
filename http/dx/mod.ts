/**
 * The route projection's public face (`@ramify/api/http/dx`): `httpProjection`,
 * from the node tree to the route tree, and `crud`, the convention constructor
 * for a REST resource.
 *
 * @example
 * ```ts
 * import { crud, httpProjection } from "@ramify/api/http/dx";
 * import { api } from "@ramify/api/tree";
 *
 * const route = httpProjection(api({ books: crud({ list: () => [] }) }));
 * console.log(route.children.books.children.list.methods.GET?.path); // "/books/list"
 * ```
 *
 * @module
 */

export { DEFAULT_COLLAPSE, deriveVerb, httpProjection } from "../../route/projection.ts";
export type { HttpProjectionOptions } from "../../route/projection.ts";
export { crud } from "./crud.ts";
export { idempotencyKeyOf } from "../../route/idempotency.ts";
export type { IdempotencyKeyMode } from "../../route/idempotency.ts";
export type {
  CrudBranch,
  CrudChildren,
  CrudHandlers,
  CrudLeaf,
  CrudOperation,
  CrudOptions,
} from "./crud.ts";
