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

/** A JSON-RPC answer to a tool call, as the tests read it. */
export interface JsonRpcAnswer {
  readonly id?: unknown;
  readonly result?: { readonly content: readonly { readonly text?: string }[] };
  readonly error?: {
    readonly code: number;
    readonly message: string;
    readonly data?: Record<string, unknown>;
  };
}

/** A JSON-RPC message as a raw client reads it. */
export type JsonRpcMessage = Omit<JsonRpcAnswer, "result"> & {
  readonly result?: Record<string, unknown>;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
};

/**
 * A raw 2026-07-28 request: the JSON-RPC message (a fresh id unless it has
 * one) and the routing headers the revision asks for (`Mcp-Method`, and
 * `Mcp-Name` from its params' `name` or `taskId`), beside `headers`.
 */
export function modernRequest(
  message: {
    readonly method: string;
    readonly params?: Record<string, unknown>;
    readonly id?: unknown;
  },
  headers: Record<string, string> = {},
): { id: unknown; init: RequestInit } {
  const id = message.id ?? crypto.randomUUID();
  const name = message.params?.name ?? message.params?.taskId;
  return {
    id,
    init: {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": message.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message, id }),
    },
  };
}

/** The message of `id` in an answer: the stream's event that carries it, or the JSON body. */
export async function answerOf(response: Response, id: unknown): Promise<JsonRpcMessage> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return JSON.parse(text);
  }
  return text.split("\n").filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6))).find((event) => event.id === id);
}

/**
 * A raw 2026-07-28 `tools/call` (its routing headers, and a client that
 * declares no capability), and its JSON-RPC answer: the stream's event of the
 * call's `id`, or the JSON body; with the `WWW-Authenticate` challenge.
 */
export async function modernToolCall(
  url: URL | string,
  name: string,
  args: Record<string, unknown>,
  opts: { readonly id?: number; readonly headers?: Record<string, string> } = {},
): Promise<{ status: number; challenge: string | null; text: string; message: JsonRpcAnswer }> {
  const { id, init } = modernRequest({
    method: "tools/call",
    id: opts.id ?? 1,
    params: {
      name,
      arguments: args,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }, opts.headers);
  const response = await fetch(url, init);
  const text = await response.text();
  const events = text.split("\n").filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
  const message = events.find((event) => event.id === id) ?? JSON.parse(text);
  // A refusal before the SDK (an OAuth challenge, say) is no stream, and its body may be no JSON-RPC.
  const challenge = response.headers.get("www-authenticate");
  return { status: response.status, challenge, text, message };
}

/** The JSON-RPC error an SDK client's call rejects with (fails the test if it succeeds). */
export async function refused(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  return await failure(() => call) as { code: number; message: string };
}
