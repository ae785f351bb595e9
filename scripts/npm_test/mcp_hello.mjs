// An MCP handshake over Streamable HTTP, as the npm suites send it raw: one
// `initialize` POST (2025 era), the request a live MCP endpoint answers 200.

/** The handshake's headers: JSON, answered as JSON or server-sent events. */
export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** The handshake as `fetch`'s init. */
export const MCP_HELLO = {
  method: "POST",
  headers: MCP_HEADERS,
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "npm-suite", version: "1.0.0" },
    },
  }),
};
