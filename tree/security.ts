/**
 * What a guard middleware tells the documentation: its security scheme (an
 * OpenAPI `components.securitySchemes` entry) and the scopes it asks for.
 *
 * @example
 * ```ts
 * import type { Security } from "@ramify/api/tree";
 *
 * const security: Security = { name: "bearerAuth", scheme: { type: "http", scheme: "bearer" }, scopes: [] };
 * ```
 *
 * @module
 */

/**
 * A leaf as a guard reads it (a tree `Node`; its meta only, since `node.ts`
 * imports this module and no import may go round).
 *
 * @example
 * ```ts
 * import type { SecuredLeaf } from "@ramify/api/tree";
 * import { op } from "@ramify/api/tree";
 *
 * const leaf: SecuredLeaf = op(() => 1, { scopes: ["books:read"] });
 * ```
 */
export interface SecuredLeaf {
  /** Its meta: `scopes`, `tags` and the rest. */
  readonly meta?: { readonly [key: string]: unknown };
}

/**
 * An OpenAPI security scheme object (`components.securitySchemes` entry):
 * `{ type: "http", scheme: "bearer" }`, `{ type: "apiKey", in, name }`, ...
 *
 * @example
 * ```ts
 * import type { SecurityScheme } from "@ramify/api/tree";
 *
 * const bearer: SecurityScheme = { type: "http", scheme: "bearer", bearerFormat: "JWT" };
 * ```
 */
export interface SecurityScheme {
  /** `http`, `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /** Further fields of the scheme, as OpenAPI names them. */
  readonly [key: string]: unknown;
}

/**
 * What a guard tells the documentation: the name of its security scheme, the
 * scheme itself and the scopes it asks for.
 *
 * @example
 * ```ts
 * import type { Security } from "@ramify/api/tree";
 *
 * const security: Security = {
 *   name: "bearerAuth",
 *   scheme: { type: "http", scheme: "bearer" },
 *   scopes: [],
 * };
 * ```
 */
export interface Security {
  /** The key under `components.securitySchemes`. */
  readonly name: string;
  /** The scheme. */
  readonly scheme: SecurityScheme;
  /** The scopes an operation needs (see `scopesFor` for a guard that decides them per leaf). */
  readonly scopes: readonly string[];
  /**
   * The scopes a call of `leaf` needs, where the guard decides them per leaf
   * (an OAuth guard: the leaf's `meta.scopes`, else its defaults). Surfaces
   * that document scopes read this first, then `scopes`.
   */
  readonly scopesFor?: (leaf: SecuredLeaf) => readonly string[];
  /** The OAuth protected resource the guard serves: servers publish its metadata. */
  readonly resource?: ProtectedResource;
  /**
   * Checks a request ahead of a call, as the guard does in the call path (an
   * edge that answers before any leaf runs, MCP's HTTP transport say): the
   * identity its credential names, or a thrown `HttpError` (401, 403, 503)
   * whose headers hold the challenge. With `leaf`, its scopes are checked too.
   */
  readonly authenticate?: (request: Request, leaf?: SecuredLeaf) => Promise<unknown>;
}

/**
 * An OAuth 2.0 protected resource (RFC 9728) as a guard describes it: the
 * metadata the servers publish, where, and the challenge its refusals carry.
 *
 * @example
 * ```ts
 * import type { ProtectedResource } from "@ramify/api/tree";
 *
 * const describe = (resource: ProtectedResource) =>
 *   `${resource.metadata.resource} at ${resource.metadataUrl}`;
 * ```
 */
export interface ProtectedResource {
  /** The metadata, `scopes_supported` aside: a server adds the scopes its leaves need. */
  readonly metadata: ProtectedResourceMetadata;
  /** The metadata's URL: the `resource_metadata` of every challenge. */
  readonly metadataUrl: string;
  /**
   * The paths a server answers with the metadata: the path-suffixed form
   * (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`) and
   * the bare `/.well-known/oauth-protected-resource`.
   */
  readonly metadataPaths: readonly string[];
  /**
   * The `WWW-Authenticate` value of a refusal: `Bearer` with `error` (none
   * when no token came), `resource_metadata` and `scope` (the scopes needed).
   */
  challenge(
    options?: { readonly error?: string; readonly scopes?: readonly string[] },
  ): string;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), as published.
 *
 * @example
 * ```ts
 * import type { ProtectedResourceMetadata } from "@ramify/api/tree";
 *
 * const metadata: ProtectedResourceMetadata = {
 *   resource: "https://api.example/mcp",
 *   authorization_servers: ["https://issuer.example"],
 *   bearer_methods_supported: ["header"],
 * };
 * ```
 */
export interface ProtectedResourceMetadata {
  /** The resource identifier: the `aud` its tokens carry. */
  readonly resource: string;
  /** The issuers whose tokens it accepts. */
  readonly authorization_servers: readonly string[];
  /** The scopes its operations use. */
  readonly scopes_supported?: readonly string[];
  /** How it takes a token: `["header"]`. */
  readonly bearer_methods_supported: readonly string[];
  /** A page a person reads about it. */
  readonly resource_documentation?: string;
}
