/**
 * `@ramify/api/auth`: the tree as an OAuth 2.1 resource server. `oauth()` is a
 * guard middleware that verifies bearer tokens of one issuer (JWTs with
 * `jose` against its key set, opaque tokens by introspection) and checks each
 * leaf's scopes (`meta.scopes`) in the one call path, so that REST, GraphQL,
 * MCP and the command line refuse alike; the servers publish the RFC 9728
 * metadata its challenges point to, and the OpenAPI document its scheme and
 * each operation's scopes. `jose` is an optional peer: only this subpath
 * loads it.
 *
 * @example
 * ```ts
 * import { api, op, use } from "@ramify/api";
 * import { oauth } from "@ramify/api/auth";
 *
 * const guard = oauth({ issuer: "https://login.example", audience: "https://api.example" });
 * const tree = api({
 *   books: api({
 *     add: op((_input, ctx) => ctx.user.sub, use(guard)),
 *   }, { meta: { scopes: ["books:write"] } }),
 * });
 * ```
 *
 * @module
 */

export { oauth } from "./oauth.ts";
export type {
  OAuthIntrospection,
  OAuthLeaf,
  OAuthOptions,
  OAuthSecurity,
  OAuthUser,
} from "./oauth.ts";
