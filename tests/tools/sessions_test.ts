// 2025-era MCP sessions as records: the in-memory store (bounded by count
// and idle time, refreshed on use), hostile session ids refused before any
// store lookup, the Streamable HTTP answers of a session (a request without
// one, DELETE, GET), and a session served by a handler that never saw its
// `initialize` (two handlers sharing one store), cancellations included.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { memoryBus } from "@ramify/api/pubsub";
import {
  createMcpHandler,
  type McpFetchHandler,
  type McpHandlerOptions,
  type McpSessionRecord,
  type McpSessionStore,
  memoryMcpSessions,
} from "@ramify/api/tools";
import { cancelled, tree } from "../support/mcp_tree.ts";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";

const record = (name: string): McpSessionRecord => ({
  protocolVersion: "2025-06-18",
  clientCapabilities: {},
  clientInfo: { name, version: "1.0.0" },
  createdAt: 0,
});

Deno.test("memoryMcpSessions: past maxSessions the least recently used goes", async () => {
  const sessions = memoryMcpSessions({ maxSessions: 2 });
  await sessions.create("a", record("a"));
  await sessions.create("b", record("b"));
  assert.equal((await sessions.get("a"))?.clientInfo.name, "a", "a is now the most recent");
  await sessions.create("c", record("c"));
  assert.equal(await sessions.get("b"), undefined);
  assert.equal((await sessions.get("a"))?.clientInfo.name, "a");
  assert.equal((await sessions.get("c"))?.clientInfo.name, "c");
});

Deno.test("memoryMcpSessions: a session idle past idleMs is gone; each use restarts its time", async () => {
  let now = 0;
  const sessions = memoryMcpSessions({ idleMs: 100, now: () => now });
  await sessions.create("kept", record("kept"));
  await sessions.create("idle", record("idle"));
  for (now = 60; now <= 240; now += 60) assert.ok(await sessions.get("kept"), `used at ${now}`);
  assert.equal(await sessions.get("idle"), undefined);
  now += 101;
  assert.equal(await sessions.get("kept"), undefined);
});

Deno.test("memoryMcpSessions: delete says whether there was a session; options are checked", async () => {
  const sessions = memoryMcpSessions();
  await sessions.create("a", record("a"));
  assert.equal(await sessions.delete("a"), true);
  assert.equal(await sessions.delete("a"), false);
  assert.equal(await sessions.get("a"), undefined);
  assert.throws(() => memoryMcpSessions({ maxSessions: 0 }), RangeError);
  assert.throws(() => memoryMcpSessions({ maxSessions: 1.5 }), RangeError);
  assert.throws(() => memoryMcpSessions({ idleMs: 0 }), RangeError);
  assert.throws(() => createMcpHandler(tree, { maxSessions: -1 }), RangeError);
});

/** A memory store that counts what it is asked. */
function counted(): McpSessionStore & { asked: string[] } {
  const inner = memoryMcpSessions();
  const asked: string[] = [];
  return {
    asked,
    create: (id, value) => (asked.push(`create ${id}`), inner.create(id, value)),
    get: (id) => (asked.push(`get ${id}`), inner.get(id)),
    delete: (id) => (asked.push(`delete ${id}`), inner.delete(id)),
  };
}

async function withHandlers(
  count: number,
  opts: McpHandlerOptions,
  body: (bases: string[], handlers: McpFetchHandler[]) => Promise<void>,
): Promise<void> {
  const handlers = Array.from({ length: count }, () => createMcpHandler(tree, opts));
  const servers = handlers.map((mcp) =>
    Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp)
  );
  try {
    await body(servers.map((server) => `http://127.0.0.1:${server.addr.port}/mcp`), handlers);
  } finally {
    for (const mcp of handlers) await mcp.close();
    for (const server of servers) await server.shutdown();
  }
}

const sessionHeaders = (session: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-session-id": session,
  "mcp-protocol-version": "2025-06-18",
});

/** The promise, or a failure after 10 s (a guard against hangs, not a timing check). */
async function guarded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), 10_000);
  });
  try {
    return await Promise.race([promise, giveUp]);
  } finally {
    clearTimeout(timer);
  }
}

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list" };

async function begin(url: string): Promise<string> {
  const response = await fetch(url, mcpPost(INITIALIZE));
  assert.equal(response.status, 200);
  assert.equal((await response.json()).result.protocolVersion, "2025-06-18");
  return response.headers.get("mcp-session-id")!;
}

