// How a 2026-07-28 `tools/call` comes back: a call answered at once as JSON
// (as the SDK's own default answers it), one still running after a moment as
// the SSE stream begun then (so that Deno sees its client leave), and one that
// sends progress as the stream holding it, however quick.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";

const tree = api({
  quick: op(() => ({ ok: true }), { tags: { readOnly: true } }),
  slow: op(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return "late";
  }, { tags: { readOnly: true } }),
  ticks: op(async function* () {
    yield 1;
    yield 2;
  }, { tags: { readOnly: true } }),
});

function call(name: string, meta: Record<string, unknown> = {}): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name,
        arguments: {},
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          ...meta,
        },
      },
    }),
  });
}

Deno.test("MCP 2026-07-28: a call answered at once is JSON, a slow one or one with progress a stream", async () => {
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  try {
    const quick = await mcp(call("quick"));
    assert.equal(quick.headers.get("content-type"), "application/json");
    const answer = await quick.json();
    assert.equal(answer.id, 7);
    assert.deepEqual(JSON.parse(answer.result.content[0].text), { ok: true });

    const slow = await mcp(call("slow"));
    assert.equal(slow.headers.get("content-type"), "text/event-stream");
    const events = (await slow.text()).split("\n").filter((line) => line.startsWith("data: "));
    assert.equal(JSON.parse(events.at(-1)!.slice(6)).result.content[0].text, "late");

    const ticks = await mcp(call("ticks", { progressToken: "t" }));
    assert.equal(ticks.headers.get("content-type"), "text/event-stream");
    const messages = (await ticks.text()).split("\n").filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    assert.deepEqual(messages.map((message) => message.method ?? "answer"), [
      "notifications/progress",
      "notifications/progress",
      "answer",
    ]);
  } finally {
    await mcp.close();
  }
});

/** A 2025-11-25 session's POST of `message` (the handshake without a session). */
function sessionPost(message: unknown, session?: string): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(session === undefined ? {} : { "mcp-session-id": session }),
    },
    body: JSON.stringify(message),
  });
}

Deno.test("MCP 2025-era session with resumable streams: a call answered at once is JSON, a slow one a resumable stream", async () => {
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  try {
    const opened = await mcp(sessionPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "answers", version: "1" },
      },
    }));
    const session = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    const initialized = await mcp(
      sessionPost({ jsonrpc: "2.0", method: "notifications/initialized" }, session),
    );
    await initialized.body?.cancel();
    const toolCall = (name: string, id: number) =>
      mcp(sessionPost({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: {} },
      }, session));

    const quick = await toolCall("quick", 2);
    assert.equal(quick.headers.get("content-type"), "application/json");
    const answer = await quick.json();
    assert.equal(answer.id, 2);
    assert.deepEqual(JSON.parse(answer.result.content[0].text), { ok: true });

    // Still running after a moment: the stream, primed with an event id to resume from.
    const slow = await toolCall("slow", 3);
    assert.equal(slow.headers.get("content-type"), "text/event-stream");
    const text = await slow.text();
    assert.match(text, /^id: \S+\nretry: \d+\ndata: \n\n/, "the priming event comes first");
    assert.match(text, /event: message\nid: \S+\ndata: \{/, "the answer carries its event id");
    const data = text.split("\n").filter((line) => line.startsWith("data: {"));
    assert.equal(JSON.parse(data.at(-1)!.slice(6)).result.content[0].text, "late");
  } finally {
    await mcp.close();
  }
});
