// MCP as a raw client writes it, for tests that read the wire itself rather
// than go through the SDK's client, and the errors a client's calls reject with.

import { failure } from "./outcomes.ts";

/** A 2025-era `initialize` request. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
} as const;

/** A Streamable HTTP POST of one JSON-RPC message (the handshake by default). */
export function mcpPost(message: unknown = INITIALIZE): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(message),
  };
}

/** The JSON-RPC error an SDK client's call rejects with (fails the test if it succeeds). */
export async function refused(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  return await failure(() => call) as { code: number; message: string };
}
