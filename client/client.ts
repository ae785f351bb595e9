/**
 * The typed HTTP client: `createClient(tree, opts?)` gives a nested object that
 * mirrors the tree. Branches are objects, leaves are async functions taking the
 * flat input, and a fallback is a function taking the captured value and
 * returning the subtree's object. Inputs and outputs are typed from the tree;
 * requests go where `createFetch` serves them, encoded the way it reads them.
 *
 * @example
 * ```ts
 * import { api, createClient, createFetch, http, op } from "@ramify/api";
 *
 * const tree = api({
 *   books: api({ list: op(() => [{ id: "1", title: "Dune" }], http.get) }, {
 *     fallback: {
 *       name: "bookId",
 *       subtree: api({ read: op(({ bookId }: { bookId: string }) => ({ id: bookId }), http.get) }),
 *     },
 *   }),
 * });
 * const client = createClient(tree, { fetch: createFetch(tree) });
 * const books = await client.books.list();
 * const book = await client.books.bookId("1").read();
 * console.log(books[0].title, book.id); // "Dune" "1"
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { httpProjection, type HttpProjectionOptions } from "../route/projection.ts";
import type { HttpRoute } from "../route/route.ts";
import type { Client } from "./client_types.ts";
import { manifestOfRoute } from "./to_manifest.ts";
import { type ClientTransportOptions, createClientFromManifest } from "./remote.ts";

export type { FetchLike } from "./remote.ts";

/**
 * Options of {@linkcode createClient} and {@linkcode createClientFromRoute}:
 * how to reach the server (`ClientTransportOptions`) and how the tree is
 * projected onto routes (as the server was given them).
 *
 * @example
 * ```ts
 * import type { ClientOptions } from "@ramify/api/http";
 *
 * const opts: ClientOptions = {
 *   baseUrl: "https://api.example.com/v1/",
 *   headers: { authorization: "Bearer token" },
 * };
 * ```
 */
export interface ClientOptions extends ClientTransportOptions, HttpProjectionOptions {}

/**
 * The client of a tree. Each leaf becomes an async function of its input and
 * per-call options; `GET`, `HEAD` and `DELETE` send the input in the query
 * (arrays as repeated keys, objects as JSON), other verbs as a JSON body.
 * Responses decode by content type; `204` gives `undefined`; a streaming leaf
 * gives an `AsyncIterable` of its events. A non-OK response throws a
 * `ClientError`.
 *
 * @example In process, through the server's own handler
 * ```ts
 * import { api, createClient, createFetch, op } from "@ramify/api";
 * import { z } from "zod";
 *
 * const tree = api({
 *   add: op(({ a, b }) => a + b, { input: z.object({ a: z.number(), b: z.number() }) }),
 * });
 * const client = createClient(tree, { fetch: createFetch(tree) });
 * console.log(await client.add({ a: 1, b: 2 })); // 3
 * ```
 */
export function createClient<T extends Node>(tree: T, opts: ClientOptions = {}): Client<T> {
  return createClientFromRoute<T>(httpProjection(tree, opts), opts);
}

/**
 * The client of a route tree. Without a type argument its calls are untyped
 * (`DynamicClient`); give the tree's type to type it.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { createClientFromRoute, createFetch } from "@ramify/api/http";
 *
 * const tree = api({ ping: op(() => "pong") });
 * const client = createClientFromRoute<typeof tree>(httpProjection(tree), {
 *   fetch: createFetch(tree),
 * });
 * console.log(await client.ping()); // "pong"
 * ```
 */
export function createClientFromRoute<T extends Node = Node>(
  route: HttpRoute,
  opts: ClientOptions = {},
): Client<T> {
  return createClientFromManifest<T>(manifestOfRoute(route), opts);
}
