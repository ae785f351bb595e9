/**
 * One line to serve everything a tree offers: `serve(tree)` on Deno, Bun or
 * Node, or `createHandler(tree)` for a fetch handler of your own server (and
 * `export default` for `deno serve`). REST with its OpenAPI document and
 * Swagger UI, GraphQL over HTTP and WebSocket with GraphiQL, MCP, and a health
 * check, each at its own path and each switchable.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHandler } from "@ramify/api/serve";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const handler = await createHandler(tree, { mcp: false });
 * console.log(handler.paths); // { api: "/", openapi: "/openapi.json", graphql: "/graphql", ... }
 * ```
 *
 * @module
 */

export { createHandler } from "./handler.ts";
export type { GraphQLMount, HandlerOptions, ServedPaths, ServeHandler } from "./handler.ts";
export { serve, startupLines } from "./serve.ts";
export type { Listen, RunningServer, ServeOptions } from "./serve.ts";
