/**
 * Tools from the tree: descriptors for MCP and function calling
 * ({@linkcode toTools}), an MCP server over Streamable HTTP
 * ({@linkcode createMcpHandler}) or stdio ({@linkcode serveMcpStdio}), every
 * call through the one call path the other surfaces use, and
 * {@linkcode prompt}, the leaf MCP lists as a prompt.
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
export { toTools } from "./projection/describe.ts";
export type {
  ToolAnnotations,
  ToolDescriptor,
  ToolSecurityScheme,
  ToolsOptions,
} from "./projection/describe.ts";
export { createMcpHandler, serveMcpStdio } from "./server/mcp.ts";
export type { McpFetchHandler } from "./server/mcp.ts";
export type { McpHandlerOptions, McpOptions } from "./server/options.ts";
export { prompt } from "./prompt.ts";
export type { PromptContent, PromptMessage, PromptOptions, RenderedPrompt } from "./prompt.ts";
export { memoryMcpSessions } from "./sessions/store.ts";
export type {
  McpCancellations,
  McpEventAppend,
  McpEventStore,
  McpResumability,
  McpSessionRecord,
  McpSessionStore,
  McpStreamEvent,
  MemoryMcpSessionsOptions,
} from "./sessions/store.ts";
