// The events of resumable MCP call streams in a real redis-server
// (`redisMcpEvents`): appended with ids that replay, followed live until the
// answer, kept `keepMs` after it, bounded to `maxEvents`, refused to another
// session and for ids it never gave (without asking Redis); and with Redis
// restarted empty or down: a replay is a 400 or a 503, while a call still
// answers on its own stream (fail open).
import assert from "node:assert/strict";
import { createMcpHandler, type McpEventStore, type McpStreamEvent } from "@ramify/api/tools";
import { api, op } from "@ramify/api/tree";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisMcpEvents } from "../../redis/mcp_events.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

const SESSION = "0123456789abcdef0123456789abcdef";
const OTHER = "fedcba9876543210fedcba9876543210";
const STREAM = "3f1c0e9a-7d2b-4c4e-9f0a-2b6d8e1f5a77";

const message = (n: number) => JSON.stringify({ jsonrpc: "2.0", method: "progress", n });
const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } });

function redisTest(
  name: string,
  body: (redis: RedisServer, connection: Redis) => Promise<void>,
): void {
  Deno.test({
    name: `MCP events on Redis: ${name}`,
    ignore,
    fn: () =>
      withRedis(async (redis) => {
        const connection = await connectRedis({ url: redis.url, app: "events" });
        try {
          await body(redis, connection);
        } finally {
          await connection.close();
        }
      }),
  });
}

/** Appends events to `stream`: a priming one, then each data given; the last is the answer when `answered`. */
async function appended(
  store: McpEventStore,
  data: readonly string[],
  { answered = false, stream = STREAM } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, text] of ["", ...data].entries()) {
    const id = await store.append(stream, {
      session: SESSION,
      data: text,
      answer: answered && i === data.length,
      first: i === 0,
    });
    assert.ok(id !== undefined);
    ids.push(id);
  }
  return ids;
}

/** Every event of a replay, until it ends. */
async function all(events: AsyncIterable<McpStreamEvent> | undefined): Promise<McpStreamEvent[]> {
  assert.ok(events !== undefined, "the replay is served");
  const found: McpStreamEvent[] = [];
  for await (const event of events) found.push(event);
  return found;
}

const never = new AbortController().signal;

async function eventually(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!await done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The clients connected to Redis now. */
async function clients(redis: RedisServer): Promise<number> {
  return (await redis.cli("CLIENT", "LIST")).split("\n").filter((line) => line !== "").length;
}

redisTest(
  "a finished stream replays after any of its ids, ending with the answer",
  async (redis, connection) => {
    const store = redisMcpEvents(connection);
    const ids = await appended(store, [message(1), message(2), answer], { answered: true });
    assert.ok(ids.every((id) => id.startsWith(`${STREAM}.`)), ids.join());
    assert.equal(new Set(ids).size, 4);
    const before = await clients(redis);
    const replayed = await all(await store.replay(SESSION, ids[0], never));
    assert.deepEqual(replayed, [
      { id: ids[1], data: message(1) },
      { id: ids[2], data: message(2) },
      { id: ids[3], data: answer },
    ]);
    assert.deepEqual(await all(await store.replay(SESSION, ids[2], never)), replayed.slice(2));
    assert.deepEqual(await all(await store.replay(SESSION, ids[3], never)), [], "after the answer");
    assert.equal(await clients(redis), before, "a finished stream needs no connection of its own");
    const key = `ramify:events:mcp:events:${STREAM}`;
    const ttl = Number(await redis.cli("PTTL", key));
    assert.ok(ttl > 0 && ttl <= 5 * 60_000, `kept keepMs after the answer, not ${ttl}`);
  },
);

redisTest(
  "a replay follows a running stream live until its answer, each event once",
  async (redis, connection) => {
    const store = redisMcpEvents(connection);
    const ids = await appended(store, [message(1)]);
    const ttl = Number(await redis.cli("PTTL", `ramify:events:mcp:events:${STREAM}`));
    assert.ok(ttl > 5 * 60_000, `a running stream is kept idleMs (an hour), not ${ttl}`);
    const before = await clients(redis);
    const iterator = (await store.replay(SESSION, ids[0], never))![Symbol.asyncIterator]();
    assert.deepEqual((await iterator.next()).value, { id: ids[1], data: message(1) });
    const waiting = iterator.next();
    await eventually(async () => await clients(redis) === before + 1, "the blocking reader");
    const later: string[] = [];
    for (const [i, data] of [message(2), message(3), answer].entries()) {
      later.push(
        (await store.append(STREAM, { session: SESSION, data, answer: i === 2, first: false }))!,
      );
    }
    const found = [(await waiting).value];
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
      found.push(step.value);
    }
    assert.deepEqual(found, [
      { id: later[0], data: message(2) },
      { id: later[1], data: message(3) },
      { id: later[2], data: answer },
    ]);
    await eventually(async () => await clients(redis) === before, "the reader closed");
  },
);

