// redisRateLimiter against a real redis-server: one limit across two
// connections (two instances), concurrently; its answer on the HTTP, GraphQL
// and MCP surfaces; a Redis restart (script cache gone), Redis unreachable and
// frozen in both failure modes; keys a client chose to be hostile.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch, rateLimit, type RateLimiter } from "@ramify/api/http";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { createMcpHandler } from "@ramify/api/tools";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisRateLimiter } from "../../redis/rate_limit.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

const HOUR = 3_600_000;
const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });

/** Runs body with `count` connections to a fresh Redis, closed after. */
function withConnections(
  count: number,
  body: (connections: Redis[], server: RedisServer) => Promise<void>,
): () => Promise<void> {
  return () =>
    withRedis(async (server) => {
      const connections: Redis[] = [];
      try {
        for (let i = 0; i < count; i++) {
          connections.push(await connectRedis({ url: server.url, app: "test" }));
        }
        await body(connections, server);
      } finally {
        await Promise.all(connections.map((connection) => connection.close()));
      }
    });
}

async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

Deno.test({
  name: "redisRateLimiter: N per window across two instances, asked at once: exactly N allowed",
  ignore,
  fn: withConnections(2, async ([a, b]) => {
    const limit = 20;
    const first = redisRateLimiter(a, { limit, windowMs: HOUR });
    const second = redisRateLimiter(b, { limit, windowMs: HOUR });
    const answers = await Promise.all(
      Array.from({ length: limit + 5 }, (_, i) => (i % 2 === 0 ? first : second).take("client")),
    );
    assert.equal(answers.filter((wait) => wait === undefined).length, limit);
    const waits = answers.filter((wait) => wait !== undefined);
    assert.equal(waits.length, 5);
    // One request comes back every windowMs / limit: three minutes.
    for (const wait of waits) assert.ok(wait > 170_000 && wait <= 180_000, String(wait));
    assert.equal(await first.take("another"), undefined, "another key has its own quota");
  }),
});

Deno.test({
  name: "redisRateLimiter: its decision tells the quota left and when it is back",
  ignore,
  fn: withConnections(1, async ([redis]) => {
    const limiter = redisRateLimiter(redis, { limit: 3, windowMs: HOUR, name: "hourly" });
    const policy = { name: "hourly", quota: 3, windowSeconds: 3600 };
    const fresh = await limiter.decide("k");
    assert.deepEqual(fresh, { allowed: true, waitMs: 0, remaining: 2, resetMs: 1_200_000, policy });
    await limiter.decide("k");
    const last = await limiter.decide("k");
    assert.equal(last.allowed, true);
    assert.equal(last.remaining, 0);
    assert.ok(last.waitMs > 1_190_000 && last.waitMs <= 1_200_000, "the next one is 20 min away");
    const refused = await limiter.decide("k");
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.ok(refused.resetMs! > 3_590_000 && refused.resetMs! <= HOUR);
    const ttl = Number(await redis.command(["PTTL", `${redis.prefix}ratelimit:hourly:=k`]));
    assert.ok(ttl > 3_590_000 && ttl <= HOUR, `the key expires with its quota whole: ${ttl}`);
    const other = redisRateLimiter(redis, { limit: 3, windowMs: HOUR, name: "other" });
    assert.equal(await other.take("k"), undefined, "a limiter of another name counts apart");
    assert.throws(() => redisRateLimiter(redis, { limit: 0, windowMs: 1000 }), RangeError);
    assert.throws(() => redisRateLimiter(redis, { limit: 1.5, windowMs: 1000 }), RangeError);
    assert.throws(() => redisRateLimiter(redis, { limit: 5000, windowMs: 1 }), RangeError);
    assert.throws(
      () => redisRateLimiter(redis, { limit: 1, windowMs: 1, name: 'a"b' }),
      RangeError,
    );
    assert.throws(
      () => redisRateLimiter(redis, { limit: 1, windowMs: 1, timeoutMs: 0 }),
      RangeError,
    );
  }),
});

/** GETs /ping; returns the status and the rate limit fields. */
async function ping(handler: (request: Request) => Promise<Response>, client = "a") {
  const response = await handler(new Request("http://x/ping", { headers: { "x-client": client } }));
  await response.body?.cancel();
  return {
    status: response.status,
    policy: response.headers.get("ratelimit-policy"),
    limit: response.headers.get("ratelimit"),
    retryAfter: response.headers.get("retry-after"),
  };
}

Deno.test({
  name: "redisRateLimiter on HTTP: RateLimit fields on allowed answers and on the 429",
  ignore,
  fn: withConnections(2, async ([a, b]) => {
    const handler = (redis: Redis) =>
      createFetch(tree, {
        policies: [rateLimit({
          limiter: redisRateLimiter(redis, { limit: 2, windowMs: 60_000 }),
          key: (request) => request.headers.get("x-client") ?? "anonymous",
        })],
      });
    const one = handler(a);
    const two = handler(b);
    assert.deepEqual(await ping(one), {
      status: 200,
      policy: '"default";q=2;w=60',
      limit: '"default";r=1;t=30',
      retryAfter: null,
    });
    const second = await ping(two);
    assert.equal(second.status, 200, "the other instance allows the second");
    assert.match(second.limit!, /^"default";r=0;t=(29|30)$/);
    const limited = await ping(one);
    assert.equal(limited.status, 429);
    assert.equal(limited.policy, '"default";q=2;w=60');
    assert.match(limited.retryAfter!, /^(29|30)$/);
    assert.equal(limited.limit, `"default";r=0;t=${limited.retryAfter}`);
    assert.equal((await ping(two, "b")).status, 200);
  }),
});

