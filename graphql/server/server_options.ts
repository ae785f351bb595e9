/**
 * Every option of `createGraphQLServer`, listed once, apart from the server so
 * that the HTTP transport and `serve()` read the list without loading
 * graphql-js: the server checks it against its options type, and refuses any
 * other key.
 *
 * @example
 * ```ts
 * import { GRAPHQL_SERVER_OPTIONS } from "./server_options.ts";
 *
 * console.log(GRAPHQL_SERVER_OPTIONS.includes("limits")); // true
 * ```
 *
 * @module
 */

/**
 * The option keys of `createGraphQLServer`.
 *
 * @example
 * ```ts
 * import { GRAPHQL_SERVER_OPTIONS } from "./server_options.ts";
 *
 * console.log(GRAPHQL_SERVER_OPTIONS.includes("timeoutMs")); // true
 * ```
 */
export const GRAPHQL_SERVER_OPTIONS = [
  "introspection",
  "limits",
  "documentCacheSize",
  "documentCacheBytes",
  "trustedDocuments",
  "readNames",
  "errors",
  "onError",
  "timeoutMs",
] as const;
