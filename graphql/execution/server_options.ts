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
  "executor",
  "tasks",
  "taskOwner",
] as const;

/**
 * Refuses an `executor` option that names no executor, where the server or
 * its HTTP transport is made.
 *
 * @example
 * ```ts
 * import { checkExecutor } from "./server_options.ts";
 *
 * checkExecutor("graphql-js", "createGraphQLServer"); // accepted
 * try {
 *   checkExecutor("jit", "createGraphQLServer");
 * } catch (error) {
 *   console.log((error as TypeError).message);
 *   // createGraphQLServer: executor must be "compiled" or "graphql-js", got "jit"
 * }
 * ```
 */
export function checkExecutor(executor: unknown, where: string): void {
  if (executor === undefined || executor === "compiled" || executor === "graphql-js") return;
  throw new TypeError(
    `${where}: executor must be "compiled" or "graphql-js", got ${JSON.stringify(executor)}`,
  );
}
