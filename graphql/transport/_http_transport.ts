// The GraphQL-over-HTTP transport of `createHttpGraphQLServer` (http.ts),
// imported on the handler's first request: until GraphQL is asked for, neither
// this nor what it reaches (graphql-js, the executor) is evaluated, so a worker
// serving REST beside GraphQL starts as fast as one serving REST alone.

import { type DocumentNode, type ExecutionResult, getOperationAST } from "graphql";
import { directOf } from "../execution/direct.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { contextOf } from "../../engine/engine.ts";
import { RequestContext } from "../../engine/request_context.ts";
import { classify } from "../../tree/failure.ts";
import { errorResponse, problem } from "../../web/respond.ts";
import { splitUrl } from "../../web/request.ts";
import type { FormGuard } from "../../web/csrf.ts";
import { observer } from "../schema/errors.ts";
import { type GraphQLServer, type PreparedDocument, serveProjection } from "../execution/server.ts";
import type { ProjectGraphQLResult } from "../schema/projection.ts";
import { namedText, type TrustedDocuments } from "../execution/trusted.ts";
import type { HttpGraphQLServerOptions } from "./http_options.ts";
import {
  acceptNegotiator,
  APPLICATION_JSON,
  GRAPHQL_RESPONSE_JSON,
  type Media,
  mediaResponse,
} from "./_http_media.ts";
import {
  badRequest,
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
import {
  BODY_TIMEOUT_MS,
  declaredLength,
  MAX_BODY_BYTES,
  mediaType,
  within,
} from "../../web/body.ts";
import { MAX_INPUT_DEPTH } from "../../tree/plain_data.ts";
import { getSafety } from "./_http_safe.ts";

const ALLOW = "GET, POST, OPTIONS";

/** What the GraphQL server is made of: one already built, or the projection of a checked tree. */
export type Served =
  | { readonly server: GraphQLServer }
  | { readonly projection: ProjectGraphQLResult; readonly trusted: TrustedDocuments | undefined };

/** What `createHttpGraphQLServer` checked when it was made, the transport's other parts. */
export interface Checked {
  readonly path: string;
  readonly forms: FormGuard;
}

/** The handler `createHttpGraphQLServer` answers with once loaded. */
export function httpTransport(
  served: Served,
  opts: HttpGraphQLServerOptions,
  { path, forms }: Checked,
): (request: Request) => Promise<Response> {
  const server = "server" in served
    ? served.server
    : serveProjection(served.projection, opts, served.trusted);
  // Built on the first GET: the schema too builds on first use.
  let safeOverGet: ReturnType<typeof getSafety> | undefined;
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxResponseBytes = opts.maxResponseBytes ?? 16 * 1024 * 1024;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const maxQueryLength = opts.maxQueryLength ?? 100_000;
  const maxDepth = opts.maxInputDepth ?? MAX_INPUT_DEPTH;
  const maxTokens = server.limits.maxTokens;
  const makeContext = opts.context;
  const report = observer(opts.onError, "ramify: GraphQL over HTTP crashed:");
  const negotiate = acceptNegotiator();
  const direct = directOf(server);

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
    named: Params,
  ): Response | Promise<Response> => {
    let params = named;
    if (named.documentId !== undefined) {
      const found = namedText(named.documentId, named.query, (id) => server.trustedDocument(id));
      if (!("text" in found)) {
        if (found.code === "BAD_REQUEST") throw badRequest(found.message);
        return requestErrors(media, [{ message: found.message, extensions: { code: found.code } }]);
      }
      params = { ...named, query: found.text };
    }
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

    // `{ request, signal }`; `signal` is read only when asked (Deno warns on every read).
    const context = new RequestContext(request, "graphql");
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
      await contextOf(context, makeContext);
    } catch (error) {
      try {
        return contextFailure(error, context, media);
      } catch (crash) {
        return failure(crash, media, request);
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
    return result.then(
      (settled) => answer(settled, media),
      (error) => failure(error, media, context.request),
    );
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

  /** What a refusal or a crash answers. */
  const failure = (error: unknown, media: Media, request?: Request): Response => {
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
    report(error, request);
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
          return failure(error, media, request);
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
    const media = negotiate(headers.get("accept"), method);
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
      (error) => failure(error, media, request),
    );
  };
  // Not async: the common request's promise is the one `respond` gives, no layer around it.
  return (request) => {
    if (!atPath(request.url, path)) return Promise.resolve(problem(404));
    return respond(request);
  };
}

/**
 * Whether a URL's path is `path`: `splitUrl(url).path === path`, without
 * making the parts. A path holding `?` or `#` is no URL's. A relative URL
 * (`/graphql`: Bun gives one to a request without `Host`) is read by its path.
 */
function atPath(url: string, path: string): boolean {
  const start = url.charCodeAt(0) === 47 /* "/" */ ? 0 : url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return path === "/";
  if (!url.startsWith(path, start) || path.includes("?") || path.includes("#")) return false;
  const end = start + path.length;
  const next = url.charCodeAt(end);
  return end === url.length || next === 63 || next === 35; // "?" or "#"
}
