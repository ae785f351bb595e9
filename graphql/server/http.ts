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

import { type DocumentNode, type ExecutionResult, getOperationAST } from "graphql";
import { directOf } from "./_direct.ts";
import type { HandlerContext, Node } from "../../tree/node.ts";
import { assignOwn } from "../../tree/context.ts";
import { classify } from "../../tree/failure.ts";
import { errorResponse, problem } from "../../http/web/respond.ts";
import { splitUrl } from "../../http/web/request.ts";
import { corsPolicy, withCors } from "../../http/web/cors.ts";
import { formGuard } from "../../http/web/csrf.ts";
import { observer } from "../schema/errors.ts";
import { createGraphQLServer, type GraphQLServer, type PreparedDocument } from "./server.ts";
import type { HttpGraphQLServerOptions, HttpGraphQLTransportOptions } from "./http_options.ts";
import {
  acceptNegotiator,
  APPLICATION_JSON,
  GRAPHQL_RESPONSE_JSON,
  type Media,
  mediaResponse,
} from "./_http_media.ts";
import {
  bodyRefusal,
  fromJson,
  fromSearch,
  type Params,
  parseBody,
  readJson,
  Refusal,
} from "./_http_params.ts";
import {
  deepDocument,
  documentError,
  inputError,
  isMutation,
  masked,
  mutationOverGet,
  requestErrors,
  serialize,
  statusOf,
} from "./_http_answers.ts";
import { MULTIPART_FORM_DATA, readMultipart } from "./_http_multipart.ts";
import { declaredLength, mediaType, within } from "../../http/web/body.ts";
import { rateLimited, withRateHeaders } from "../../http/web/rate_limit.ts";
import { getSafety } from "./_http_safe.ts";

export type { HttpGraphQLServerOptions, HttpGraphQLTransportOptions } from "./http_options.ts";

