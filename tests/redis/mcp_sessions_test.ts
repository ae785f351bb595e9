// 2025-era MCP sessions across instances: two createMcpHandler servers (each
// with its own connection, as two processes would have) share one real
// redis-server, and every request of a client goes to the other instance than
// the last one (a round-robin balancer without stickiness). The SDK's Client,
// v2 and v1, begins a session on one and calls on both; progress streams;
// a cancellation sent to one instance aborts the call running on the other;
// DELETE ends the session everywhere; a Redis restarted empty is a 404 (the
// client begins anew) and Redis unreachable a 503 (fail closed).
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
// The 2025-era client most MCP users run (the v1 SDK).
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpHandler } from "@ramify/api/tools";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisMcpCancellations, redisMcpSessions } from "../../redis/mcp_sessions.ts";
import { cancelled, context, tree } from "../support/mcp_tree.ts";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

interface Instance {
  readonly base: string;
  /** The requests this instance answered, by method. */
  readonly served: string[];
  readonly faults: unknown[];
  close(): Promise<void>;
}

function instance(redis: Redis): Instance {
  const served: string[] = [];
  const faults: unknown[] = [];
  const mcp = createMcpHandler(tree, {
    name: "cluster",
    sessions: redisMcpSessions(redis, { idleMs: 60_000, timeoutMs: 300 }),
    cancellations: redisMcpCancellations(redis, { timeoutMs: 300 }),
    onError: (error) => faults.push(error),
    context,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    served.push(request.method);
    return mcp(request);
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    served,
    faults,
    close: async () => {
      await mcp.close();
      await server.shutdown();
    },
  };
}

interface Cluster {
  readonly redis: RedisServer;
  readonly a: Instance;
  readonly b: Instance;
  /** The endpoint a client is given (instance a's). */
  readonly url: URL;
  /** A fetch that sends each request to the other instance than the last. */
  readonly roundRobin: typeof fetch;
  readonly connections: readonly Redis[];
}

function withCluster(body: (cluster: Cluster) => Promise<void>): () => Promise<void> {
  return () =>
    withRedis(async (redis) => {
      const connections = [
        await connectRedis({ url: redis.url, app: "mcp" }),
        await connectRedis({ url: redis.url, app: "mcp" }),
      ];
      const [a, b] = [instance(connections[0]), instance(connections[1])];
      let turn = 0;
      const roundRobin = ((input: string | URL | Request, init?: RequestInit) => {
        const target = new URL([a, b][turn++ % 2].base);
        const url = new URL(input instanceof Request ? input.url : input);
        url.host = target.host;
        return fetch(input instanceof Request ? new Request(url, input) : url, init);
      }) as typeof fetch;
      try {
        await body({ redis, a, b, url: new URL(`${a.base}/mcp`), roundRobin, connections });
      } finally {
        await a.close();
        await b.close();
        for (const connection of connections) await connection.close();
      }
    });
}

const text = (result: { content?: unknown }) =>
  ((result.content as { text: string }[])[0] ?? { text: "" }).text;

/** Raw Streamable HTTP headers of a session's request. */
const sessionHeaders = (session: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-session-id": session,
  "mcp-protocol-version": "2025-06-18",
});

/** A session begun with a raw `initialize` at `base`: its id. */
async function begin(base: string): Promise<string> {
  const response = await fetch(`${base}/mcp`, mcpPost(INITIALIZE));
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const session = response.headers.get("mcp-session-id");
  assert.match(session ?? "", /^[0-9a-f]{32}$/);
  return session!;
}

/** Waits for what another connection reports; gives up after 10 s (a guard against hangs, not a timing check). */
async function eventually(done: () => boolean, what: string): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries === 500) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test({
  name: "MCP sessions on Redis: the v2 Client calls 15 times, alternating instances",
  ignore,
  fn: withCluster(async ({ a, b, url, roundRobin }) => {
    const client = new Client({ name: "v2", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: roundRobin }));
    try {
      for (let i = 0; i < 15; i++) {
        const result = await client.callTool({ name: "ping", arguments: {} });
        assert.equal(text(result), "pong", `call ${i + 1}`);
      }
      const posts = (served: string[]) => served.filter((method) => method === "POST").length;
      assert.ok(posts(a.served) >= 8 && posts(b.served) >= 8, "both instances answered calls");
      assert.deepEqual([...a.faults, ...b.faults], []);
    } finally {
      await client.close();
    }
  }),
});

