// MCP's tasks extension for the agreement suites: one 2026-07-28 request from
// a client declaring it, answered by the MCP handler in process.
import assert from "node:assert/strict";

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** One 2026-07-28 request to `mcp` from a client declaring the tasks extension; its result. */
export async function mcpTasksCall(
  mcp: (request: Request) => Promise<Response>,
  base: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
  };
  const name = params.name ?? params.taskId;
  const response = await mcp(
    new Request(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": String(name),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
    }),
  );
  const text = await response.text();
  const message = text.startsWith("{")
    ? JSON.parse(text)
    : JSON.parse(text.split("\n").find((line) => line.startsWith("data: "))!.slice(6));
  assert.equal(message.error, undefined, JSON.stringify(message.error));
  return message.result as Record<string, unknown>;
}
