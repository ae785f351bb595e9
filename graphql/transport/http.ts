/**
 * `createHttpGraphQLServer(tree, opts?)`: the GraphQL server of a tree as one
 * fetch handler, speaking GraphQL over HTTP (the GraphQL-over-HTTP working
 * draft, checked by graphql-http's server audits).
 *
 * - `POST` with an `application/json` body `{ query, variables?, operationName?, extensions? }`
 *   runs queries and mutations; `GET` with `?query=&variables=&operationName=&extensions=`
 *   (`variables` and `extensions` JSON-encoded) runs queries only: a mutation
 *   over `GET` is `405` with `Allow: POST`.
 * - The response is `application/graphql-response+json` or `application/json`
 *   (always `; charset=utf-8`), whichever the `Accept` header prefers (by `q`,
 *   then the more specific range, then the order listed). A missing `Accept`
 *   and a bare wildcard (any type, or any `application` type) get
 *   `application/json`, for older clients; no acceptable type is `406`.
 * - Status codes: a request that is not well-formed (bad JSON, a missing or
 *   mistyped parameter, a body over the limit, another media type or charset) is
 *   `4xx` whatever the media type (`400`, `413`, `414`, `415`). A well-formed
 *   request whose document fails to parse or validate, whose operation cannot be
 *   chosen or whose variables do not coerce is `400` with
 *   `application/graphql-response+json` and `200` with `application/json`. Once
 *   execution has begun the status is `200`, field errors included. A crash is
 *   `500` with a masked error (`Unexpected error.`).
 * - A subscription is not served over HTTP (use the WebSocket transport of
 *   `@ramify/api/graphql/ws`): it is a request error with code
 *   `OPERATION_NOT_SUPPORTED`.
 * - Every error carries `extensions.code`: `BAD_REQUEST`, `GRAPHQL_PARSE_FAILED`,
 *   `GRAPHQL_VALIDATION_FAILED`, `OPERATION_RESOLUTION_FAILURE`, `BAD_USER_INPUT`,
 *   `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`, `METHOD_NOT_ALLOWED`,
 *   `OPERATION_NOT_SUPPORTED`, `INTERNAL_SERVER_ERROR`, a failure's code
 *   (`NOT_FOUND`, `CANCELLED`, `TIMEOUT`, a declared one), or the code an error
 *   mapping gives a fault (see `graphqlErrors`).
 * - Other paths are `404`, other methods `405` (`OPTIONS` answers `204` with
 *   `Allow`), both as `application/problem+json` like the HTTP surface.
 * - Given a tree, it builds its own GraphQL server; given one made by
 *   `createGraphQLServer`, it serves that one, so the WebSocket transport can
 *   share it (one schema, one document cache).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHttpGraphQLServer } from "@ramify/api/graphql";
 *
 * const handler = createHttpGraphQLServer(api({
 *   ping: op(() => "pong", { tags: { readOnly: true } }),
 * }));
 * const response = await handler(new Request("http://localhost/graphql?query=%7Bping%7D"));
 * console.log(response.status, await response.json()); // 200 { data: { ping: "pong" } }
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { assertImplemented } from "../../tree/contract.ts";
import { applyPolicies, POLICY_OPTIONS } from "../../web/edge.ts";
import { graphqlEdge } from "./edge.ts";
import { formGuard } from "../../web/csrf.ts";
import { projectGraphQL } from "../schema/projection.ts";
import type { GraphQLServer } from "../execution/server.ts";
import {
  HTTP_TRANSPORT_OPTIONS,
  type HttpGraphQLServerOptions,
  type HttpGraphQLTransportOptions,
} from "./http_options.ts";
import { checkExecutor, GRAPHQL_SERVER_OPTIONS } from "../execution/server_options.ts";
import { checkOptions, knownKeys } from "../../tree/options.ts";
import type { Served } from "./_http_transport.ts";
import { trustedDocumentsOf } from "../execution/trusted.ts";

export type { HttpGraphQLServerOptions, HttpGraphQLTransportOptions } from "./http_options.ts";

/**
 * The GraphQL-over-HTTP handler of a tree: a function from a `Request` to a
 * `Response`, for `Deno.serve`, `Bun.serve` or any fetch-based server. It serves
 * `opts.path` (default `/graphql`) only; mount it beside other handlers by path.
 * Handlers receive `{ request, signal, ...yours }` as their context, `yours`
 * coming from `opts.context`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHttpGraphQLServer, graphqlErrors } from "@ramify/api/graphql";
 * import { z } from "zod";
 *
 * const tree = api({
 *   whoami: op((_input, ctx) => ctx.user, { tags: { readOnly: true } }),
 *   books: api({
 *     add: op((input) => ({ id: "1", ...input }), { input: z.object({ title: z.string() }) }),
 *   }),
 * });
 * const handler = createHttpGraphQLServer(tree, {
 *   context: ({ request }) => ({ user: request.headers.get("x-user") }),
 *   errors: graphqlErrors({ NotFound: "NOT_FOUND" }),
 *   limits: { maxDepth: 8 },
 *   timeoutMs: 10_000,
 * });
 * const response = await handler(
 *   new Request("http://localhost/graphql", {
 *     method: "POST",
 *     headers: {
 *       "content-type": "application/json",
 *       accept: "application/graphql-response+json",
 *       "x-user": "ada",
 *     },
 *     body: JSON.stringify({ query: "{ whoami }" }),
 *   }),
 * );
 * console.log(await response.json()); // { data: { whoami: "ada" } }
 * ```
 *
 * @throws {TypeError} when `opts.path` does not start with `/`, or `opts` holds
 * a key it does not know, and for every projection error of `createGraphQLServer`.
 */