redisTest("a replay abandoned by its client releases its reader", async (redis, connection) => {
  const store = redisMcpEvents(connection);
  const ids = await appended(store, []);
  const before = await clients(redis);
  const leaving = new AbortController();
  const iterator = (await store.replay(SESSION, ids[0], leaving.signal))![Symbol.asyncIterator]();
  const waiting = iterator.next();
  await eventually(async () => await clients(redis) === before + 1, "the blocking reader");
  leaving.abort();
  assert.equal((await waiting).done, true);
  await eventually(async () => await clients(redis) === before, "the reader closed");
});

redisTest(
  "another session's stream, hostile and unknown ids find nothing, hostile ones without asking Redis",
  async (redis, connection) => {
    const store = redisMcpEvents(connection);
    const ids = await appended(store, [message(1)]);
    assert.equal(await store.replay(OTHER, ids[0], never), undefined, "another session's");
    const calls = async () =>
      /cmdstat_xrange:calls=(\d+)/.exec(await redis.cli("INFO", "commandstats"))?.[1];
    const asked = await calls();
    for (
      const hostile of [
        "../../etc",
        `${STREAM}.1-x`,
        `${STREAM}.-1`,
        `${STREAM}.99999999999999999999-0`,
        `${STREAM}*.1-0`,
        `a:b.1-0`,
        `${STREAM}.1-0\r\nFLUSHALL`,
        "x".repeat(10_000),
        "",
      ]
    ) {
      assert.equal(await store.replay(SESSION, hostile, never), undefined, hostile.slice(0, 40));
    }
    assert.equal(await calls(), asked, "malformed ids never reach Redis");
    for (
      const unknown of [`${STREAM}.1-0`, `${STREAM}.99999999999-0`, `${crypto.randomUUID()}.1-0`]
    ) {
      assert.equal(await store.replay(SESSION, unknown, never), undefined, unknown);
    }
    assert.equal(await redis.cli("DBSIZE"), "1", "no key made by a replay");
  },
);

redisTest(
  "bounds: trimmed to maxEvents, forgotten, expired keepMs after the answer; a later event of a stream gone is not kept",
  async (redis, connection) => {
    const store = redisMcpEvents(connection, { maxEvents: 3, keepMs: 50 });
    const ids = await appended(store, [message(1), message(2), message(3), message(4)]);
    assert.equal(await store.replay(SESSION, ids[1], never), undefined, "trimmed away");
    const iterator = (await store.replay(SESSION, ids[2], never))![Symbol.asyncIterator]();
    assert.deepEqual((await iterator.next()).value, { id: ids[3], data: message(3) });
    assert.deepEqual((await iterator.next()).value, { id: ids[4], data: message(4) });
    // Trimmed past what the replay had read (5, of 5 to 8): it ends rather than skip 5.
    for (const n of [5, 6, 7, 8]) {
      await store.append(STREAM, {
        session: SESSION,
        data: message(n),
        answer: false,
        first: false,
      });
    }
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
    await store.forget(STREAM);
    assert.equal(await store.replay(SESSION, ids[3], never), undefined, "forgotten");
    const again = { session: SESSION, data: message(5), answer: false, first: false };
    assert.equal(await store.append(STREAM, again), undefined, "its ids would start again");
    assert.equal(await redis.cli("EXISTS", `ramify:events:mcp:events:${STREAM}`), "0");
    const done = await appended(store, [answer], { answered: true });
    await eventually(async () => await redis.cli("DBSIZE") === "0", "expiry after keepMs");
    assert.equal(await store.replay(SESSION, done[0], never), undefined, "expired");
    for (const bad of [{ maxEvents: 0 }, { keepMs: 1.5 }, { idleMs: -1 }, { timeoutMs: 0 }]) {
      assert.throws(() => redisMcpEvents(connection, bad), RangeError);
    }
  },
);

