// MCP's tasks extension for the agreement suites: one 2026-07-28 request from
// a client declaring it, answered by the MCP handler in process.
import assert from "node:assert/strict";
import { answerOf, modernRequest } from "./mcp_wire.ts";

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
  const { id, init } = modernRequest({ method, id: 1, params: { ...params, _meta: meta } });
  const message = await answerOf(await mcp(new Request(`${base}/mcp`, init)), id);
  assert.equal(message.error, undefined, JSON.stringify(message.error));
  return message.result as Record<string, unknown>;
}
