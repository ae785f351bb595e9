/**
 * ramify: write plain functions once, as a tree built with `op()` and `api()`,
 * and get every network surface from it.
 *
 * This entry is the small face a service starts with: the tree (`op`, `api`),
 * middleware (`use`, `useAll`, `auth`), response control (`reply`), failures
 * (`HttpError`, `LeafError`), the HTTP server and its document (`createFetch`,
 * `toOpenApi`) and the typed client (`createClient`, `ClientError`, `safe`).
 * Everything else lives at its subpath: `@ramify/api/tree` (the call path,
 * schemas, failures), `@ramify/api/tree/node` (the node model),
 * `@ramify/api/http` (routers, CORS, rate limits), `@ramify/api/graphql`,
 * `@ramify/api/tools`, `@ramify/api/cli`, `@ramify/api/serve`, ... GraphQL is
 * not here, so HTTP-only users never load it.
 *
 * @example
 * ```ts
 * import { api, createClient, createFetch, http, op } from "@ramify/api";
 *
 * const tree = api({
 *   books: api({
 *     list: op(() => [{ id: "1", title: "Dune" }], http.get),
 *   }),
 * });
 * const client = createClient(tree, { fetch: createFetch(tree) });
 * console.log(await client.books.list()); // [{ id: "1", title: "Dune" }]
 * ```
 *
 * @module
 */

export { api, HttpError, LeafError, op, reply, use, useAll } from "./tree/mod.ts";
export type {
  ContextFunction,
  ContextSource,
  ErrorDeclarations,
  HttpErrorOptions,
  InputOf,
  LeafErrorOptions,
  Middleware,
  Next,
  OutputOf,
  Problem,
  ReplyInit,
  RequestContextSource,
} from "./tree/mod.ts";
export type { Branch, Fallback, Handler, HandlerContext, Leaf, Meta, Node } from "./tree/node.ts";
export { auth, createClient, createFetch, toOpenApi } from "./http/mod.ts";
export type {
  AuthOptions,
  ClientOptions,
  CreateFetchOptions,
  FetchHandler,
  OpenApiDocument,
  OpenApiOptions,
} from "./http/mod.ts";
export { http } from "./http/verbs.ts";
export { ClientError } from "./http/mod.ts";
export { safe } from "./client/mod.ts";
export type { Client, ClientErrorOf, Outcome } from "./client/mod.ts";
