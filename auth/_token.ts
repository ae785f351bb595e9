// Where the guard finds a token.

/** Where a call's credential may be: its request, or a WebSocket's connection parameters. */
export interface CallSource {
  readonly request?: Request;
  readonly connectionParams?: unknown;
}

/** What a call carries: a bearer token, one in the query string (refused), or none. */
export type Read =
  | { readonly kind: "bearer"; readonly token: string }
  | { readonly kind: "query" }
  | { readonly kind: "none" };

const BEARER = /^Bearer +([^ ]+) *$/i;

/**
 * The token of `Authorization: Bearer`, else of a GraphQL WebSocket's
 * `authorization` connection parameter. A query string's `access_token` is
 * looked for first and refused (RFC 6750 §2.3 lets it leak into logs).
 */
export function tokenOf(context: CallSource): Read {
  const request = context.request;
  if (request !== undefined && request.url.includes("access_token")) {
    // A base for a relative URL: Bun gives one to a request without `Host`.
    if (new URL(request.url, "http://localhost").searchParams.has("access_token")) {
      return { kind: "query" };
    }
  }
  const header = request?.headers.get("authorization") ?? paramOf(context.connectionParams);
  const match = header === undefined ? null : BEARER.exec(header);
  return match === null ? { kind: "none" } : { kind: "bearer", token: match[1] };
}

function paramOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  for (const [key, value] of Object.entries(params)) {
    if (key.toLowerCase() === "authorization" && typeof value === "string") return value;
  }
  return undefined;
}

/** Three base64url parts, the first a JSON header naming `alg`: a JWS, which jose verifies. */
export function isJwtShaped(token: string): boolean {
  const parts = token.split(".");
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(atob(parts[0].replaceAll("-", "+").replaceAll("_", "/")));
    return typeof header === "object" && header !== null && typeof header.alg === "string";
  } catch {
    return false;
  }
}