redisTest(
  "restarted empty, a replay finds nothing; down, appends and replays reject; a live replay ends",
  async (redis, connection) => {
    const store = redisMcpEvents(connection, { timeoutMs: 300 });
    const ids = await appended(store, [message(1)]);
    await redis.restart();
    await eventually(() => connection.isReady, "reconnection");
    assert.equal(await store.replay(SESSION, ids[0], never), undefined);
    const more = { session: SESSION, data: message(2), answer: false, first: false };
    assert.equal(await store.append(STREAM, more), undefined, "not begun again halfway");
    const live = await appended(store, []);
    const iterator = (await store.replay(SESSION, live[0], never))![Symbol.asyncIterator]();
    // Handled before Redis goes: the read may fail while stop() still waits for the process.
    const ended = assert.rejects(
      iterator.next(),
      "the replay ends: its client comes back from its last id",
    );
    await redis.stop();
    await ended;
    await eventually(() => !connection.isReady, "the connection to see Redis gone");
    await assert.rejects(store.append(STREAM, { ...more, first: true }));
    await assert.rejects(store.replay(SESSION, live[0], never));
    await redis.start();
    await eventually(() => connection.isReady, "reconnection");
  },
);

// Through the handler: one instance, sessions in memory, events on Redis.
let release = () => {};
const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true } }),
  slow: op(() => new Promise<string>((resolve) => release = () => resolve("done")), {
    tags: { readOnly: true },
  }),
});

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function begin(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });
  await response.body?.cancel();
  return {
    ...HEADERS,
    "mcp-session-id": response.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
}

function call(url: string, headers: Record<string, string>, name: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } }),
  });
}

/** The ids and data of an SSE body's events. */
function eventsOf(text: string): { id?: string; data?: string }[] {
  return text.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    const field = (name: string) =>
      block.split("\n").find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1).trim();
    return { id: field("id"), data: field("data") };
  });
}

redisTest(
  "through the handler: Redis down, a call still answers (fail open) and a replay is a 503; back, an id it lost is a 400",
  async (redis, connection) => {
    const faults: unknown[] = [];
    const mcp = createMcpHandler(tree, {
      warnMissingHints: false,
      onError: (error) => faults.push(error),
      resumability: { store: redisMcpEvents(connection, { timeoutMs: 300 }), pollAfterMs: 20 },
    });
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
    const url = `http://127.0.0.1:${server.addr.port}/mcp`;
    const resume = (headers: Record<string, string>, lastEventId: string) =>
      fetch(url, {
        headers: { ...headers, accept: "text/event-stream", "last-event-id": lastEventId },
      });
    try {
      const headers = await begin(url);
      const [priming] = eventsOf(await (await call(url, headers, "slow")).text());
      for (const hostile of ["../../etc", `${priming.id}0\r`, "x".repeat(10_000)]) {
        const refused = await resume(headers, hostile);
        assert.equal(refused.status, 400, hostile.slice(0, 40));
        await refused.body?.cancel();
      }
      await redis.stop();
      await eventually(() => !connection.isReady, "the connection to see Redis gone");
      const refused = await resume(headers, priming.id!);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "1");
      assert.equal((await refused.json()).error.message, "Event store unavailable");
      const answered = eventsOf(await (await call(url, headers, "ping")).text());
      assert.equal(JSON.parse(answered.at(-1)!.data!).result.content[0].text, "pong");
      assert.ok(faults.length >= 2, "the store's failures are observed");
      await redis.start();
      await eventually(() => connection.isReady, "reconnection");
      redis.pause();
      try {
        const waited = eventsOf(await (await call(url, headers, "ping")).text());
        assert.equal(JSON.parse(waited.at(-1)!.data!).result.content[0].text, "pong", "frozen");
        const frozen = await resume(headers, priming.id!);
        assert.equal(frozen.status, 503, "past timeoutMs");
        await frozen.body?.cancel();
      } finally {
        redis.resume();
      }
      const lost = await resume(headers, priming.id!);
      assert.equal(lost.status, 400);
      assert.equal((await lost.json()).error.message, "Unknown or expired event ID");
    } finally {
      release();
      await mcp.close();
      await server.shutdown();
    }
  },
);