const ALLOW = "GET, POST, OPTIONS";

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
 * @throws {TypeError} when `opts.path` does not start with `/`, and for every
 * projection error of `createGraphQLServer`.
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
  const path = opts.path ?? "/graphql";
  if (!path.startsWith("/")) {
    throw new TypeError(`createHttpGraphQLServer: path must start with "/", got "${path}"`);
  }
  const server = isGraphQLServer(treeOrServer)
    ? treeOrServer
    : createGraphQLServer(treeOrServer, opts);
  // Built on the first GET: the schema too builds on first use.
  let safeOverGet: ReturnType<typeof getSafety> | undefined;
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const maxResponseBytes = opts.maxResponseBytes ?? 16 * 1024 * 1024;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? 30_000;
  const maxQueryLength = opts.maxQueryLength ?? 100_000;
  const maxDepth = opts.maxBodyDepth ?? 64;
  const maxTokens = server.limits.maxTokens;
  const makeContext = opts.context;
  const report = observer(opts.onError, "ramify: GraphQL over HTTP crashed:");
  const negotiate = acceptNegotiator();
  const direct = directOf(server);
  const forms = formGuard(opts.trustedOrigins);

  const handle = async (
    request: Request,
    media: Media,
    method: string,
    contentType: string | null,
  ): Promise<Response> => {
    const params = method === "GET"
      ? fromSearch(splitUrl(request.url).query, maxQueryLength, maxDepth)
      : contentType !== APPLICATION_JSON && mediaType(contentType) === MULTIPART_FORM_DATA
      ? await readMultipart(request, {
        maxBytes: maxBodyBytes,
        maxQueryLength,
        maxDepth,
        timeoutMs: bodyTimeoutMs,
      })
      : fromJson(
        await readJson(request, contentType, maxBodyBytes, bodyTimeoutMs),
        maxQueryLength,
        maxDepth,
      );
    return await run(request, media, method, params);
  };

  /** A request's parameters to its answer: the document, the operation, the context, the result. */
  const run = (
    request: Request,
    media: Media,
    method: string,
    params: Params,
  ): Response | Promise<Response> => {
    let prepared: PreparedDocument;
    try {
      prepared = server.prepare(params.query);
    } catch (error) {
      // The validator recurses; a document nested deep enough overflows the stack.
      if (error instanceof RangeError) {
        return requestErrors(media, [deepDocument("GRAPHQL_VALIDATION_FAILED")]);
      }
      throw error;
    }
    if ("errors" in prepared) {
      if (method === "GET" && isMutation(params, maxTokens)) throw mutationOverGet();
      return requestErrors(media, prepared.errors.map(documentError));
    }

    const operation = getOperationAST(prepared.document, params.operationName);
    if (operation === null || operation === undefined) {
      return requestErrors(media, [{
        message: params.operationName === undefined
          ? "The document holds several operations; name one with operationName"
          : `The document has no operation named "${params.operationName}"`,
        extensions: { code: "OPERATION_RESOLUTION_FAILURE" },
      }]);
    }
    if (operation.operation !== "query") {
      if (operation.operation === "subscription") {
        return requestErrors(media, [{
          message:
            "Subscriptions are not served over HTTP; subscribe over WebSocket (graphql-transport-ws)",
          extensions: { code: "OPERATION_NOT_SUPPORTED" },
        }]);
      }
      if (method === "GET") throw mutationOverGet();
    } else if (
      method === "GET" &&
      !(safeOverGet ??= getSafety(server.projection, server.schema))(prepared.document, operation)
    ) {
      throw new Refusal(
        405,
        "Only fields of leaves tagged readOnly run over GET; send this query with POST",
        "METHOD_NOT_ALLOWED",
        { allow: "POST" },
      );
    }

    const context = requestContext(request);
    if (makeContext !== undefined) return withContext(request, media, params, prepared, context);
    return execute(media, params, prepared.document, context);
  };

  const withContext = async (
    request: Request,
    media: Media,
    params: Params,
    prepared: { readonly document: DocumentNode },
    context: HandlerContext,
  ): Promise<Response> => {
    try {
      assignOwn(context, await makeContext!({ surface: "graphql", request }));
    } catch (error) {
      try {
        return contextFailure(error, context, media);
      } catch (crash) {
        return failure(crash, media);
      }
    }
    return execute(media, params, prepared.document, context);
  };

  const execute = (
    media: Media,
    params: Params,
    document: DocumentNode,
    context: HandlerContext,
  ): Response | Promise<Response> => {
    const result = direct({
      query: params.query,
      document,
      variables: params.variables,
      operationName: params.operationName,
      context,
    });
    if (!(result instanceof Promise)) return answer(result, media);
    return result.then((settled) => answer(settled, media), (error) => failure(error, media));
  };

  const answer = (result: ExecutionResult, media: Media): Response => {
    try {
      return result.data === undefined
        // No data: a request error raised before execution began (variable coercion).
        ? requestErrors(media, (result.errors ?? []).map(inputError))
        : mediaResponse(serialize(result, maxResponseBytes), media);
    } catch (error) {
      return failure(error, media);
    }
  };

  /** A context function's failure, rendered as a leaf's is: its status, its headers (`WWW-Authenticate`). */
  const contextFailure = (error: unknown, context: HandlerContext, media: Media): Response => {
    const rendered = server.errorOf(error, context);
    const status = statusOf(rendered) ??
      (rendered.extensions.code === "INTERNAL_SERVER_ERROR" ? 500 : 400);
    const asked = classify(error).headers;
    const headers = asked === undefined
      ? media.headers
      : { ...Object.fromEntries(asked), ...media.headers };
    return new Response(JSON.stringify({ errors: [rendered] }), { status, headers });
  };

  const cors = opts.cors === undefined ? undefined : corsPolicy(opts.cors);
  /** What a refusal or a crash answers. */
  const failure = (error: unknown, media: Media): Response => {
    if (error instanceof Refusal) {
      const headers = error.headers === undefined
        ? media.headers
        : { ...media.headers, ...error.headers };
      return new Response(
        JSON.stringify({
          errors: [{ message: error.message, extensions: { code: error.code } }],
        }),
        { status: error.status, headers },
      );
    }
    report(error);
    return masked(media);
  };

  /**
   * The common request, a JSON body of a declared length: the same steps as
   * `handle`, chained on the body's one read (its deadline included) with no
   * promise in between; every step answers its own failure, so none rejects.
   */
  const postJson = (request: Request, media: Media): Promise<Response> =>
    within(
      request.arrayBuffer(),
      bodyTimeoutMs,
      (buffer) => {
        try {
          return run(request, media, "POST", fromJson(parseBody(buffer), maxQueryLength, maxDepth));
        } catch (error) {
          return failure(error, media);
        }
      },
      () => failure(bodyRefusal("unreadable", maxBodyBytes, bodyTimeoutMs), media),
      () => failure(bodyRefusal("too-slow", maxBodyBytes, bodyTimeoutMs), media),
    );

  const respond = (request: Request): Promise<Response> => {
    const method = request.method;
    if (method !== "POST" && method !== "GET") {
      if (method === "OPTIONS") {
        return Promise.resolve(new Response(null, { status: 204, headers: { allow: ALLOW } }));
      }
      return Promise.resolve(problem(405, `${path} answers GET and POST`, { allow: ALLOW }));
    }
    const headers = request.headers;
    // Read once here for the form check and the body. JSON is no form: a
    // browser preflights it, so the check has nothing to refuse.
    const contentType = method === "POST" ? headers.get("content-type") : null;
    if (contentType !== APPLICATION_JSON && method === "POST") {
      const forged = forms(request);
      if (forged !== undefined) return Promise.resolve(errorResponse(forged));
    }
    const media = negotiate(headers.get("accept"));
    if (media === undefined) {
      return Promise.resolve(problem(
        406,
        `Accept ${GRAPHQL_RESPONSE_JSON} or ${APPLICATION_JSON} (with charset utf-8, if any)`,
      ));
    }
    if (contentType === APPLICATION_JSON) {
      const length = declaredLength(headers.get("content-length"));
      if (length !== undefined && length > 0 && length <= maxBodyBytes) {
        return postJson(request, media);
      }
    }
    return handle(request, media, method, contentType).then(
      undefined,
      (error) => failure(error, media),
    );
  };
  const rateLimit = opts.rateLimit;
  const limited = rateLimit === undefined ? respond : async (request: Request) => {
    const verdict = await rateLimited(rateLimit, request);
    const { refused, headers } = verdict;
    if (refused === undefined) return withRateHeaders(await respond(request), verdict);
    return new Response(
      JSON.stringify({
        errors: [{ message: refused.message, extensions: { code: refused.code } }],
      }),
      { status: refused.status, headers: { "content-type": "application/json", ...headers } },
    );
  };
  const corsed = async (request: Request, policy: NonNullable<typeof cors>) => {
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      return policy.preflight(request, ALLOW);
    }
    return withCors(await limited(request), policy, request.headers.get("origin"));
  };
  // Not async: the common request's promise is the one `limited` gives, no layer around it.
  return (request) => {
    if (!atPath(request.url, path)) return Promise.resolve(problem(404));
    return cors === undefined ? limited(request) : corsed(request, cors);
  };
}

