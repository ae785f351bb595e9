// A 2026-07-28 request is served by a server the handler made for an earlier
// one, once that one has ended: the registrations are made once, not per
// request. Requests in flight together each get their own, as the SDK asks.
import assert from "node:assert/strict";
import { Server } from "@modelcontextprotocol/server";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";

const tree = api({
  echo: op(async ({ n }: { n: number }) => {
    await new Promise((resolve) => setTimeout(resolve, n));
    return `waited ${n}`;
  }, { tags: { readOnly: true } }),
});

function call(id: number, n: number): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "echo",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "echo",
        arguments: { n },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}

/** The last message's text content of an answer, JSON or a stream. */
async function textOf(response: Response): Promise<string> {
  const body = await response.text();
  const json = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? body.split("\n").filter((line) => line.startsWith("data: ")).at(-1)!.slice(6)
    : body;
  return JSON.parse(json).result.content[0].text;
}

Deno.test("MCP 2026-07-28: one server serves requests one after another, one each in flight together", async () => {
  const connected = new Set<Server>();
  const connect = Server.prototype.connect;
  Server.prototype.connect = function (this: Server, ...args) {
    connected.add(this);
    return connect.apply(this, args);
  };
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  try {
    for (let i = 0; i < 5; i++) assert.equal(await textOf(await mcp(call(i, 0))), "waited 0");
    assert.equal(connected.size, 1);
    const together = await Promise.all([mcp(call(10, 20)), mcp(call(11, 20))]);
    assert.deepEqual(await Promise.all(together.map(textOf)), ["waited 20", "waited 20"]);
    assert.equal(connected.size, 2);
  } finally {
    Server.prototype.connect = connect;
    await mcp.close();
  }
});
