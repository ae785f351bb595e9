/**
 * Who a call is made for, decided once: the principal the leaf's guards
 * established, never the credential that named it. Everything a caller can
 * come back to (a task, an MCP session, a question) is owned by it, so a
 * renewed token of the same user keeps what the old one started.
 *
 * Internal to the surfaces (public at `./tree/catalogue`).
 *
 * @module
 */

import type { HandlerContext } from "./node.ts";

/**
 * The principal of a context, as a stable string, read from the `user` its
 * guards put there: `oauth()`'s issuer and subject (its client, for a token
 * naming no subject); a string or number as it is; an object's `sub` (with
 * its `iss`), else its `id`; else the whole value
 * `auth()`'s `verify` returned, its keys sorted. `undefined` when no guard
 * named anyone: the anonymous caller.
 *
 * @example
 * ```ts
 * import { principalOf } from "@ramify/api/tree/catalogue";
 *
 * const ann = principalOf({ user: { iss: "https://id.example", sub: "ann", exp: 1 } });
 * console.log(ann === principalOf({ user: { iss: "https://id.example", sub: "ann", exp: 2 } })); // true
 * console.log(principalOf({ user: "ann" })); // ["user","ann"]
 * console.log(principalOf({ request: new Request("http://x", { headers: { authorization: "Bearer t" } }) })); // undefined
 * ```
 */
export function principalOf(context: HandlerContext): string | undefined {
  const user = context.user as unknown;
  if (user === undefined || user === null) return undefined;
  if (typeof user === "string" || typeof user === "number") {
    return JSON.stringify(["user", String(user)]);
  }
  if (typeof user !== "object") return undefined;
  const { sub, iss, id, client_id: client } = user as Record<string, unknown>;
  const issuer = typeof iss === "string" ? iss : null;
  if (typeof sub === "string" && sub !== "") return JSON.stringify(["subject", issuer, sub]);
  // A client's own token (client credentials) may name no subject.
  if (typeof client === "string" && client !== "") {
    return JSON.stringify(["client", issuer, client]);
  }
  if (typeof id === "string" || typeof id === "number") return JSON.stringify(["user", String(id)]);
  return JSON.stringify(["verified", sorted(user)]);
}

/** A value with every object's keys in order, so that equal values write equal JSON. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
