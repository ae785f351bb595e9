/**
 * `createGraphQLClient(tree, { transport })`: a client shaped like the tree, as
 * the HTTP client is, that speaks GraphQL. `client.books.list()` runs the query
 * `books { list }`, `client.books.add(...)` the mutation `booksAdd`,
 * `client.books.bookId("1").read()` passes the capture as an argument, and a
 * streaming leaf gives an async iterable of its events. Documents come from
 * `buildDocument`, over the same projection the server uses.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import {
 *   createGraphQLClient,
 *   createGraphQLServer,
 *   serverTransport,
 * } from "@ramify/api/graphql";
 *
 * const tree = api({ books: api({ list: op(() => [{ id: "1" }]) }) });
 * const client = createGraphQLClient(tree, {
 *   transport: serverTransport(createGraphQLServer(tree)),
 * });
 * console.log(await client.books.list()); // [{ id: "1" }]
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import type { Client } from "../../client/client_types.ts";
import type { ProjectGraphQLOptions } from "../schema/projection.ts";
import type { BuildDocumentOptions } from "./document.ts";
import { createGraphQLClientFromManifest, type GraphQLTransportOptions } from "./remote.ts";
import { toGraphQLClientManifest } from "./to_manifest.ts";

/**
 * Options of {@linkcode createGraphQLClient}.
 *
 * @example
 * ```ts
 * import { type GraphQLClientOptions } from "@ramify/api/graphql";
 * import { httpTransport } from "@ramify/api/graphql/client";
 *
 * const opts: GraphQLClientOptions = {
 *   transport: httpTransport({ url: "http://localhost:8000/graphql" }),
 * };
 * ```
 */
export interface GraphQLClientOptions
  extends GraphQLTransportOptions, ProjectGraphQLOptions, BuildDocumentOptions {}

/**
 * The GraphQL client of a tree. Its type is the HTTP client's (`Client<T>`):
 * the same tree gives the same calls, whichever protocol carries them.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLClient } from "@ramify/api/graphql";
 * import { httpTransport } from "@ramify/api/graphql/client";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const client = createGraphQLClient(tree, {
 *   transport: httpTransport({ url: "http://localhost:8000/graphql" }),
 * });
 * // await client.ping() → "pong"
 * ```
 */
export function createGraphQLClient<T extends Node>(
  tree: T,
  opts: GraphQLClientOptions,
): Client<T> {
  return createGraphQLClientFromManifest<T>(toGraphQLClientManifest(tree, opts), opts);
}
