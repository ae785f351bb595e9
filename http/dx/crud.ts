/**
 * `crud`: the convention constructor for a REST resource of five operations.
 *
 * @example
 * ```ts
 * import { crud } from "@ramify/api/http/dx";
 *
 * const books = crud({ list: () => [], read: ({ id }: { id: string }) => ({ id }) });
 * ```
 *
 * @module
 */

import { api, op } from "../../tree/construct.ts";
import type { Branch, Fallback, Handler, Leaf, Meta, Node } from "../../tree/node.ts";
import { isNode } from "../../tree/node.ts";
import { http, type VerbBundle } from "../verbs.ts";

/**
 * One operation given to {@linkcode crud}: a handler function, or a leaf already
 * made with `op()` (to keep its schemas and meta). A bare function has no input
 * schema, so it takes no input but the item's id capture; an operation that
 * takes input (`add`, `replace`) is an `op()` with an `input` schema.
 *
 * @example
 * ```ts
 * import type { CrudOperation } from "@ramify/api/http/dx";
 *
 * const list: CrudOperation = () => [];
 * ```
 */
export type CrudOperation =
  | Handler<never, unknown>
  | (Node & { readonly handler: Handler<never, unknown> });

/**
 * The five operations of {@linkcode crud}, each optional.
 *
 * @example
 * ```ts
 * import type { CrudHandlers } from "@ramify/api/http/dx";
 *
 * const handlers: CrudHandlers = { list: () => [] };
 * ```
 */
export interface CrudHandlers {
  /** GET `/list`: the collection. */
  readonly list?: CrudOperation;
  /** POST `/add`: creates an item. */
  readonly add?: CrudOperation;
  /** GET `/{id}`: one item. */
  readonly read?: CrudOperation;
  /** PUT `/{id}`: replaces one item. */
  readonly replace?: CrudOperation;
  /** DELETE `/{id}`: removes one item. */
  readonly remove?: CrudOperation;
}

/**
 * Options of {@linkcode crud}.
 *
 * @example
 * ```ts
 * import type { CrudOptions } from "@ramify/api/http/dx";
 *
 * const opts: CrudOptions<"bookId"> = { id: "bookId" };
 * ```
 */
export interface CrudOptions<Id extends string = "id"> {
  /** The capture name of an item's id. Default `id`. */
  readonly id?: Id;
  /** The resource branch's own meta. */
  readonly meta?: Meta;
}

/**
 * The leaf type an operation given to {@linkcode crud} becomes.
 *
 * @example
 * ```ts
 * import type { CrudLeaf } from "@ramify/api/http/dx";
 *
 * type List = CrudLeaf<() => string[]>; // Leaf<Record<string, unknown>, string[], ...>
 * ```
 */
export type CrudLeaf<T> = T extends Leaf<infer I, infer O, infer W, infer S> ? Leaf<I, O, W, S>
  // No input schema: callers send nothing (the captures travel in the path).
  : T extends Handler<infer I, infer O> ? Leaf<I, O, Record<string, never>, undefined>
  : never;

/**
 * The children {@linkcode crud} makes for the operations of `K` that `H` has.
 *
 * @example
 * ```ts
 * import type { CrudChildren } from "@ramify/api/http/dx";
 *
 * type Collection = CrudChildren<{ list: () => string[] }, "list" | "add">; // { list: ... }
 * ```
 */
export type CrudChildren<H, K extends keyof CrudHandlers> = {
  readonly [P in K as H extends { readonly [Q in P]: CrudOperation } ? P : never]: CrudLeaf<
    H[P & keyof H]
  >;
};

/**
 * The branch {@linkcode crud} makes: `list` and `add` as children, and the item
 * operations under a fallback named `Id`.
 *
 * @example
 * ```ts
 * import type { CrudBranch } from "@ramify/api/http/dx";
 *
 * type Empty = CrudBranch<Record<never, never>, "id">;
 * ```
 */
export type CrudBranch<H, Id extends string> = Branch<
  CrudChildren<H, "list" | "add">,
  Fallback<Id, Branch<CrudChildren<H, "read" | "replace" | "remove">>> | undefined
>;

const BUNDLES: Readonly<Record<keyof CrudHandlers, VerbBundle>> = {
  list: http.get,
  add: http.post,
  read: http.get,
  replace: http.put,
  remove: http.delete,
};

/**
 * Builds the five-operation REST shape: GET `/list`, POST `/add`, and GET, PUT,
 * DELETE on `/{id}` (read, replace and remove collapse onto the fallback
 * position). Each operation is optional; an operation may be a plain function
 * (which takes no input but the id capture) or a leaf made with `op()`, whose
 * meta (schemas, description) is kept and whose verb the convention sets.
 *
 * @example The bookstore's books
 * ```ts
 * import { crud, httpProjection } from "@ramify/api/http/dx";
 * import { api, op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const Book = z.object({ title: z.string() });
 * const books = crud({
 *   list: () => [],
 *   add: op((input) => ({ id: "1", ...input }), { input: Book }),
 *   read: ({ bookId }: { bookId: string }) => ({ id: bookId }),
 *   replace: op(({ bookId, title }) => ({ id: bookId, title }), {
 *     input: Book.extend({ bookId: z.string() }),
 *   }),
 *   remove: ({ bookId }: { bookId: string }) => undefined,
 * }, { id: "bookId" });
 * const route = httpProjection(api({ books }));
 * console.log(Object.keys(route.children.books.param!.route.methods)); // ["GET", "PUT", "DELETE"]
 * ```
 */
export function crud<const H extends CrudHandlers, const Id extends string = "id">(
  handlers: H,
  opts: CrudOptions<Id> = {},
): CrudBranch<H, NoInfer<Id>> {
  const leaf = (name: keyof CrudHandlers): Node | undefined => {
    const operation: unknown = handlers[name];
    if (operation === undefined) return undefined;
    if (typeof operation === "function") {
      return op(operation as Handler<never, unknown>, BUNDLES[name]);
    }
    if (isNode(operation) && typeof operation.handler === "function") {
      return op(operation.handler as Handler<unknown>, BUNDLES[name], operation.meta, {
        http: BUNDLES[name].http,
      });
    }
    throw new TypeError(`crud(): "${name}" must be a function or a leaf made with op()`);
  };
  const pick = (names: readonly (keyof CrudHandlers)[]) => {
    const children: Record<string, Node> = {};
    for (const name of names) {
      const node = leaf(name);
      if (node !== undefined) children[name] = node;
    }
    return children;
  };
  const item = pick(["read", "replace", "remove"]);
  const id = opts.id ?? "id";
  return api(pick(["list", "add"]), {
    ...(opts.meta === undefined ? {} : { meta: opts.meta }),
    ...(Object.keys(item).length === 0 ? {} : { fallback: { name: id, subtree: api(item) } }),
  }) as unknown as CrudBranch<H, Id>;
}
