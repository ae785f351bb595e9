// The JSON-RPC error of a refused MCP request over HTTP, answering no message
// in particular: the sessions' (an unknown session, the store down), a
// replay's, and the server's (a body refused, a policy, an identity).
//
// Used by the sessions (legacy.ts, resume.ts) and by the MCP server
// (tools/server/).

/**
 * A JSON-RPC error answered over HTTP, for no request in particular (`id: null`).
 *
 * @example
 * ```ts
 * import { jsonRpcRefusal } from "./refusal.ts";
 *
 * console.log(jsonRpcRefusal(413, -32000, "Payload Too Large").status); // 413
 * ```
 */
export function jsonRpcRefusal(
  status: number,
  code: number,
  message: string,
  headers?: HeadersInit,
): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, {
    status,
    headers,
  });
}
