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
  /** The scopes an operation needs. */
  readonly scopes: readonly string[];
}
