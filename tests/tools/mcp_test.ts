// The MCP server end to end, with the official SDK's own Client: over
// Streamable HTTP against a live Deno.serve, and over stdio against a spawned
// process. Listing (paged), values, structured output, validation errors,
// HttpErrors, declared errors with data, masked faults, leaves without input,
// the context option, streams as progress, cancellation, timeouts, origins.
import assert from "node:assert/strict";
import { INITIALIZE } from "../support/mcp_wire.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { childEnv } from "../support/child_env.ts";
import { HttpError } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";
import { cancelled, context, tree } from "../support/mcp_tree.ts";

type Connected = { client: Client; crashes: unknown[]; close(): Promise<void> };

async function overHttp(
  opts: McpHandlerOptions = {},
  era: "legacy" | "modern" = "legacy",
): Promise<Connected & { base: string }> {
  const crashes: unknown[] = [];
  const mcp = createMcpHandler(tree, {
    name: "ramify-test",
    version: "1.0.0",
    instructions: "Books and ticks, for tests.",
    onError: (error) => crashes.push(error),
    context,
    ...opts,
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) =>
      new URL(request.url).pathname === "/mcp" ? mcp(request) : new Response(null, { status: 404 }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const client = new Client(
    { name: "test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return {
    client,
    crashes,
    base,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

/** Waits for what another process reports; gives up after 10 s (a guard against hangs, not a timing check). */
async function eventually(done: () => boolean, what: string): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries === 500) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const text = (result: { content?: unknown }) =>
  ((result.content as { text: string }[])[0] ?? { text: "" }).text;

/** The cases both transports must answer alike. */
async function sharedCases(
  t: Deno.TestContext,
  { client }: Connected,
  crashes: () => unknown[],
  { overStdio = false } = {},
) {
  await t.step("the handshake carries the server's name, version and instructions", () => {
    assert.equal(client.getServerVersion()?.name, "ramify-test");
    assert.equal(client.getServerVersion()?.version, "1.0.0");
    assert.equal(client.getInstructions(), "Books and ticks, for tests.");
  });
  await t.step("tools/list gives every tool with schemas and annotations", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [
      "ping",
      "books.add",
      "books.read",
      "books.echo",
      "boom",
      "ticks",
      "wait",
      "reserve",
      "whoami",
    ]);
    const read = tools.find((tool) => tool.name === "books.read")!;
    assert.deepEqual(read.inputSchema, {
      type: "object",
      properties: { bookId: { type: "string" } },
      required: ["bookId"],
      additionalProperties: true,
    }, "no input schema: an open object, the capture named");
    assert.deepEqual(read.annotations, { readOnlyHint: true, idempotentHint: true });
    const add = tools.find((tool) => tool.name === "books.add")!;
    assert.deepEqual(add.annotations, { idempotentHint: false, destructiveHint: false });
    assert.equal(add.outputSchema?.type, "object");
  });
  await t.step("a string is its own text, any other value JSON text", async () => {
    const result = await client.callTool({ name: "ping", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, [{ type: "text", text: "pong" }]);
  });
  await t.step(
    "an output schema gives structured content, stripped as on every surface",
    async () => {
      const result = await client.callTool({
        name: "books.add",
        arguments: { title: "Dune", pages: 412 },
      });
      assert.deepEqual(result.structuredContent, { id: "b1", title: "Dune", pages: 412 });
      assert.deepEqual(JSON.parse(text(result)), { id: "b1", title: "Dune", pages: 412 });
    },
  );
  await t.step("arguments the schema refuses are a tool error saying why", async () => {
    const result = await client.callTool({
      name: "books.add",
      arguments: { title: "", pages: -1 },
    });
    assert.equal(result.isError, true);
    assert.match(text(result), /^422 Unprocessable Content: .*title: .*pages: /);
  });
  await t.step("a capture is a required string argument", async () => {
    const found = await client.callTool({ name: "books.read", arguments: { bookId: "b1" } });
    assert.deepEqual(JSON.parse(text(found)), { id: "b1", title: "Dune" });
    const missing = await client.callTool({ name: "books.read", arguments: {} });
    assert.equal(text(missing), "422 Unprocessable Content: bookId: Expected a string");
  });
  await t.step(
    "a leaf without an input schema gets its arguments as sent, captures merged",
    async () => {
      const result = await client.callTool({
        name: "books.echo",
        arguments: { bookId: "b7", title: "kept", n: { deep: [1] } },
      });
      assert.deepEqual(JSON.parse(text(result)), { bookId: "b7", title: "kept", n: { deep: [1] } });
    },
  );
  await t.step("an HttpError is a tool error with its status", async () => {
    const result = await client.callTool({ name: "books.read", arguments: { bookId: "b9" } });
    assert.equal(result.isError, true);
    assert.equal(text(result), "404 Not Found: No book b9");
  });
  await t.step("a declared error is its status, code and message, its data below", async () => {
    const result = await client.callTool({ name: "reserve", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(text(result), '409 Conflict [SOLD_OUT]: Sold out\n{"left":0}');
  });
  await t.step("a crash is masked and observed", async () => {
    const before = crashes().length;
    const result = await client.callTool({ name: "boom", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(text(result), "500 Internal Server Error");
    assert.doesNotMatch(JSON.stringify(result), /password/);
    // Over stdio the observer writes to stderr, read on its own schedule.
    await eventually(() => crashes().length === before + 1, "the crash observed");
  });
  await t.step("the context option is told the surface, and the request over HTTP", async () => {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    assert.deepEqual(JSON.parse(text(result)), { surface: "mcp", carried: !overStdio });
  });
  await t.step("an unknown tool is JSON-RPC error -32602", async () => {
    await assert.rejects(
      client.callTool({ name: "nope", arguments: {} }),
      (error: { code?: number; message?: string }) =>
        error.code === -32602 && /Unknown tool: "nope"/.test(String(error.message)),
    );
  });
  await t.step("a stream sends each item as progress and returns them all", async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: "ticks", arguments: { count: 3 } }, {
      onprogress: (update) => void progress.push(update),
    });
    assert.deepEqual(JSON.parse(text(result)), [{ tick: 1 }, { tick: 2 }, { tick: 3 }]);
    const expected = [[1, { tick: 1 }], [2, { tick: 2 }], [3, { tick: 3 }]];
    const received = progress.map((p) => [p.progress, JSON.parse(p.message!)]);
    // The SDK's stdio client drops progress read together with the result; the
    // raw-wire test below shows the server sends every item first.
    assert.deepEqual(received, overStdio ? expected.slice(0, received.length) : expected);
    assert.ok(received.length > 0, "progress arrived");
  });
  await t.step("only the fault reached onError", () => {
    assert.equal(crashes().length, 1);
  });
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`MCP over Streamable HTTP, with the SDK's Client (${era === "legacy" ? "2025 sessions" : "2026-07-28 per request"})`, async (t) => {
    const connected = await overHttp({}, era);
    try {
      await sharedCases(t, connected, () => connected.crashes);
      await t.step("cancelling a call aborts the handler's signal", async () => {
        const aborted = new Promise((resolve) => cancelled.resolve = resolve);
        const controller = new AbortController();
        const call = connected.client.callTool({ name: "wait", arguments: {} }, {
          signal: controller.signal,
        });
        setTimeout(() => controller.abort(new Error("user gave up")), 50);
        await assert.rejects(call);
        assert.equal((await aborted as DOMException).name, "AbortError");
        // The handler gave up with its signal's reason: a cancelled call, not a fault.
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(connected.crashes.length, 1, "only the earlier crash");
      });
    } finally {
      await connected.close();
    }
  });
}

Deno.test("MCP over HTTP: tools/list pages with a cursor; a bad cursor is -32602", async () => {
  const connected = await overHttp({ pageSize: 4 });
  try {
    const first = await connected.client.listTools({ cursor: undefined as unknown as string });
    assert.equal(first.tools.length, 9, "no cursor: the SDK walks every page");
    const page = await connected.client.listTools({ cursor: "4" });
    assert.deepEqual(page.tools.map((tool) => tool.name), ["boom", "ticks", "wait", "reserve"]);
    assert.equal(page.nextCursor, "8");
    const last = await connected.client.listTools({ cursor: "8" });
    assert.deepEqual(last.tools.map((tool) => tool.name), ["whoami"]);
    assert.equal(last.nextCursor, undefined);
    await assert.rejects(
      connected.client.listTools({ cursor: "nonsense" }),
      (error: { code?: number }) => error.code === -32602,
    );
  } finally {
    await connected.close();
  }
});

Deno.test("MCP over HTTP: a browser Origin outside the allow-list is refused (DNS rebinding)", async () => {
  const connected = await overHttp({ allowedOrigins: ["localhost", "app.example"] });
  try {
    const post = (origin: string) =>
      fetch(`${connected.base}/mcp`, {
        method: "POST",
        headers: {
          origin,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(INITIALIZE),
      });
    const evil = await post("http://evil.example");
    assert.equal(evil.status, 403);
    await evil.body?.cancel();
    const allowed = await post("https://app.example");
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
  } finally {
    await connected.close();
  }
});

Deno.test("MCP over stdio, against a spawned process", async (t) => {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", new URL("../support/mcp_stdio.ts", import.meta.url).pathname],
    env: childEnv(),
    stderr: "pipe",
  });
  const lines: string[] = [];
  const stderr = transport.stderr as unknown as NodeJS.ReadableStream;
  stderr.setEncoding("utf8");
  stderr.on("data", (chunk: string) => lines.push(...chunk.split("\n").filter(Boolean)));
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    assert.deepEqual(client.getServerVersion(), { name: "ramify-test", version: "1.0.0" });
    assert.deepEqual(lines.filter((line) => line.startsWith("ramify:")), [], "no hint is missing");
    const crashes = () => lines.filter((line) => line.startsWith("crash:"));
    await sharedCases(t, { client, crashes: [], close: () => client.close() }, crashes, {
      overStdio: true,
    });
    await t.step("cancelling a call aborts the handler's signal", async () => {
      const controller = new AbortController();
      const call = client.callTool({ name: "wait", arguments: {} }, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user gave up")), 50);
      await assert.rejects(call);
      await eventually(() => lines.includes("cancelled"), "the handler's signal aborted");
      // A round trip after the cancel: its crash line, had there been one, came first.
      await client.callTool({ name: "ping", arguments: {} });
      assert.equal(crashes().length, 1, "a cancelled call is no fault");
    });
  } finally {
    await client.close();
  }
});

Deno.test("MCP over stdio: the wire carries every item as progress before the result", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", new URL("../support/mcp_stdio.ts", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  const messages = [
    INITIALIZE,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "ticks", arguments: { count: 3 }, _meta: { progressToken: "t" } },
    },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(messages.map((m) => JSON.stringify(m)).join("\n") + "\n"),
  );
  const lines: Record<string, unknown>[] = [];
  let buffered = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts.filter(Boolean).map((line) => JSON.parse(line)));
    if (lines.some((line) => line.id === 2)) break;
  }
  await writer.close();
  await child.status;
  const afterInit = lines.filter((line) => line.id !== 1);
  assert.deepEqual(afterInit.map((line) => line.method ?? `result ${line.id}`), [
    "notifications/progress",
    "notifications/progress",
    "notifications/progress",
    "result 2",
  ]);
  assert.deepEqual(
    afterInit.slice(0, 3).map((line) => (line.params as { progress: number }).progress),
    [1, 2, 3],
  );
});

