/**
 * Developer-experience helpers of the HTTP projection: `httpProjection`, the
 * node tree to route tree pipeline, and `crud`, the convention constructor for a
 * REST resource.
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

export { DEFAULT_COLLAPSE, deriveVerb, httpProjection } from "./route/projection.ts";
export type { HttpProjectionOptions } from "./route/projection.ts";
export { crud } from "./route/crud.ts";
export type {
  CrudBranch,
  CrudChildren,
  CrudHandlers,
  CrudLeaf,
  CrudOperation,
  CrudOptions,
} from "./route/crud.ts";
