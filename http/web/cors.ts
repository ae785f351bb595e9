/**
 * Cross-origin resource sharing for the HTTP surface: which origins may call,
 * whether with credentials, and the preflight answer. A specific origin is
 * reflected with `Vary: Origin`; `*` is never sent together with credentials.
 *
 * @example
 * ```ts
 * import { api, createFetch, http, op } from "@ramify/api";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   cors: { origin: ["https://app.example"], credentials: true },
 * });
 * ```
 *
 * @module
 */

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
  if (headers === undefined) return response;
  try {
    addCors(response.headers, headers);
    return response;
  } catch {
    // A passed-through Response may have immutable headers: copy it.
    const copy = new Response(response.body, response);
    addCors(copy.headers, headers);
    return copy;
  }
}

/** Appends to `Vary` (a passed-through response may vary on more), sets the rest. */
function addCors(target: Headers, cors: Headers): void {
  for (const [name, value] of cors) {
    if (name === "vary") target.append(name, value);
    else target.set(name, value);
  }
}
