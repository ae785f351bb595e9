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

import { api, op } from "../tree/construct.ts";
import type { Branch, Fallback, Handler, Leaf, Meta, Node } from "../tree/node.ts";
import { isNode } from "../tree/node.ts";
import { http, type VerbBundle } from "./verbs.ts";

/** A handler function or a leaf already made with `op()` (to keep its schemas and meta). */
type Operation = Handler<never, unknown> | (Node & { readonly handler: Handler<never, unknown> });

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
  readonly list?: Operation;
  /** POST `/add`: creates an item. */
  readonly add?: Operation;
  /** GET `/{id}`: one item. */
  readonly read?: Operation;
  /** PUT `/{id}`: replaces one item. */
  readonly replace?: Operation;
  /** DELETE `/{id}`: removes one item. */
  readonly remove?: Operation;
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

/** The leaf type an operation becomes. */
type AsLeaf<T> = T extends Leaf<infer I, infer O, infer W> ? Leaf<I, O, W>
  : T extends Handler<infer I, infer O> ? Leaf<I, O, I>
  : never;

type Present<H, K extends keyof CrudHandlers> = {
  readonly [P in K as H extends { readonly [Q in P]: Operation } ? P : never]: AsLeaf<
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
  Present<H, "list" | "add">,
  Fallback<Id, Branch<Present<H, "read" | "replace" | "remove">>> | undefined
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
 * or a leaf made with `op()`, whose meta (schemas, description) is kept and
 * whose verb the convention sets.
 *
 * @example The bookstore's books
 * ```ts
 * import { crud, httpProjection } from "@ramify/api/http/dx";
 * import { api } from "@ramify/api/tree";
 *
 * const books = crud({
 *   list: () => [],
 *   add: (input: { title: string }) => ({ id: "1", ...input }),
 *   read: ({ bookId }: { bookId: string }) => ({ id: bookId }),
 *   replace: ({ bookId, title }: { bookId: string; title: string }) => ({ id: bookId, title }),
 *   remove: ({ bookId }: { bookId: string }) => undefined,
 * }, { id: "bookId" });
 * const route = httpProjection(api({ books }));
 * console.log(Object.keys(route.children.books.param!.route.methods)); // ["GET", "PUT", "DELETE"]
 * ```
 */
export function crud<const H extends CrudHandlers, const Id extends string = "id">(
  handlers: H,
  opts: CrudOptions<Id> = {},
): CrudBranch<H, Id> {
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
