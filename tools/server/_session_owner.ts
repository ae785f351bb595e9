// Who a 2025-era session belongs to: the identity of the request that opened
// it, kept in its record as a fingerprint (SHA-256, never the credential) and
// compared on every later request of the session. By default the identity is
// the request's credentials: its `Authorization` header and each header or
// cookie a guard of the tree reads (`auth()`'s security scheme); no credential
// is the anonymous identity. Under a guard that verifies tokens ahead of a call
// (`oauth()`), a bearer token's identity is its principal (`iss` and `sub`), so
// that a token renewed or stepped up keeps its session, and it claims a
// session opened without a token: an MCP client authorizes only once a call
// is refused, after its handshake. `sessionOwner` names it instead (the
// verified user's id, say, so that a token renewed keeps its session).

import { HttpError } from "../../tree/http_error.ts";
import { catalogueOf } from "../../tree/catalogue.ts";
import { securityOf } from "../../tree/middleware.ts";
import { principalOf } from "../../tree/principal.ts";
import type { Node } from "../../tree/node.ts";
import { jsonRpcRefusal } from "../sessions/refusal.ts";
import type { Identify } from "../sessions/legacy.ts";
import { sha256 } from "../../tree/digest.ts";

/**
 * What a handler's `sessionOwner` option is: who a request speaks for, or undefined for no one.
 *
 * @example
 * ```ts
 * import type { SessionOwner } from "./_session_owner.ts";
 *
 * const byTenant: SessionOwner = (request) => request.headers.get("x-tenant") ?? undefined;
 * ```
 */
export type SessionOwner = (request: Request) => string | undefined | Promise<string | undefined>;

/**
 * The identities of requests: by `given`, or by the request's credentials as
 * the tree's guards read them. `onError` observes a `given` that fails with
 * anything but an `HttpError` (answered with its status).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { identities } from "./_session_owner.ts";
 *
 * const identify = identities(api({ ping: op(() => "pong") }), undefined, console.error);
 * const request = new Request("http://localhost/mcp", { headers: { authorization: "Bearer t" } });
 * const identity = await identify(request);
 * console.log(identity.ok && identity.owner?.length); // 64
 * ```
 */
export function identities(
  tree: Node,
  given: SessionOwner | undefined,
  onError: (error: unknown) => void,
): Identify {
  const principal = given === undefined ? verifiedPrincipal(tree) : undefined;
  const named = given ?? credentialsOf(tree);
  return async (request) => {
    let who: string | undefined;
    try {
      const verified = await principal?.(request);
      if (verified !== undefined) {
        return { ok: true, owner: await sha256(verified), claims: true };
      }
      who = await named(request);
    } catch (error) {
      if (error instanceof HttpError) {
        return {
          ok: false,
          response: jsonRpcRefusal(error.status, -32000, error.message, error.headers),
        };
      }
      onError(error);
      return { ok: false, response: jsonRpcRefusal(500, -32603, "Internal error") };
    }
    if (who !== undefined && typeof who !== "string") {
      onError(
        new TypeError(`MCP: sessionOwner must give a string or undefined, got ${typeof who}`),
      );
      return { ok: false, response: jsonRpcRefusal(500, -32603, "Internal error") };
    }
    return { ok: true, owner: who === undefined ? undefined : await sha256(who) };
  };
}

/**
 * The credentials a request carries, as one string (`undefined` for none):
 * `Authorization`, and every header and cookie a guard of the tree reads.
 */
function credentialsOf(tree: Node): (request: Request) => string | undefined {
  const headers = new Set(["authorization"]);
  const cookies = new Set<string>();
  for (const { leaf } of catalogueOf(tree).entries) {
    for (const { scheme } of securityOf(leaf)) {
      if (scheme.type !== "apiKey" || typeof scheme.name !== "string") continue;
      if (scheme.in === "header") headers.add(scheme.name.toLowerCase());
      if (scheme.in === "cookie") cookies.add(scheme.name);
    }
  }
  return (request) => {
    const found: string[] = [];
    for (const name of headers) {
      const value = request.headers.get(name);
      if (value !== null) found.push(`header ${name}`, value);
    }
    if (cookies.size > 0) {
      for (const [name, value] of cookiesOf(request.headers.get("cookie"))) {
        if (cookies.has(name)) found.push(`cookie ${name}`, value);
      }
    }
    return found.length === 0 ? undefined : JSON.stringify(found);
  };
}

/**
 * The principal a request's bearer token names (`iss` and `sub`) to the
 * first guard of the tree that verifies one ahead of a call, or undefined
 * (no such guard, no bearer token, no subject); its refusal is thrown.
 */
function verifiedPrincipal(
  tree: Node,
): ((request: Request) => Promise<string | undefined>) | undefined {
  const authenticate = catalogueOf(tree).entries.flatMap(({ leaf }) => securityOf(leaf))
    .find((security) => security.authenticate !== undefined)?.authenticate;
  if (authenticate === undefined) return undefined;
  return async (request) => {
    if (!/^bearer\s/i.test(request.headers.get("authorization") ?? "")) return undefined;
    // The same principal a call's guards establish: one owner rule for sessions and tasks.
    return principalOf({ user: await authenticate(request) });
  };
}

/** The cookies of a `Cookie` header, by name, in order. */
function cookiesOf(header: string | null): [string, string][] {
  if (header === null) return [];
  const found: [string, string][] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1) found.push([part.slice(0, eq).trim(), part.slice(eq + 1).trim()]);
  }
  return found.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}