// ---------------------------------------------------------------- context

/** `{ request, signal }`; `signal` is read only when asked (Deno warns on every read). */
function requestContext(request: Request): HandlerContext {
  return new RequestContext(request);
}

/**
 * A handler's context. The getter is on the prototype, so a copy (middleware's,
 * the deadline's) keeps it, and making one costs a plain object (an object
 * literal with a getter costs microseconds).
 */
class RequestContext implements HandlerContext {
  [key: string]: unknown;
  readonly request: Request;
  readonly surface = "graphql";
  constructor(request: Request) {
    this.request = request;
  }
  get signal(): AbortSignal {
    return this.request.signal;
  }
}

/**
 * Whether a URL's path is `path`: `splitUrl(url).path === path`, without
 * making the parts. A path holding `?` or `#` is no URL's.
 */
function atPath(url: string, path: string): boolean {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return path === "/";
  if (!url.startsWith(path, start) || path.includes("?") || path.includes("#")) return false;
  const end = start + path.length;
  const next = url.charCodeAt(end);
  return end === url.length || next === 63 || next === 35; // "?" or "#"
}

/** Whether `createHttpGraphQLServer` was given a built server rather than a tree. */
function isGraphQLServer(value: Node | GraphQLServer): value is GraphQLServer {
  return typeof (value as GraphQLServer).execute === "function" &&
    typeof (value as GraphQLServer).prepare === "function";
}