Deno.test({
  name: "MCP sessions on Redis: the v1 SDK Client calls 15 times, alternating instances",
  ignore,
  fn: withCluster(async ({ a, b, url, roundRobin }) => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    await client.connect(new V1Transport(url, { fetch: roundRobin }));
    try {
      for (let i = 0; i < 15; i++) {
        const result = await client.callTool({
          name: "books.add",
          arguments: { title: `Book ${i}`, pages: i + 1 },
        });
        assert.deepEqual(result.structuredContent, { id: "b1", title: `Book ${i}`, pages: i + 1 });
      }
      assert.ok(a.served.length > 5 && b.served.length > 5, "both instances answered");
      let aborted = false;
      cancelled.resolve = () => aborted = true;
      const controller = new AbortController();
      const call = client.callTool({ name: "wait", arguments: {} }, undefined, {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error("user gave up")), 50);
      await assert.rejects(call);
      await eventually(() => aborted, "the v1 client's cancellation to abort the call");
      assert.deepEqual([...a.faults, ...b.faults], []);
    } finally {
      await client.close();
    }
  }),
});

Deno.test({
  name: "MCP sessions on Redis: progress streams on whichever instance runs the call",
  ignore,
  fn: withCluster(async ({ url, roundRobin }) => {
    const client = new Client({ name: "v2", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: roundRobin }));
    try {
      for (const count of [3, 4]) {
        const progress: number[] = [];
        const result = await client.callTool({ name: "ticks", arguments: { count } }, {
          onprogress: (update) => void progress.push(update.progress),
        });
        assert.equal(JSON.parse(text(result)).length, count);
        assert.deepEqual(progress, Array.from({ length: count }, (_, i) => i + 1));
      }
    } finally {
      await client.close();
    }
  }),
});

Deno.test({
  name: "MCP sessions on Redis: a cancellation sent to one instance aborts the call on the other",
  ignore,
  fn: withCluster(async ({ a, b }) => {
    const session = await begin(a.base);
    const aborted = new Promise((resolve) => cancelled.resolve = resolve);
    const call = await fetch(`${a.base}/mcp`, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "wait", arguments: {} },
      }),
    });
    assert.equal(call.status, 200, "the call runs on a; its stream stays open");
    const cancel = await fetch(`${b.base}/mcp`, {
      method: "POST",
      headers: sessionHeaders(session),
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "user gave up" },
      }),
    });
    assert.equal(cancel.status, 202);
    await cancel.body?.cancel();
    let settled = false;
    void aborted.then(() => settled = true);
    await eventually(() => settled, "the handler on a to see its signal abort");
    assert.equal((await aborted as DOMException).name, "AbortError");
    await call.body?.cancel();
    assert.deepEqual([...a.faults, ...b.faults], [], "a cancelled call is no fault");
  }),
});

Deno.test({
  name: "MCP sessions on Redis: a cancellation names its session: another session's call runs on",
  ignore,
  fn: withCluster(async ({ a, b }) => {
    const owner = await begin(a.base);
    const stranger = await begin(b.base);
    let aborts = 0;
    cancelled.resolve = () => aborts++;
    const post = (base: string, session: string, message: unknown) =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: sessionHeaders(session),
        body: JSON.stringify({ jsonrpc: "2.0", ...message as object }),
      });
    const wait = (id: number) =>
      post(a.base, owner, { id, method: "tools/call", params: { name: "wait", arguments: {} } });
    const cancel = (session: string, requestId: number) =>
      post(b.base, session, { method: "notifications/cancelled", params: { requestId } });
    const calls = [await wait(1), await wait(2)];
    // On one channel, in order: the stranger's cancellation of call 1, then the owner's of call 2.
    assert.equal((await cancel(stranger, 1)).status, 202);
    assert.equal((await cancel(owner, 2)).status, 202);
    await eventually(() => aborts > 0, "the owner's cancellation");
    assert.equal(aborts, 1, "call 1 runs on: the stranger's cancellation named another session");
    assert.equal((await cancel(owner, 1)).status, 202);
    await eventually(() => aborts === 2, "the owner's cancellation of call 1");
    for (const call of calls) await call.body?.cancel();
  }),
});