export function createHttpGraphQLServer(
  tree: Node,
  opts?: HttpGraphQLServerOptions,
): (request: Request) => Promise<Response>;
/**
 * The GraphQL-over-HTTP handler of a GraphQL server already built: the same
 * transport, serving that server's schema with its limits, error mapping and
 * `timeoutMs`. Build the server once and give it to this and to the WebSocket
 * handlers (`createWsHandler`, `handleBunWebSocket`).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
 * import { createWsHandler } from "@ramify/api/graphql/ws";
 *
 * const tree = api({
 *   ping: op(() => "pong", { tags: { readOnly: true } }),
 *   news: op(async function* () {
 *     yield "first";
 *   }, { tags: { streaming: true } }),
 * });
 * const server = createGraphQLServer(tree, { limits: { maxDepth: 8 }, timeoutMs: 10_000 });
 * const context = ({ request }: { request?: Request }) => ({
 *   user: request?.headers.get("x-user"),
 * });
 * const http = createHttpGraphQLServer(server, { path: "/graphql", context });
 * const ws = createWsHandler(server, { context });
 * const handler = (request: Request) =>
 *   request.headers.get("upgrade")?.toLowerCase() === "websocket" ? ws(request) : http(request);
 * // Deno.serve({ port: 4000 }, handler);
 * ```
 *
 * @throws {TypeError} when `opts.path` does not start with `/`.
 */
export function createHttpGraphQLServer(
  server: GraphQLServer,
  opts?: HttpGraphQLTransportOptions,
): (request: Request) => Promise<Response>;
export function createHttpGraphQLServer(
  treeOrServer: Node | GraphQLServer,
  opts: HttpGraphQLServerOptions = {},
): (request: Request) => Promise<Response> {
  const server = isGraphQLServer(treeOrServer);
  checkOptions(
    "createHttpGraphQLServer",
    opts,
    server ? HTTP_TRANSPORT_OPTIONS : HTTP_SERVER_OPTIONS,
    POLICY_OPTIONS,
  );
  const path = opts.path ?? "/graphql";
  if (!path.startsWith("/")) {
    throw new TypeError(`createHttpGraphQLServer: path must start with "/", got "${path}"`);
  }
  // Every check of the tree and the options runs now; the transport, graphql-js
  // and the schema load on the first request (_http_transport.ts).
  if (!server) {
    assertImplemented(treeOrServer, "createGraphQLServer");
    checkExecutor(opts.executor, "createHttpGraphQLServer");
  }
  const served: Served = server ? { server: treeOrServer as GraphQLServer } : {
    projection: projectGraphQL(treeOrServer, opts),
    trusted: trustedDocumentsOf(opts, "createHttpGraphQLServer"),
  };
  const checked = { path, forms: formGuard(opts.trustedOrigins) };
  let serve: ((request: Request) => Promise<Response>) | undefined;
  let loading: Promise<(request: Request) => Promise<Response>> | undefined;
  const load = () =>
    loading ??= import("./_http_transport.ts").then(({ httpTransport }) =>
      serve = httpTransport(served, opts, checked)
    );
  return applyPolicies(
    (request) => serve === undefined ? load().then((handler) => handler(request)) : serve(request),
    graphqlEdge,
    opts.policies,
  );
}

/** Every option of `createHttpGraphQLServer` given a tree: the GraphQL server's and the transport's. */
const HTTP_SERVER_OPTIONS = knownKeys<HttpGraphQLServerOptions>()([
  ...GRAPHQL_SERVER_OPTIONS,
  ...HTTP_TRANSPORT_OPTIONS,
]);

/** Whether `createHttpGraphQLServer` was given a built server rather than a tree. */
function isGraphQLServer(value: Node | GraphQLServer): value is GraphQLServer {
  return typeof (value as GraphQLServer).execute === "function" &&
    typeof (value as GraphQLServer).prepare === "function";
}
