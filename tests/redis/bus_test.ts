// Pub/sub through a real redis-server: redisBus in process (delivery, a Redis
// restart, subscriptions released), and the example in two server processes
// (its events on Redis Streams), where a subscriber on every surface
// connected to process B receives what a mutation on process A publishes,
// before and after Redis restarts (the events Redis lost told as a gap), and
// no reader is left once they leave.
import assert from "node:assert/strict";
import { createClient as createWsClient } from "graphql-ws";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "@ramify/api/http";
import { runCli } from "@ramify/api/cli";
import { createPubSub } from "@ramify/api/pubsub";
import { connectRedis, type Redis, redisBus } from "@ramify/api/redis";
import { bookstore, DEV_TOKEN } from "../../examples/bookstore.ts";
import { memoryIo } from "../support/cli_io.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { freePort } from "../support/server.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Connections blocked reading a stream (a stream bus's readers). */
async function streamReaders(redis: RedisServer): Promise<number> {
  return (await redis.cli("CLIENT", "LIST")).split("\n").filter((line) => / cmd=xread /.test(line))
    .length;
}

/** Connections to `server`, closed after `body`. */
async function withConnections(
  server: RedisServer,
  apps: readonly ({ app: string } | { prefix: string })[],
  body: (connections: Redis[]) => Promise<void>,
) {
  const connections: Redis[] = [];
  try {
    for (const app of apps) connections.push(await connectRedis({ url: server.url, ...app }));
    await body(connections);
  } finally {
    await Promise.allSettled(connections.map((connection) => connection.close()));
  }
}

async function subscribersOf(redis: RedisServer, channel: string): Promise<number> {
  const reply = await redis.cli("PUBSUB", "NUMSUB", channel);
  return Number(reply.split("\n")[1] ?? 0);
}

Deno.test({
  name: "redisBus: delivery between pub/subs, through a Redis restart, and released subscriptions",
  ignore,
  async fn() {
    await withRedis((redis) =>
      withConnections(redis, [{ app: "test" }, { app: "test" }], async ([one, two]) => {
        const a = createPubSub<{ news: { n: number } }>({ bus: redisBus(one) });
        const b = createPubSub<{ news: { n: number } }>({ bus: redisBus(two) });
        try {
          const first = b.subscribe("news");
          const second = b.subscribe("news");
          await until(
            "B's subscription on Redis",
            async () => await subscribersOf(redis, "ramify:test:news") === 1,
          );
          await a.publish("news", { n: 1 });
          assert.deepEqual((await first.next()).value, { n: 1 });
          assert.deepEqual((await second.next()).value, { n: 1 });
          assert.equal(
            await subscribersOf(redis, "ramify:test:news"),
            1,
            "one Redis subscription for the process",
          );

          await redis.restart();
          // At most once: what is published while B is cut off is lost; B subscribes again by itself.
          await until(
            "B back on Redis",
            async () => await subscribersOf(redis, "ramify:test:news") === 1,
          );
          const got = await until("a message after the restart", async () => {
            await a.publish("news", { n: 2 }).catch(() => {});
            const next = await Promise.race([
              first.next(),
              new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200)),
            ]);
            return next?.value;
          });
          assert.deepEqual(got, { n: 2 });

          await first.return!();
          assert.equal(
            await subscribersOf(redis, "ramify:test:news"),
            1,
            "one local subscriber is left",
          );
          await second.return!();
          await until(
            "the Redis subscription released",
            async () => await subscribersOf(redis, "ramify:test:news") === 0,
          );
        } finally {
          await a.close();
          await b.close();
        }
      })
    );
  },
});

Deno.test({
  name:
    "redisBus: channels carry the app's prefix by default, so two apps on one Redis do not cross-talk",
  ignore,
  async fn() {
    type Topics = { "message.posted": { from: string } };
    const apps = [{ app: "alpha" }, { app: "alpha" }, { app: "beta" }, { prefix: "own/" }];
    await withRedis((redis) =>
      withConnections(redis, apps, async (connections) => {
        const [alpha, alphaElsewhere, beta, own] = connections.map((connection) =>
          createPubSub<Topics>({ bus: redisBus(connection) })
        );
        try {
          const toAlpha = alphaElsewhere.subscribe("message.posted");
          const toBeta = beta.subscribe("message.posted");
          const toOwn = own.subscribe("message.posted");
          await until(
            "three subscriptions on Redis",
            async () =>
              (await redis.cli("PUBSUB", "CHANNELS")).split("\n").filter(Boolean).length === 3,
          );
          assert.deepEqual((await redis.cli("PUBSUB", "CHANNELS")).split("\n").sort(), [
            "own/message.posted",
            "ramify:alpha:message.posted",
            "ramify:beta:message.posted",
          ]);
          // Redis runs one command at a time: had beta heard alpha, alpha's message would come first.
          await alpha.publish("message.posted", { from: "alpha" });
          await beta.publish("message.posted", { from: "beta" });
          await own.publish("message.posted", { from: "own" });
          assert.deepEqual((await toAlpha.next()).value, { from: "alpha" });
          assert.deepEqual((await toBeta.next()).value, { from: "beta" });
          assert.deepEqual((await toOwn.next()).value, { from: "own" });
          assert.equal(await subscribersOf(redis, "message.posted"), 0, "no bare channel");
        } finally {
          await Promise.all([alpha.close(), alphaElsewhere.close(), beta.close(), own.close()]);
        }
      })
    );
  },
});