Deno.test("MCP over HTTP: 2025 sessions are bounded; an unknown session is a 404", async () => {
  const first = await overHttp({ maxSessions: 1 });
  try {
    const unknown = await fetch(`${first.base}/mcp`, {
      method: "POST",
      headers: {
        "mcp-session-id": "not-a-session",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.message, "Session not found");
    // A second session on the same handler closes the least recently used one.
    const second = new Client({ name: "second", version: "1.0.0" });
    await second.connect(new StreamableHTTPClientTransport(new URL(`${first.base}/mcp`)));
    assert.equal((await second.listTools()).tools.length, 9);
    await assert.rejects(first.client.listTools());
    await second.close();
  } finally {
    await first.close();
  }
});

Deno.test("MCP: hostile arguments never reach a prototype or crash the server", async () => {
  const connected = await overHttp();
  try {
    const polluting = JSON.parse('{"__proto__": {"polluted": true}, "title": "x", "pages": 1}');
    const added = await connected.client.callTool({ name: "books.add", arguments: polluting });
    assert.deepEqual(added.structuredContent, { id: "b1", title: "x", pages: 1 });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const capture = await connected.client.callTool({
      name: "books.read",
      arguments: { bookId: { toString: "b1" } },
    });
    assert.equal(text(capture), "422 Unprocessable Content: bookId: Expected a string");
    const deep = await connected.client.callTool({
      name: "books.add",
      arguments: { title: JSON.parse("[".repeat(2000) + "]".repeat(2000)), pages: 1 },
    });
    // Refused for its depth before the schema looks at it, as REST refuses such a body.
    assert.equal(text(deep), "400 Bad Request: The input nests deeper than 64 levels");
    assert.deepEqual(connected.crashes, []);
  } finally {
    await connected.close();
  }
});

Deno.test("MCP: past timeoutMs a call is a 503 tool error, not a fault, and its signal aborts", async () => {
  const connected = await overHttp({ timeoutMs: 50 });
  try {
    const aborted = new Promise((resolve) => cancelled.resolve = resolve);
    const result = await connected.client.callTool({ name: "wait", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(
      text(result),
      "503 Service Unavailable: The operation did not finish within 50 ms",
    );
    assert.equal((await aborted as DOMException).name, "TimeoutError");
    const quick = await connected.client.callTool({ name: "ping", arguments: {} });
    assert.equal(text(quick), "pong", "a call within the deadline answers");
    assert.deepEqual(connected.crashes, []);
  } finally {
    await connected.close();
  }
});

Deno.test("MCP: the context option's HttpError is the tool's error; its crash is a fault", async () => {
  const refusing = await overHttp({
    context: () => {
      throw new HttpError(401, "Who are you?");
    },
  });
  try {
    const result = await refusing.client.callTool({ name: "ping", arguments: {} });
    assert.equal(text(result), "401 Unauthorized: Who are you?");
    assert.deepEqual(refusing.crashes, []);
  } finally {
    await refusing.close();
  }
  const crashing = await overHttp({
    context: () => Promise.reject(new Error("the session store is down")),
  });
  try {
    const result = await crashing.client.callTool({ name: "ping", arguments: {} });
    assert.equal(text(result), "500 Internal Server Error");
    assert.deepEqual(crashing.crashes.map((error) => (error as Error).message), [
      "the session store is down",
    ]);
  } finally {
    await crashing.close();
  }
});
