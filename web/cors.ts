/**
 * Cross-origin resource sharing for the HTTP surface: which origins may call,
 * whether with credentials, and the preflight answer. A specific origin is
 * reflected with `Vary: Origin`; `*` is never sent together with credentials.
 *
 * @example
 * ```ts
 * import { api, createFetch, http, op } from "@ramify/api";
 * import { cors } from "@ramify/api/http";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   policies: [cors({ origin: ["https://app.example"], credentials: true })],
 * });
 * ```
 *
 * @module
 */

import { type Policy, withHeaders } from "./edge.ts";

/**
 * CORS as a request policy, for any surface: every answer to an origin it
 * allows carries its headers (refusals of later policies, 404s and failures
 * too), and a preflight (`OPTIONS` with `Access-Control-Request-Method`) is
 * answered with the methods the surface says it allows at that path (its own
 * `Allow`, from its answer to `OPTIONS`). List it first so that every answer
 * passes through it.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { cors, createFetch } from "@ramify/api/http";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   policies: [cors({ origin: "https://app.example", maxAge: 600 })],
 * });
 * const preflight = await handler(
 *   new Request("http://localhost/ping", {
 *     method: "OPTIONS",
 *     headers: { origin: "https://app.example", "access-control-request-method": "GET" },
 *   }),
 * );
 * console.log(preflight.headers.get("access-control-allow-methods")); // "GET, HEAD, OPTIONS"
 * ```
 *
 * @throws {TypeError} for `origin: "*"` with `credentials: true`, which browsers refuse.
 */
export function cors(options: true | CorsOptions = true): Policy {
  const policy = corsPolicy(options);
  return {
    name: "cors",
    apply: (next) => async (request) => {
      const origin = request.headers.get("origin");
      const answer = await next(request);
      if (
        request.method === "OPTIONS" && request.headers.has("access-control-request-method") &&
        answer.status === 204
      ) {
        const allow = answer.headers.get("allow");
        if (allow !== null) return policy.preflight(request, allow);
      }
      return withCors(answer, policy, origin);
    },
  };
}

/**
 * CORS settings. `true` allows every origin without credentials.
 *
 * @example
 * ```ts
 * import type { CorsOptions } from "@ramify/api/http";
 *
 * const cors: CorsOptions = {
 *   origin: (origin) => origin.endsWith(".example.com"),
 *   credentials: true,
 *   maxAge: 600,
 * };
 * ```
 */
export interface CorsOptions {
  /**
   * Which origins may call: `"*"` (any, never with credentials), one origin, a
   * list, or a predicate. Default `"*"`.
   */
  readonly origin?: "*" | string | readonly string[] | ((origin: string) => boolean);
  /** Allow cookies and authorization headers. Default `false`. */
  readonly credentials?: boolean;
  /** Request headers a preflight allows. Default: those the preflight asks for. */
  readonly allowHeaders?: readonly string[];
  /** Response headers the browser may read. */
  readonly exposeHeaders?: readonly string[];
  /** Seconds a preflight may be cached. */
  readonly maxAge?: number;
}

/** The compiled CORS policy of a router. */
export interface CorsPolicy {
  /** Headers for an actual (non-preflight) response to `origin`. */
  headersFor(origin: string | null): Headers | undefined;
  /** The preflight response for `origin`, with the methods allowed at the path. */
  preflight(request: Request, allow: string): Response;
}

/**
 * Compiles CORS options into a policy.
 *
 * @example
 * ```ts
 * import { corsPolicy } from "@ramify/api/http";
 *
 * const policy = corsPolicy({ origin: "https://app.example", credentials: true });
 * console.log(policy.headersFor("https://app.example")?.get("access-control-allow-origin"));
 * // "https://app.example"
 * ```
 *
 * @throws {TypeError} for `origin: "*"` with `credentials: true`, which browsers refuse.
 */
export function corsPolicy(options: true | CorsOptions): CorsPolicy {
  const opts: CorsOptions = options === true ? {} : options;
  const origin = opts.origin ?? "*";
  const credentials = opts.credentials === true;
  if (origin === "*" && credentials) {
    throw new TypeError(
      'cors: origin "*" cannot be used with credentials; list the allowed origins or give a predicate',
    );
  }
  const allows = typeof origin === "function"
    ? origin
    : typeof origin === "string"
    ? (candidate: string) => origin === "*" || candidate === origin
    : (candidate: string) => origin.includes(candidate);
  // "*" alone needs no Vary; every reflected origin does, or caches mix answers.
  const reflects = origin !== "*";

  const headersFor = (requestOrigin: string | null): Headers | undefined => {
    const headers = new Headers();
    if (reflects) headers.set("vary", "Origin");
    if (requestOrigin === null || !allows(requestOrigin)) {
      return reflects ? headers : undefined;
    }
    headers.set("access-control-allow-origin", reflects ? requestOrigin : "*");
    if (credentials) headers.set("access-control-allow-credentials", "true");
    if (opts.exposeHeaders?.length) {
      headers.set("access-control-expose-headers", opts.exposeHeaders.join(", "));
    }
    return headers;
  };

  return {
    headersFor,
    preflight(request, allow) {
      const requestOrigin = request.headers.get("origin");
      const headers = headersFor(requestOrigin) ?? new Headers();
      headers.append("vary", "Access-Control-Request-Headers");
      if (requestOrigin !== null && allows(requestOrigin)) {
        headers.set("access-control-allow-methods", allow);
        const asked = request.headers.get("access-control-request-headers");
        const allowed = opts.allowHeaders?.join(", ") ?? asked;
        if (allowed) headers.set("access-control-allow-headers", allowed);
        if (opts.maxAge !== undefined) headers.set("access-control-max-age", String(opts.maxAge));
      }
      headers.set("allow", allow);
      return new Response(null, { status: 204, headers });
    },
  };
}

/**
 * A response with the policy's CORS headers for `origin` (none without a
 * policy, or for an origin it refuses).
 *
 * @example
 * ```ts
 * import { corsPolicy, withCors } from "@ramify/api/http";
 *
 * const response = withCors(new Response("hi"), corsPolicy(true), "https://app.example");
 * console.log(response.headers.get("access-control-allow-origin")); // "*"
 * ```
 */
export function withCors(
  response: Response,
  cors: CorsPolicy | undefined,
  origin: string | null | undefined,
): Response {
  if (cors === undefined) return response;
  const headers = cors.headersFor(origin ?? null);
  // `Vary` appended (a passed-through response may vary on more), the rest set.
  return headers === undefined ? response : withHeaders(response, headers);
}