Deno.test("connectRedis: without an app name or a prefix it refuses to start, saying what to give", async () => {
  for (const opts of [{}, { app: "" }]) {
    await assert.rejects(
      // @ts-expect-error: the types ask for one of them too
      () => connectRedis(opts),
      (error: Error) =>
        error instanceof TypeError && error.message.includes('{ url, app: "bookstore" }'),
    );
  }
  await assert.rejects(
    () => connectRedis({ url: "", app: "bookstore" }),
    /the Redis URL is empty/,
  );
});

/** One example server process with its events through Redis. */
async function bookstoreProcess(redisUrl: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      new URL("../../examples/bookstore.ts", import.meta.url).pathname,
    ],
    env: { PORT: String(port), REDIS_URL: redisUrl, BOOKSTORE_TOKEN: DEV_TOKEN, NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  await until("the server", () => fetch(`${url}/health`).then((r) => r.ok, () => undefined));
  return {
    url,
    async stop() {
      child.kill();
      await child.status;
    },
  };
}

Deno.test({
  name:
    "the example in two processes: a book added on A reaches subscribers of B on every surface, through a Redis restart told as a gap",
  ignore,
  async fn() {
    await withRedis(async (redis) => {
      const a = await bookstoreProcess(redis.url);
      const b = await bookstoreProcess(redis.url);
      const socket = createWsClient({
        url: `${b.url.replace("http", "ws")}/graphql`,
        retryAttempts: 0,
      });
      const mcp = new McpClient({ name: "pubsub-test", version: "1.0.0" });
      try {
        await mcp.connect(new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`)));
        const received: Record<string, string[]> = { sse: [], graphql: [], mcp: [], cli: [] };
        // SSE through the typed client, and a GraphQL subscription over WebSocket: open-ended.
        // (The SSE answer starts with its first event, so the call resolves only then.)
        const leaving = new AbortController();
        const gaps: unknown[] = [];
        const sseDone = (async () => {
          const sse = await createClient(bookstore(), { baseUrl: b.url }).books.events({}, {
            signal: leaving.signal,
            onGap: (notice) => void gaps.push(notice.code),
          });
          for await (const book of sse) received.sse.push(book.title);
        })().catch(() => {});
        const graphql = socket.iterate<{ booksEvents: { title: string } }>({
          query: "subscription { booksEvents { title } }",
        });
        const graphqlDone = (async () => {
          for await (const result of graphql) {
            // A gap (Redis restarted empty) is an error in the stream, which goes on.
            if (result.errors !== undefined) gaps.push(result.errors[0].extensions?.code);
            else received.graphql.push(result.data!.booksEvents.title);
          }
        })();
        // An MCP tool call and a command line, each for one event.
        const mcpDone = mcp.callTool({ name: "books.events", arguments: { limit: 1 } }).then(
          (result) => {
            const text = (result.content as { text: string }[])[0].text;
            received.mcp.push(
              ...(JSON.parse(text) as { title: string }[]).map((book) => book.title),
            );
          },
        );
        const io = memoryIo();
        const cliDone = runCli(bookstore(), [
          "--url",
          b.url,
          "books",
          "events",
          "--limit",
          "1",
          "--json",
        ], { io })
          .then((code) => {
            assert.equal(code, 0, io.stderr.join(""));
            received.cli.push(
              ...io.stdout.join("").trim().split("\n").map((line) => JSON.parse(line).title),
            );
          });

        const staff = createClient(bookstore(), { baseUrl: a.url, token: DEV_TOKEN });
        let n = 0;
        const publishUntil = (what: string, prefix: string, surfaces: string[]) =>
          until(what, async () => {
            await staff.books.add({ title: `${prefix} ${++n}`, author: "Test" }).catch(() => {});
            return surfaces.every((name) =>
              received[name].some((title) => title.startsWith(prefix))
            );
          });
        await publishUntil("every surface's first event", "Probe", [
          "sse",
          "graphql",
          "mcp",
          "cli",
        ]);
        await Promise.all([mcpDone, cliDone]);
        assert.equal(await streamReaders(redis), 1, "B's one reader of the example's stream");
        for (const name of Object.keys(received)) {
          assert.ok(received[name].every((title) => title.startsWith("Probe")), name);
        }

        // Redis runs without persistence here: what B had not read is gone, and
        // its subscribers are told (an SSE gap event, a GraphQL error), never silently.
        await redis.restart();
        await publishUntil("events after Redis restarted", "After restart", ["sse", "graphql"]);
        assert.deepEqual(gaps, ["EVENTS_MISSED", "EVENTS_MISSED"]);

        // The open-ended subscribers leave: B's stream reader goes with them.
        await graphql.return?.();
        leaving.abort();
        await socket.dispose();
        await Promise.race([
          Promise.all([sseDone, graphqlDone]),
          new Promise((r) => setTimeout(r, 2_000)),
        ]);
        await until("no reader left on Redis", async () => await streamReaders(redis) === 0);
      } finally {
        await mcp.close().catch(() => {});
        await socket.dispose();
        await a.stop();
        await b.stop();
      }
    });
  },
});
