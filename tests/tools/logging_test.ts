// A handler's `log` and `progress` over MCP, with the official SDK's Client
// over Streamable HTTP against a live Deno.serve: log lines as
// `notifications/message` at or above the level a session set (per session,
// 2025 era; per request `_meta`, 2026 era), a fault logged at `error` with
// its details masked, and progress as `notifications/progress` when the
// client asked for it.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { log, progress } from "../../tree/interaction.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tree = api({
  chatty: op(async (_input, ctx) => {
    log(ctx, "info", "Tool execution started");
    await pause(50);
    log(ctx, "info", "Tool processing data");
    await pause(50);
    log(ctx, "info", "Tool execution completed");
    return "done";
  }),
  levels: op((_input, ctx) => {
    log(ctx, "debug", "a debug line");
    log(ctx, "warning", "a warning", { shelf: 3 });
    log(ctx, "error", "an error");
    // Not a level: nothing is sent, nothing fails.
    log(ctx, "loud" as "info", "ignored");
    return "logged";
  }),
  crash: op(() => {
    throw new Error("the disk at /secret is full");
  }),
  steps: op(async (_input, ctx) => {
    for (const done of [0, 50, 100]) {
      progress(ctx, done, 100, `${done}%`);
      await pause(10);
    }
    return "stepped";
  }),
});

type Line = { level: string; data: unknown };

function serve() {
  const mcp = createMcpHandler(tree, { warnMissingHints: false, onError: () => {} });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const url = new URL(`http://127.0.0.1:${server.addr.port}/mcp`);
  const clients: Client[] = [];
  const connect = async (era: "legacy" | "modern" = "legacy") => {
    const client = new Client(
      { name: "test", version: "1.0.0" },
      era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
    );
    const lines: Line[] = [];
    client.setNotificationHandler("notifications/message", (notification) => {
      lines.push({ level: notification.params.level, data: notification.params.data });
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    clients.push(client);
    return { client, lines };
  };
  return {
    connect,
    close: async () => {
      for (const client of clients) await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

Deno.test("logging: a handler's lines arrive in order, at every level by default", async () => {
  const { connect, close } = serve();
  try {
    const { client, lines } = await connect();
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.logging, {});
    const result = await client.callTool({ name: "chatty", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.deepEqual(lines, [
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
  } finally {
    await close();
  }
});

Deno.test("logging: logging/setLevel filters per session; data rides beside the message", async () => {
  const { connect, close } = serve();
  try {
    const quiet = await connect();
    const loud = await connect();
    await quiet.client.setLoggingLevel("warning");
    await quiet.client.callTool({ name: "levels", arguments: {} });
    await loud.client.callTool({ name: "levels", arguments: {} });
    assert.deepEqual(quiet.lines, [
      { level: "warning", data: { message: "a warning", data: { shelf: 3 } } },
      { level: "error", data: "an error" },
    ]);
    assert.deepEqual(loud.lines.map((line) => line.level), ["debug", "warning", "error"]);
  } finally {
    await close();
  }
});

Deno.test("logging (hostile): an unknown level is refused", async () => {
  const { connect, close } = serve();
  try {
    const { client } = await connect();
    await assert.rejects(client.setLoggingLevel("loud" as "info"));
  } finally {
    await close();
  }
});

Deno.test("logging: a fault is logged at error, its details masked", async () => {
  const { connect, close } = serve();
  try {
    const { client, lines } = await connect();
    const result = await client.callTool({ name: "crash", arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(lines, [{ level: "error", data: "crash: 500 Internal Server Error" }]);
    assert.doesNotMatch(JSON.stringify(lines), /secret/);
  } finally {
    await close();
  }
});

Deno.test("logging: a 2026-era request gets lines only when its _meta names a level", async () => {
  const { connect, close } = serve();
  try {
    const { client, lines } = await connect("modern");
    await client.callTool({ name: "levels", arguments: {} });
    assert.deepEqual(lines, []);
    await client.callTool({
      name: "levels",
      arguments: {},
      _meta: { "io.modelcontextprotocol/logLevel": "error" },
    });
    assert.deepEqual(lines, [{ level: "error", data: "an error" }]);
  } finally {
    await close();
  }
});

Deno.test("progress: reported to a client that asked for it, and only then", async () => {
  const { connect, close } = serve();
  try {
    const { client } = await connect();
    const seen: unknown[] = [];
    const result = await client.callTool({ name: "steps", arguments: {} }, {
      onprogress: (step) => void seen.push(step),
    });
    assert.equal((result.content as { text: string }[])[0].text.includes("stepped"), true);
    assert.deepEqual(seen, [
      { progress: 0, total: 100, message: "0%" },
      { progress: 50, total: 100, message: "50%" },
      { progress: 100, total: 100, message: "100%" },
    ]);
    // Without a progress token the call runs the same and sends nothing.
    const plain = await client.callTool({ name: "steps", arguments: {} });
    assert.equal(plain.isError, undefined);
  } finally {
    await close();
  }
});