Deno.test({
  name: "redisRateLimiter: after Redis restarts empty (no scripts, no keys) it limits again",
  ignore,
  fn: withConnections(1, async ([redis], server) => {
    const errors: unknown[] = [];
    const limiter = redisRateLimiter(redis, {
      limit: 2,
      windowMs: HOUR,
      onError: (error) => errors.push(error),
    });
    await limiter.take("k");
    await limiter.take("k");
    assert.notEqual(await limiter.take("k"), undefined);
    await server.restart();
    await until("the connection back", () => redis.isReady);
    const after = await limiter.decide("k");
    assert.equal(after.remaining, 1, `decided by Redis, not failed open: ${errors}`);
    assert.equal(await limiter.take("k"), undefined);
    assert.notEqual(await limiter.take("k"), undefined, "the limit holds again");
  }),
});

Deno.test({
  name: "redisRateLimiter with Redis unreachable: allowed by default (onError told), or 503",
  ignore,
  fn: withConnections(1, async ([redis], server) => {
    const errors: unknown[] = [];
    const open = redisRateLimiter(redis, {
      limit: 1,
      windowMs: HOUR,
      onError: (error) => errors.push(error),
    });
    const closed = redisRateLimiter(redis, { limit: 1, windowMs: HOUR, onUnavailable: "refuse" });
    const rest = (limiter: RateLimiter) =>
      createFetch(tree, { policies: [rateLimit({ limiter })] });
    await server.stop();
    await until("the connection down", () => !redis.isReady);

    const policy = '"default";q=1;w=3600';
    assert.deepEqual(await ping(rest(open)), {
      status: 200,
      policy,
      limit: null,
      retryAfter: null,
    });
    assert.deepEqual(await ping(rest(open)), {
      status: 200,
      policy,
      limit: null,
      retryAfter: null,
    });
    assert.equal(errors.length, 2, "each failure is told");

    const refused = await ping(rest(closed));
    assert.deepEqual(refused, { status: 503, policy, limit: null, retryAfter: "1" });
    const graphql = await createHttpGraphQLServer(tree, {
      policies: [rateLimit({ limiter: closed })],
    })(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
    assert.equal(graphql.status, 503);
    assert.equal(graphql.headers.get("retry-after"), "1");
    assert.equal((await graphql.json()).errors[0].extensions.code, "SERVICE_UNAVAILABLE");
    const mcp = createMcpHandler(tree, {
      warnMissingHints: false,
      policies: [rateLimit({ limiter: closed })],
    });
    await withServer(mcp, async (base) => {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), "1");
      assert.match((await response.json()).error.message, /cannot be checked/);
    });
    await mcp.close();

    await server.start();
    await until("the connection back", () => redis.isReady);
    assert.equal((await ping(rest(closed))).status, 200);
    assert.equal((await ping(rest(closed))).status, 429, "limited again once Redis is back");
  }),
});

Deno.test({
  name: "redisRateLimiter with Redis frozen: past timeoutMs it is unavailable, as configured",
  ignore,
  fn: withConnections(1, async ([redis], server) => {
    const errors: unknown[] = [];
    const open = redisRateLimiter(redis, {
      limit: 1,
      windowMs: HOUR,
      timeoutMs: 100,
      onError: (error) => errors.push(error),
    });
    const closed = redisRateLimiter(redis, {
      limit: 1,
      windowMs: HOUR,
      timeoutMs: 100,
      onUnavailable: "refuse",
    });
    await open.take("warm"); // the script loaded while Redis answers
    server.pause();
    try {
      assert.equal(await open.take("k"), undefined);
      assert.match(String(errors[0]), /did not answer within 100 ms/);
      const refused = await closed.decide("k");
      assert.deepEqual([refused.allowed, refused.unavailable, refused.waitMs], [false, true, 1000]);
    } finally {
      server.resume();
    }
  }),
});

Deno.test({
  name:
    "redisRateLimiter: hostile keys (10 KB, line breaks, *, a hash's look) stay apart and small",
  ignore,
  fn: withConnections(1, async ([redis]) => {
    const limiter = redisRateLimiter(redis, { limit: 1, windowMs: HOUR });
    const huge = "x".repeat(10_240);
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(huge)),
    );
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    const keys = [
      huge,
      huge + "y", // hashed apart from the other
      `#${hex}`, // what the huge key is stored as, chosen by another client
      "*",
      "a*",
      "line\r\nbreak",
      "line\nbreak",
      "\r\n*3\r\n$3\r\nDEL\r\n",
      "",
      "ключ 🔑",
    ];
    for (const key of keys) assert.equal(await limiter.take(key), undefined, JSON.stringify(key));
    for (const key of keys) {
      assert.notEqual(await limiter.take(key), undefined, JSON.stringify(key));
    }
    const stored = await redis.command<string[]>(["KEYS", "ramify:test:ratelimit:*"]);
    assert.equal(stored.length, keys.length, "one Redis key per client key");
    assert.ok(stored.includes(`ramify:test:ratelimit:default:#${hex}`));
    assert.ok(stored.every((key) => key.length < 120), "no key past the cap");
  }),
});