Deno.test("MCP sessions: hostile session ids are a 404 without a store lookup", async () => {
  const store = counted();
  await withHandlers(1, { sessions: store }, async ([url]) => {
    const hostile = [
      "a".repeat(10_000),
      "../../../etc/passwd",
      "0123456789abcdef0123456789abcde\u00e9",
      "0123456789ABCDEF0123456789ABCDEF",
      "0123456789abcdef0123456789abcde",
      "0123456789abcdef0123456789abcdef0",
      "*",
      "",
    ];
    for (const id of hostile) {
      for (const method of ["POST", "DELETE", "GET"]) {
        const response = await fetch(url, {
          method,
          headers: sessionHeaders(id),
          ...(method === "POST" ? { body: JSON.stringify(LIST) } : {}),
        });
        assert.equal(response.status, 404, `${method} ${id.slice(0, 40)}`);
        assert.equal((await response.json()).error.message, "Session not found");
      }
    }
    assert.deepEqual(store.asked, [], "no hostile id reached the store");
    const unknown = "0123456789abcdef0123456789abcdef";
    const response = await fetch(url, {
      method: "POST",
      headers: sessionHeaders(unknown),
      body: JSON.stringify(LIST),
    });
    assert.equal(response.status, 404);
    await response.body?.cancel();
    assert.deepEqual(store.asked, [`get ${unknown}`], "a well-formed id is looked up");
  });
});

Deno.test("MCP sessions: initialize stores the handshake; a request without a session is a 400", async () => {
  const store = counted();
  await withHandlers(1, { sessions: store }, async ([url]) => {
    const without = await fetch(url, mcpPost(LIST));
    assert.equal(without.status, 400);
    await without.body?.cancel();
    const malformed = await fetch(url, mcpPost({ ...INITIALIZE, params: {} }));
    assert.equal(malformed.headers.get("mcp-session-id"), null, "no session begins");
    await malformed.body?.cancel();
    assert.deepEqual(store.asked, []);
    const session = await begin(url);
    assert.match(session, /^[0-9a-f]{32}$/);
    assert.deepEqual(store.asked, [`create ${session}`]);
    const kept = await store.get(session);
    assert.equal(kept?.protocolVersion, "2025-06-18");
    assert.deepEqual(kept?.clientInfo, { name: "raw", version: "1.0.0" });
    assert.deepEqual(kept?.clientCapabilities, {});
    assert.notEqual(await begin(url), session, "each session its own id");
  });
});

Deno.test("MCP sessions: DELETE ends a session; GET offers no stream (405)", async () => {
  await withHandlers(1, {}, async ([url]) => {
    const probe = await fetch(url, { headers: { accept: "text/event-stream" } });
    assert.equal(probe.status, 405, "a GET before initialize too");
    await probe.body?.cancel();
    const session = await begin(url);
    const get = await fetch(url, { headers: sessionHeaders(session) });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST, DELETE");
    await get.body?.cancel();
    const listed = await fetch(url, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify(LIST),
    });
    assert.equal(listed.status, 200);
    await listed.body?.cancel();
    const ended = await fetch(url, { method: "DELETE", headers: sessionHeaders(session) });
    assert.equal(ended.status, 200);
    await ended.body?.cancel();
    for (const method of ["POST", "GET", "DELETE"]) {
      const after = await fetch(url, {
        method,
        headers: sessionHeaders(session),
        ...(method === "POST" ? { body: JSON.stringify(LIST) } : {}),
      });
      assert.equal(after.status, 404, method);
      await after.body?.cancel();
    }
  });
});

Deno.test("MCP sessions: a handler that never saw the initialize serves the session", async () => {
  const sessions = memoryMcpSessions();
  await withHandlers(2, { sessions }, async ([first, second]) => {
    let turn = 0;
    // The SDK's client calls fetch(url, init): each call goes to the other handler.
    const alternating = ((_url: string | URL, init?: RequestInit) =>
      fetch([first, second][turn++ % 2], init)) as typeof fetch;
    const client = new Client({ name: "alternating", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(first), { fetch: alternating }));
    try {
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool({ name: "ping", arguments: {} });
        assert.deepEqual(result.content, [{ type: "text", text: "pong" }]);
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP sessions: a cancellation reaches the handler running the call through the channel", async () => {
  const sessions = memoryMcpSessions();
  const cancellations = memoryBus();
  await withHandlers(2, { sessions, cancellations }, async ([first, second]) => {
    const session = await begin(first);
    const aborted = new Promise((resolve) => cancelled.resolve = resolve);
    const call = await fetch(first, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "call-1",
        method: "tools/call",
        params: { name: "wait", arguments: {} },
      }),
    });
    assert.equal(call.status, 200);
    const cancel = await fetch(second, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "call-1" },
      }),
    });
    assert.equal(cancel.status, 202);
    await cancel.body?.cancel();
    assert.equal(
      (await guarded(aborted, "the call's signal to abort") as DOMException).name,
      "AbortError",
    );
    await call.body?.cancel();
  });
});

Deno.test("MCP sessions: sessionIdleMs ends a session left unused (the default store)", async () => {
  await withHandlers(1, { sessionIdleMs: 5 }, async ([url]) => {
    const session = await begin(url);
    // Longer than the idle time: a guard in one direction only, never a limit on speed.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const response = await fetch(url, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify(LIST),
    });
    assert.equal(response.status, 404);
    await response.body?.cancel();
  });
});
