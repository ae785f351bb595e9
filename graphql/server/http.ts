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
 *   `OPERATION_NOT_SUPPORTED`, `INTERNAL_SERVER_ERROR`, or the code an error
 *   mapping gives (see `graphqlErrors`).
 * - Other paths are `404`, other methods `405` (`OPTIONS` answers `204` with
 *   `Allow`), both as `application/problem+json` like the HTTP surface.
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

import {
  type DocumentNode,
  type ExecutionResult,
  getOperationAST,
  type GraphQLError,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import type { HandlerContext, Node } from "../../tree/node.ts";
import { HttpError } from "../../http/server/problem.ts";
import { problem } from "../../http/server/respond.ts";
import { splitUrl } from "../../http/server/path.ts";
import { readBodyBytes } from "../../http/server/body.ts";
import { graphqlErrors } from "../schema/errors.ts";
import { createGraphQLServer, type GraphQLServerOptions, type PreparedDocument } from "./server.ts";

/**
 * Makes the values a request's handlers see in their context, beside `request`
 * and `signal`. It may be asynchronous. Throwing an `HttpError` refuses the
 * request with its status (for example `401`); any other error is mapped by the
 * server's `errors` option, or masked as a `500`.
 *
 * @example
 * ```ts
 * import type { HttpGraphQLContextFunction } from "@ramify/api/graphql";
 *
 * const context: HttpGraphQLContextFunction = (request) => ({
 *   user: request.headers.get("x-user") ?? undefined,
 * });
 * ```
 */
export type HttpGraphQLContextFunction = (
  request: Request,
) =>
  | Readonly<Record<string, unknown>>
  | undefined
  | Promise<Readonly<Record<string, unknown>> | undefined>;

/**
 * Options of {@linkcode createHttpGraphQLServer}: the GraphQL server's (limits,
 * introspection, error mapping) and the transport's.
 *
 * @example
 * ```ts
 * import type { HttpGraphQLServerOptions } from "@ramify/api/graphql";
 *
 * const opts: HttpGraphQLServerOptions = {
 *   path: "/api/graphql",
 *   maxBodyBytes: 64 * 1024,
 *   introspection: false,
 *   limits: { maxDepth: 10 },
 * };
 * ```
 */
export interface HttpGraphQLServerOptions extends GraphQLServerOptions {
  /** The path served; every other path is `404`. Default `/graphql`. */
  readonly path?: string;
  /** The largest `POST` body accepted, in bytes (`413` above it). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The longest document (`query`) accepted, in characters: `413` in a `POST`
   * body, `414` in a `GET` URL. Documents are cached by their text, so this
   * bounds what the cache can hold. Default 100,000.
   */
  readonly maxQueryLength?: number;
  /** The deepest nesting of `variables` and `extensions` (`400` below it). Default 64. */
  readonly maxBodyDepth?: number;
  /** Makes the handlers' context values from the request. */
  readonly context?: HttpGraphQLContextFunction;
}

const GRAPHQL_RESPONSE_JSON = "application/graphql-response+json";
const APPLICATION_JSON = "application/json";
const ALLOW = "GET, POST, OPTIONS";

/** The response media type chosen for a request, with its headers. */
interface Media {
  /** Whether it is `application/graphql-response+json` (status codes follow the outcome). */
  readonly strict: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

const STRICT: Media = {
  strict: true,
  headers: { "content-type": `${GRAPHQL_RESPONSE_JSON}; charset=utf-8`, vary: "accept" },
};
const LEGACY: Media = {
  strict: false,
  headers: { "content-type": `${APPLICATION_JSON}; charset=utf-8`, vary: "accept" },
};

/** Why a request is refused before execution: a status, a message and a code. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly code: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {}
}

/** The parameters of a well-formed GraphQL-over-HTTP request. */
interface Params {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly operationName: string | undefined;
}

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
 *
 * const tree = api({
 *   whoami: op((_input: unknown, ctx) => ctx.user, { tags: { readOnly: true } }),
 *   books: api({ add: op((input: { title: string }) => ({ id: "1", ...input })) }),
 * });
 * const handler = createHttpGraphQLServer(tree, {
 *   context: (request) => ({ user: request.headers.get("x-user") }),
 *   errors: graphqlErrors({ NotFound: "NOT_FOUND" }),
 *   limits: { maxDepth: 8 },
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
  opts: HttpGraphQLServerOptions = {},
): (request: Request) => Promise<Response> {
  const path = opts.path ?? "/graphql";
  if (!path.startsWith("/")) {
    throw new TypeError(`createHttpGraphQLServer: path must start with "/", got "${path}"`);
  }
  const server = createGraphQLServer(tree, opts);
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const maxQueryLength = opts.maxQueryLength ?? 100_000;
  const maxDepth = opts.maxBodyDepth ?? 64;
  const maxTokens = opts.limits?.maxTokens ?? 10_000;
  const makeContext = opts.context;
  const mapError = opts.errors ?? graphqlErrors({});
  const report = (error: unknown) => {
    try {
      (opts.onError ?? defaultOnError)(error);
    } catch {
      // An observer that throws must not change what the client sees.
    }
  };
  const negotiate = acceptNegotiator();

  const handle = async (request: Request, media: Media, method: string): Promise<Response> => {
    const params = method === "GET"
      ? fromSearch(splitUrl(request.url).query, maxQueryLength, maxDepth)
      : fromJson(await readJson(request, maxBodyBytes), maxQueryLength, maxDepth);

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
    }

    let context: HandlerContext;
    if (makeContext === undefined) context = baseContext(request);
    else {
      let own: unknown;
      try {
        own = await makeContext(request);
      } catch (error) {
        return contextFailure(error, media);
      }
      context = mergedContext(request, own);
    }

    const result = await server.execute({
      query: params.query,
      document: prepared.document,
      variables: params.variables,
      operationName: params.operationName,
      context,
    });
    if (result.data === undefined) {
      // No data: a request error raised before execution began (variable coercion).
      return requestErrors(media, (result.errors ?? []).map(inputError));
    }
    return new Response(serialize(result), { status: 200, headers: media.headers });
  };

  const contextFailure = (error: unknown, media: Media): Response => {
    const mapped = mapError(error);
    if (mapped === undefined) {
      report(error);
      return masked(media);
    }
    const status = error instanceof HttpError ? error.status : statusOf(mapped) ?? 400;
    const headers = error instanceof HttpError
      ? { ...Object.fromEntries(error.headers), ...media.headers }
      : media.headers;
    return new Response(JSON.stringify({ errors: [mapped] }), { status, headers });
  };

  return async (request) => {
    if (splitUrl(request.url).path !== path) return problem(404);
    const method = request.method;
    if (method !== "POST" && method !== "GET") {
      if (method === "OPTIONS") {
        return new Response(null, { status: 204, headers: { allow: ALLOW } });
      }
      return problem(405, `${path} answers GET and POST`, { allow: ALLOW });
    }
    const media = negotiate(request.headers.get("accept"));
    if (media === undefined) {
      return problem(
        406,
        `Accept ${GRAPHQL_RESPONSE_JSON} or ${APPLICATION_JSON} (with charset utf-8, if any)`,
      );
    }
    try {
      return await handle(request, media, method);
    } catch (error) {
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
    }
  };
}

function defaultOnError(error: unknown): void {
  console.error("ramify: GraphQL over HTTP crashed:", error);
}

/** The error a client sees for a crash: nothing of the crash itself. */
function masked(media: Media): Response {
  return new Response(
    JSON.stringify({
      errors: [{ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } }],
    }),
    { status: 500, headers: media.headers },
  );
}

/** A response that is all request errors: `400` with graphql-response+json, `200` with json. */
function requestErrors(media: Media, errors: readonly unknown[]): Response {
  return new Response(JSON.stringify({ errors }), {
    status: media.strict ? 400 : 200,
    headers: media.headers,
  });
}

/** A result as JSON text; a value JSON cannot hold is a crash (masked by the caller). */
function serialize(result: ExecutionResult): string {
  return JSON.stringify(result);
}

function mutationOverGet(): Refusal {
  return new Refusal(
    405,
    "Mutations are not run over GET; send them with POST",
    "METHOD_NOT_ALLOWED",
    { allow: "POST" },
  );
}

/** An HTTP status a mapped error asks for in `extensions.status`, if any. */
function statusOf(error: GraphQLError): number | undefined {
  const status = error.extensions.status;
  return typeof status === "number" && Number.isInteger(status) && status >= 400 && status <= 599
    ? status
    : undefined;
}

// ---------------------------------------------------------------- context

/** `{ request, signal }`; `signal` is read only when asked (Deno warns on every read). */
function baseContext(request: Request): HandlerContext {
  return {
    request,
    get signal() {
      return request.signal;
    },
  };
}

/** `{ request, signal, ...own }`: own properties copied as they are (getters stay lazy). */
function mergedContext(request: Request, own: unknown): HandlerContext {
  const context = baseContext(request);
  if (typeof own !== "object" || own === null) return context;
  for (const key of Object.keys(own)) {
    const descriptor = Object.getOwnPropertyDescriptor(own, key)!;
    Object.defineProperty(context, key, { ...descriptor, configurable: true, enumerable: true });
  }
  return context;
}

// ---------------------------------------------------------------- errors

type ErrorJson = ReturnType<GraphQLError["toJSON"]>;

/** A parse or validation error with a code: `GRAPHQL_PARSE_FAILED` or `GRAPHQL_VALIDATION_FAILED`. */
function documentError(error: GraphQLError): ErrorJson {
  if (error.locations === undefined && /^RangeError\b|call stack/i.test(error.message)) {
    // The parser recurses too; its stack overflow says nothing a client needs.
    return deepDocument("GRAPHQL_PARSE_FAILED");
  }
  return withCode(
    error,
    error.message.startsWith("Syntax Error") ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED",
  );
}

function deepDocument(code: string): ErrorJson {
  return { message: "The document nests too deeply to be read", extensions: { code } };
}

/** A variable coercion error: `BAD_USER_INPUT` unless it has a code. */
function inputError(error: GraphQLError): ErrorJson {
  return withCode(error, "BAD_USER_INPUT");
}

function withCode(error: GraphQLError, code: string): ErrorJson {
  const json = error.toJSON();
  if (typeof json.extensions?.code === "string") return json;
  return { ...json, extensions: { ...json.extensions, code } };
}

// ---------------------------------------------------------------- operation

/** Whether the (invalid) document and operationName choose a mutation: GET then refuses with 405. */
function isMutation(params: Params, maxTokens: number): boolean {
  let document: DocumentNode;
  try {
    document = parse(params.query, { maxTokens });
  } catch {
    return false;
  }
  const operation: OperationDefinitionNode | null | undefined = getOperationAST(
    document,
    params.operationName,
  );
  return operation?.operation === "mutation";
}

// ---------------------------------------------------------------- accept

/**
 * Chooses the response media type from an `Accept` header (RFC 9110): each of
 * ours takes the `q` of the most specific range that matches it; the higher `q`
 * wins, then the more specific match, then the one listed first, then
 * `application/json`. Memoized: clients send few distinct headers.
 */
function acceptNegotiator(): (accept: string | null) => Media | undefined {
  const memo = new Map<string, Media | null>();
  return (accept) => {
    if (accept === null || accept === "") return LEGACY;
    const known = memo.get(accept);
    if (known !== undefined) return known ?? undefined;
    const chosen = chooseMedia(accept);
    if (memo.size >= 256) memo.clear();
    memo.set(accept, chosen ?? null);
    return chosen;
  };
}

interface Match {
  readonly q: number;
  readonly specificity: number;
  readonly index: number;
}

function chooseMedia(accept: string): Media | undefined {
  let strict: Match | undefined;
  let legacy: Match | undefined;
  const ranges = accept.split(",");
  for (let index = 0; index < ranges.length; index++) {
    const parts = ranges[index].split(";");
    const range = parts[0].trim().toLowerCase();
    let q = 1;
    let usable = true;
    for (let i = 1; i < parts.length; i++) {
      const eq = parts[i].indexOf("=");
      if (eq === -1) continue;
      const name = parts[i].slice(0, eq).trim().toLowerCase();
      const value = unquote(parts[i].slice(eq + 1).trim());
      if (name === "q") {
        q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : -1;
      } else if (name === "charset") {
        usable = isUtf8(value);
      }
    }
    if (!usable || q < 0) continue;
    strict = better(strict, range, GRAPHQL_RESPONSE_JSON, q, index);
    legacy = better(legacy, range, APPLICATION_JSON, q, index);
  }
  const strictQ = strict?.q ?? 0;
  const legacyQ = legacy?.q ?? 0;
  if (strictQ === 0 && legacyQ === 0) return undefined;
  if (strictQ !== legacyQ) return strictQ > legacyQ ? STRICT : LEGACY;
  if (strict!.specificity !== legacy!.specificity) {
    return strict!.specificity > legacy!.specificity ? STRICT : LEGACY;
  }
  return strict!.index < legacy!.index ? STRICT : LEGACY;
}

/** The match of `type` against `range`, kept when more specific than the one so far. */
function better(
  current: Match | undefined,
  range: string,
  type: string,
  q: number,
  index: number,
): Match | undefined {
  const specificity = range === type ? 3 : range === "application/*" ? 2 : range === "*/*" ? 1 : 0;
  if (specificity === 0 || (current !== undefined && current.specificity >= specificity)) {
    return current;
  }
  return { q, specificity, index };
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

function isUtf8(charset: string): boolean {
  const lower = charset.toLowerCase();
  return lower === "utf-8" || lower === "utf8";
}

// ---------------------------------------------------------------- request parameters

/** `GET` parameters from the URL query (WHATWG form encoding); each at most once. */
function fromSearch(search: string, maxQueryLength: number, maxDepth: number): Params {
  let query: string | undefined;
  let variables: string | undefined;
  let operationName: string | undefined;
  let extensions: string | undefined;
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(search)) {
    if (key !== "query" && key !== "variables" && key !== "operationName" && key !== "extensions") {
      continue;
    }
    if (seen.has(key)) throw badRequest(`The ${key} parameter is given more than once`);
    seen.add(key);
    if (key === "query") query = value;
    else if (key === "variables") variables = value;
    else if (key === "operationName") operationName = value;
    else extensions = value;
  }
  if (query === undefined) {
    throw badRequest("A GET request needs a query parameter holding the document");
  }
  if (query.length > maxQueryLength) {
    throw new Refusal(
      414,
      `The document is longer than ${maxQueryLength} characters`,
      "PAYLOAD_TOO_LARGE",
    );
  }
  if (extensions !== undefined) mapOf(parseJsonParameter("extensions", extensions), "extensions");
  const variableValues = variables === undefined
    ? undefined
    : mapOf(parseJsonParameter("variables", variables), "variables");
  if (variableValues !== undefined) checkDepth(variableValues, maxDepth, "variables");
  return {
    query,
    variables: variableValues,
    operationName: operationName === "" ? undefined : operationName,
  };
}

function parseJsonParameter(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The ${name} parameter is not valid JSON`);
  }
}

/** `POST` parameters from the parsed JSON body. */
function fromJson(body: unknown, maxQueryLength: number, maxDepth: number): Params {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The body must be a JSON object: { query, variables?, operationName? }");
  }
  const fields = body as Record<string, unknown>;
  const query = Object.hasOwn(fields, "query") ? fields.query : undefined;
  if (typeof query !== "string") {
    throw badRequest(
      query === undefined || query === null
        ? "The body needs a query: the document as a string"
        : "The query must be a string holding the document",
    );
  }
  if (query.length > maxQueryLength) {
    throw new Refusal(
      413,
      `The document is longer than ${maxQueryLength} characters`,
      "PAYLOAD_TOO_LARGE",
    );
  }
  const operationName = Object.hasOwn(fields, "operationName") ? fields.operationName : undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw badRequest("The operationName must be a string");
  }
  const variables = mapOf(
    Object.hasOwn(fields, "variables") ? fields.variables : undefined,
    "variables",
  );
  const extensions = mapOf(
    Object.hasOwn(fields, "extensions") ? fields.extensions : undefined,
    "extensions",
  );
  if (variables !== undefined) checkDepth(variables, maxDepth, "variables");
  if (extensions !== undefined) checkDepth(extensions, maxDepth, "extensions");
  return {
    query,
    variables,
    operationName: typeof operationName === "string" && operationName !== ""
      ? operationName
      : undefined,
  };
}

/** A map parameter: an object, or absent (`null` is absent). */
function mapOf(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badRequest(`The ${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Bounds nesting iteratively, so a hostile value cannot exhaust the stack later on. */
function checkDepth(root: unknown, maxDepth: number, name: string): void {
  const stack: unknown[] = [root];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const value = stack.pop();
    const depth = depths.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > maxDepth) throw badRequest(`The ${name} nest deeper than ${maxDepth} levels`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === "object" && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
}

function badRequest(message: string): Refusal {
  return new Refusal(400, message, "BAD_REQUEST");
}

// ---------------------------------------------------------------- body

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The `POST` body as JSON: `application/json` in UTF-8, within the size limit. */
async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get("content-type");
  const unsupported = unsupportedType(contentType);
  if (unsupported !== undefined) {
    await request.body?.cancel().catch(() => {});
    throw new Refusal(415, unsupported, "UNSUPPORTED_MEDIA_TYPE", {
      "accept-post": APPLICATION_JSON,
    });
  }
  const read = await readBodyBytes(request, maxBytes);
  if (!read.ok) {
    throw read.reason === "too-large"
      ? new Refusal(413, `The body is larger than ${maxBytes} bytes`, "PAYLOAD_TOO_LARGE")
      : badRequest("The body could not be read");
  }
  const bytes = read.bytes;
  if (bytes.byteLength === 0) throw badRequest("The body is empty; send { query, variables? }");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest("The body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The body is not valid JSON");
  }
}

/** Why a Content-Type is refused, or `undefined` for `application/json` in UTF-8. */
function unsupportedType(contentType: string | null): string | undefined {
  if (contentType === null || contentType === "") {
    return `A POST needs Content-Type: ${APPLICATION_JSON}`;
  }
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim()
    .toLowerCase();
  if (type !== APPLICATION_JSON) {
    return `Content-Type ${type} is not accepted; send ${APPLICATION_JSON}`;
  }
  if (semicolon === -1) return undefined;
  for (const parameter of contentType.slice(semicolon + 1).split(";")) {
    const eq = parameter.indexOf("=");
    if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    if (!isUtf8(unquote(parameter.slice(eq + 1).trim()))) {
      return `Only the utf-8 charset is accepted`;
    }
  }
  return undefined;
}
