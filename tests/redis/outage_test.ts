// Redis down, against a real redis-server: every request the stores refuse is a
// 503, and the servers' default onError writes one line for the outage (not a
// crash with a stack per request), one when Redis is back, and one again for
// the next outage: task starts and reads over HTTP, MCP sessions.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createTasks } from "@ramify/api/tasks";
import { createMcpHandler } from "@ramify/api/tools";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisTasks } from "../../redis/tasks.ts";
import { redisMcpSessions } from "../../redis/mcp_sessions.ts";
import { context, tree as mcpTree } from "../support/mcp_tree.ts";
import { mcpPost } from "../support/mcp_wire.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";
import { until } from "../tasks/_suite.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

const DOWN =
  /^ramify: the store is unreachable \(ClientOfflineError: The client is offline\); requests are refused with 503 until it is back$/;
const BACK = "ramify: the store is reachable again";

/** What `console.error` is given while `body` runs, one string a call. */
async function errorLines(body: (lines: string[]) => Promise<void>): Promise<void> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    await body(lines);
  } finally {
    console.error = original;
  }
}

async function stopped(server: RedisServer, redis: Redis): Promise<void> {
  await server.stop();
  await until(() => !redis.isReady, 5_000);
}

async function started(server: RedisServer, redis: Redis, lines: string[]): Promise<void> {
  await server.start();
  await until(() => redis.isReady && lines.includes(BACK), 10_000);
}

async function status(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.body?.cancel();
  return answer.status;
}

Deno.test({
  name: "Redis down: task starts and reads are 503s, logged once per outage, not as crashes",
  ignore,
  fn: () =>
    withRedis(async (server) => {
      const redis = await connectRedis({ url: server.url, app: "outage" });
      const tasks = createTasks({ store: redisTasks(redis, { timeoutMs: 300 }), heartbeatMs: 100 });
      const tree = api({ count: op(() => 1, { tags: { longRunning: true } }) });
      const post = (base: string) =>
        fetch(`${base}/count`, { method: "POST", headers: { "content-type": "application/json" } });
      try {
        // No onError: the router's default is what is tried.
        await withServer(createFetch(tree, { tasks }), (base) =>
          errorLines(async (lines) => {
            const first = await post(base);
            assert.equal(first.status, 202);
            const location = first.headers.get("location")!;
            await first.body?.cancel();

            await stopped(server, redis);
            for (let i = 0; i < 4; i++) assert.equal(await status(post(base)), 503);
            for (let i = 0; i < 3; i++) {
              assert.equal(await status(fetch(`${base}${location}`)), 503);
            }
            assert.equal(lines.length, 1, lines.join("\n"));
            assert.match(lines[0], DOWN);

            await started(server, redis, lines);
            assert.deepEqual(lines.slice(1), [BACK]);
            assert.equal(await status(post(base)), 202);

            await stopped(server, redis);
            for (let i = 0; i < 3; i++) assert.equal(await status(post(base)), 503);
            assert.equal(lines.length, 3, lines.join("\n"));
            assert.match(lines[2], DOWN, "the next outage is logged too");
            await started(server, redis, lines);
            assert.ok(!lines.some((line) => /crashed/.test(line)), lines.join("\n"));
          }));
      } finally {
        // Closed while Redis is up: a connection closed while reconnecting throws where no one listens.
        await server.start();
        await tasks.close();
        await redis.close();
      }
    }),
});

Deno.test({
  name: "Redis down: MCP sessions refused with 503, logged once per outage",
  ignore,
  fn: () =>
    withRedis(async (server) => {
      const redis = await connectRedis({ url: server.url, app: "outage" });
      const mcp = createMcpHandler(mcpTree, {
        sessions: redisMcpSessions(redis, { timeoutMs: 300 }),
        context,
      });
      try {
        await withServer(mcp, (base) =>
          errorLines(async (lines) => {
            await stopped(server, redis);
            for (let i = 0; i < 4; i++) assert.equal(await status(fetch(base, mcpPost())), 503);
            assert.equal(lines.length, 1, lines.join("\n"));
            assert.match(lines[0], DOWN);
            await started(server, redis, lines);
            assert.deepEqual(lines.slice(1), [BACK]);
          }));
      } finally {
        await server.start();
        await mcp.close();
        await redis.close();
      }
    }),
});
