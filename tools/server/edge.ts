/**
 * MCP behind the edge (`applyPolicies`): a policy's refusal is a JSON-RPC
 * error (code `-32000`, no id: it answers no message it read) with the
 * policy's status and headers, what an MCP client reads of a refused request.
 *
 * @example
 * ```ts
 * import { mcpEdge } from "./edge.ts";
 *
 * const refused = mcpEdge.refuse({
 *   status: 429,
 *   code: "TOO_MANY_REQUESTS",
 *   message: "Too many requests; try again later",
 *   headers: { "retry-after": "1" },
 * });
 * console.log(refused.status, (await refused.json()).error.code); // 429 -32000
 * ```
 *
 * @module
 */

import type { EdgeSurface } from "../../web/edge.ts";
import { jsonRpcRefusal } from "../sessions/refusal.ts";

/** MCP over HTTP as policies see it. */
export const mcpEdge: EdgeSurface = {
  name: "mcp",
  refuse: ({ status, message, headers }) => jsonRpcRefusal(status, -32000, message, headers),
};
