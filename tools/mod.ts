/**
 * Tools from the tree: descriptors for MCP and function calling
 * ({@linkcode toTools}), and an MCP server over Streamable HTTP
 * ({@linkcode createMcpHandler}) or stdio ({@linkcode serveMcpStdio}), every
 * call through the one call path the other surfaces use.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createMcpHandler, toTools } from "@ramify/api/tools";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * console.log(toTools(tree)[0].name); // "ping"
 * const mcp = createMcpHandler(tree);
 * ```
 *
 * @module
 */
export { toTools } from "./describe.ts";
export type { ToolAnnotations, ToolDescriptor, ToolsOptions } from "./describe.ts";
export { createMcpHandler, serveMcpStdio } from "./mcp.ts";
export type { McpFetchHandler } from "./mcp.ts";
export type { McpHandlerOptions, McpOptions } from "./options.ts";
export { memoryMcpSessions } from "./sessions.ts";
export type {
  McpCancellations,
  McpEventAppend,
  McpEventStore,
  McpResumability,
  McpSessionRecord,
  McpSessionStore,
  McpStreamEvent,
  MemoryMcpSessionsOptions,
} from "./sessions.ts";