Deno.test({
  name: "MCP sessions on Redis: the record holds the handshake, expires idle, refreshes on use",
  ignore,
  fn: withCluster(async ({ redis, a, b, url, roundRobin }) => {
    const transport = new StreamableHTTPClientTransport(url, { fetch: roundRobin });
    const client = new Client({ name: "v2", version: "1.0.0" }, {
      capabilities: { elicitation: {} },
    });
    await client.connect(transport);
    const key = `ramify:mcp:mcp:session:${transport.sessionId}`;
    const record = JSON.parse(await redis.cli("GET", key));
    assert.deepEqual(record.clientInfo, { name: "v2", version: "1.0.0" });
    assert.deepEqual(record.clientCapabilities.elicitation, {});
    assert.equal(typeof record.protocolVersion, "string");
    assert.ok(Number(await redis.cli("PTTL", key)) > 0, "the key expires");
    await redis.cli("PEXPIRE", key, "5000");
    await client.callTool({ name: "ping", arguments: {} });
    assert.ok(Number(await redis.cli("PTTL", key)) > 5000, "a use restarts the idle time");
    await redis.cli("PEXPIRE", key, "1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const expired = await fetch(`${b.base}/mcp`, {
      method: "POST",
      headers: sessionHeaders(transport.sessionId!),
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    assert.equal(expired.status, 404);
    assert.equal((await expired.json()).error.message, "Session not found");
    await client.close();
    assert.deepEqual([...a.faults, ...b.faults], []);
  }),
});

Deno.test({
  name: "MCP sessions on Redis: DELETE on one instance ends the session on the other",
  ignore,
  fn: withCluster(async ({ redis, a, b }) => {
    const session = await begin(a.base);
    const ended = await fetch(`${b.base}/mcp`, {
      method: "DELETE",
      headers: sessionHeaders(session),
    });
    assert.equal(ended.status, 200);
    await ended.body?.cancel();
    assert.equal(await redis.cli("EXISTS", `ramify:mcp:mcp:session:${session}`), "0");
    for (const base of [a.base, b.base]) {
      const after = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: sessionHeaders(session),
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      assert.equal(after.status, 404);
      await after.body?.cancel();
    }
    const again = await fetch(`${a.base}/mcp`, {
      method: "DELETE",
      headers: sessionHeaders(session),
    });
    assert.equal(again.status, 404);
    await again.body?.cancel();
    // A key of that name written by something else is no session.
    const forged = "0123456789abcdef0123456789abcdef";
    for (const value of ["not json", '{"protocolVersion":1}', "null"]) {
      await redis.cli("SET", `ramify:mcp:mcp:session:${forged}`, value);
      const response = await fetch(`${a.base}/mcp`, {
        method: "POST",
        headers: sessionHeaders(forged),
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      assert.equal(response.status, 404, value);
      await response.body?.cancel();
    }
  }),
});

/** Until both instances' connections are back after Redis restarted. */
async function reconnected(connections: readonly Redis[]): Promise<void> {
  await eventually(() => connections.every((connection) => connection.isReady), "reconnection");
}

Deno.test({
  name: "MCP sessions on Redis: restarted empty, a session is a 404 and the client begins anew",
  ignore,
  fn: withCluster(async ({ redis, a, b, url, roundRobin, connections }) => {
    const transport = new StreamableHTTPClientTransport(url, { fetch: roundRobin });
    const client = new Client({ name: "v2", version: "1.0.0" });
    await client.connect(transport);
    await client.callTool({ name: "ping", arguments: {} });
    await redis.restart();
    await reconnected(connections);
    const lost = await fetch(`${b.base}/mcp`, {
      method: "POST",
      headers: sessionHeaders(transport.sessionId!),
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    assert.equal(lost.status, 404, "the spec's answer: the client must begin a new session");
    assert.equal((await lost.json()).error.message, "Session not found");
    await assert.rejects(client.callTool({ name: "ping", arguments: {} }));
    await client.close();
    const fresh = new Client({ name: "v2", version: "1.0.0" });
    await fresh.connect(new StreamableHTTPClientTransport(url, { fetch: roundRobin }));
    assert.equal(text(await fresh.callTool({ name: "ping", arguments: {} })), "pong");
    await fresh.close();
    assert.deepEqual([...a.faults, ...b.faults], []);
  }),
});

Deno.test({
  name: "MCP sessions on Redis: unreachable, every session request is a 503 (fail closed)",
  ignore,
  fn: withCluster(async ({ redis, a, b, connections }) => {
    const session = await begin(a.base);
    await redis.stop();
    const refused = [
      await fetch(`${b.base}/mcp`, mcpPost(INITIALIZE)),
      await fetch(`${a.base}/mcp`, {
        method: "POST",
        headers: sessionHeaders(session),
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      }),
      await fetch(`${b.base}/mcp`, { method: "DELETE", headers: sessionHeaders(session) }),
    ];
    for (const response of refused) {
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("mcp-session-id"), null, "no session begun");
      assert.deepEqual(await response.json(), {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Session store unavailable" },
        id: null,
      });
    }
    assert.equal(a.faults.length + b.faults.length, 3, "each refusal observed");
    const modern = new Client({ name: "modern", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await modern.connect(new StreamableHTTPClientTransport(new URL(`${a.base}/mcp`)));
    assert.equal(
      text(await modern.callTool({ name: "ping", arguments: {} })),
      "pong",
      "2026-07-28 clients need no session",
    );
    await modern.close();
    await redis.start();
    await reconnected(connections);
    assert.match(await begin(b.base), /^[0-9a-f]{32}$/, "sessions begin again once it is back");
  }),
});

Deno.test({
  name: "MCP sessions on Redis: frozen, requests are a 503 past timeoutMs",
  ignore,
  fn: withCluster(async ({ redis, a, b }) => {
    const session = await begin(a.base);
    redis.pause();
    try {
      const refused = [
        await fetch(`${b.base}/mcp`, mcpPost(INITIALIZE)),
        await fetch(`${a.base}/mcp`, {
          method: "POST",
          headers: sessionHeaders(session),
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        }),
      ];
      for (const response of refused) {
        assert.equal(response.status, 503);
        assert.equal((await response.json()).error.message, "Session store unavailable");
      }
      assert.equal(a.faults.length + b.faults.length, 2);
    } finally {
      redis.resume();
    }
    assert.match(await begin(b.base), /^[0-9a-f]{32}$/, "served again once it answers");
  }),
});

Deno.test({
  name: "MCP sessions on Redis: a cancellation Redis does not take within timeoutMs is dropped",
  ignore,
  fn: withCluster(async ({ redis, connections }) => {
    for (const bad of [{ idleMs: 0 }, { idleMs: 1.5 }, { timeoutMs: 0 }]) {
      assert.throws(() => redisMcpSessions(connections[0], bad), RangeError);
    }
    assert.throws(() => redisMcpCancellations(connections[0], { timeoutMs: -1 }), RangeError);
    const cancellations = redisMcpCancellations(connections[0], { timeoutMs: 100 });
    redis.pause();
    try {
      await assert.rejects(
        cancellations.publish("mcp:cancel", "{}"),
        /Redis did not answer within 100 ms/,
      );
    } finally {
      redis.resume();
    }
    await redis.stop();
    await eventually(() => !connections[0].isReady, "the connection to see Redis gone");
    await assert.rejects(
      cancellations.subscribe("mcp:cancel", () => {}),
      /Redis is unreachable/,
      "subscribing fails at once rather than waiting for Redis",
    );
  }),
});
