// redisIdempotency against a real redis-server: two routers (two instances,
// each on its own connection) sharing one Redis run a keyed POST once, even
// racing; Redis unreachable or frozen fails closed (503, nothing runs); a
// record expires after ttlMs, a running claim after lockMs; keys are namespaced.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisIdempotency, type RedisIdempotencyOptions } from "../../redis/idempotency.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

/**
 * What the instances share: the count of orders made across all of them, and
 * a gate a test may close to hold every run until it opens it.
 */
interface Runs {
  count: number;
  gate?: Promise<void>;
}

/** The shop of one instance. */
function instance(redis: Redis, runs: Runs, opts: RedisIdempotencyOptions = {}) {
  const tree = api({
    orders: op(
      async ({ item }: { item: string }) => {
        runs.count++;
        // Long enough for a racing request to find the claim still running.
        await (runs.gate ?? new Promise((resolve) => setTimeout(resolve, 20)));
        return { id: runs.count, item };
      },
      http.post,
      {
        input: z.object({ item: z.string() }),
        http: { idempotencyKey: "required", status: 201 },
      },
    ),
  });
  return createFetch(tree, { idempotency: redisIdempotency(redis, opts), onError: () => {} });
}

/** Two instances on two connections to a fresh Redis, each served over the network. */
function withInstances(
  body: (bases: [string, string], runs: Runs, server: RedisServer) => Promise<void>,
  opts: RedisIdempotencyOptions = {},
): () => Promise<void> {
  return () =>
    withRedis(async (server) => {
      const a = await connectRedis({ url: server.url, app: "test" });
      const b = await connectRedis({ url: server.url, app: "test" });
      const runs: Runs = { count: 0 };
      try {
        await withServer(instance(a, runs, opts), (first) =>
          withServer(instance(b, runs, opts), (second) =>
            body([first, second], runs, server)));
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
}

const order = (base: string, key: string, item = "tea") =>
  fetch(`${base}/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": `"${key}"` },
    body: JSON.stringify({ item }),
  });

Deno.test({
  name: "redisIdempotency: a POST with one key on two instances creates one record",
  ignore,
  fn: withInstances(async ([first, second], runs, server) => {
    const made = await order(first, "k1");
    assert.equal(made.status, 201);
    assert.deepEqual(await made.json(), { id: 1, item: "tea" });
    const again = await order(second, "k1");
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(again.headers.get("content-type"), "application/json");
    assert.deepEqual(await again.json(), { id: 1, item: "tea" });
    const reused = await order(second, "k1", "coffee");
    assert.equal(reused.status, 422);
    await reused.body?.cancel();
    assert.equal(runs.count, 1);
    // Under the app's namespace, expiring.
    assert.equal(await server.cli("EXISTS", "ramify:test:idem:k1"), "1");
    const ttl = Number(await server.cli("PTTL", "ramify:test:idem:k1"));
    assert.ok(ttl > 0 && ttl <= 86_400_000, String(ttl));
  }),
});

Deno.test({
  name: "redisIdempotency: requests racing with one key on two instances run the leaf once",
  ignore,
  fn: withInstances(async (bases, runs) => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => order(bases[i % 2], "race")),
    );
    const statuses = await Promise.all(
      answers.map(async (response) => (await response.body?.cancel(), response.status)),
    );
    assert.equal(runs.count, 1);
    assert.ok(statuses.includes(201), String(statuses));
    assert.ok(statuses.every((status) => status === 201 || status === 409), String(statuses));
  }),
});

Deno.test({
  name: "redisIdempotency with Redis unreachable or frozen: 503 with Retry-After, nothing runs",
  ignore,
  fn: withInstances(async ([first], runs, server) => {
    await server.stop();
    const down = await order(first, "d1");
    assert.equal(down.status, 503);
    assert.equal(down.headers.get("retry-after"), "1");
    assert.equal((await down.json()).code, "IDEMPOTENCY_KEY_UNAVAILABLE");
    await server.start();
    server.pause();
    try {
      const frozen = await order(first, "d2");
      assert.equal(frozen.status, 503);
      await frozen.body?.cancel();
    } finally {
      server.resume();
    }
    assert.equal(runs.count, 0);
  }, { timeoutMs: 200 }),
});

Deno.test({
  name: "redisIdempotency: after Redis restarts empty (no scripts, no records) keys work again",
  ignore,
  fn: withInstances(async ([first, second], runs, server) => {
    await (await order(first, "r1")).body?.cancel();
    await server.restart();
    await until("the connections to come back", async () => {
      const response = await order(second, "r2");
      await response.body?.cancel();
      return response.status === 201;
    });
    // The records went with the restart (no persistence here): the key is new again.
    const again = await order(first, "r1");
    assert.equal(again.headers.get("idempotent-replayed"), null);
    assert.equal(again.status, 201);
    await again.body?.cancel();
    assert.equal((await order(second, "r1")).headers.get("idempotent-replayed"), "true");
    assert.equal(runs.count, 3);
  }),
});

Deno.test({
  name: "redisIdempotency: after ttlMs the key is new again; a claim lapses after lockMs",
  ignore,
  fn: withInstances(async ([first, second], runs, server) => {
    await (await order(first, "t1")).body?.cancel();
    await until(
      "the record to expire",
      async () => await server.cli("EXISTS", "ramify:test:idem:t1") === "0",
    );
    const later = await order(second, "t1");
    assert.equal(later.headers.get("idempotent-replayed"), null);
    assert.deepEqual(await later.json(), { id: 2, item: "tea" });
    // A claim whose instance died (another request's: 422 while it is held), then free.
    await server.cli("SET", "ramify:test:idem:t2", "dead-token\nsome-fingerprint\n", "PX", "1500");
    const held = await order(first, "t2");
    assert.equal(held.status, 422);
    await held.body?.cancel();
    await until(
      "the claim to lapse",
      async () => await server.cli("EXISTS", "ramify:test:idem:t2") === "0",
    );
    assert.equal((await order(first, "t2")).status, 201);
    assert.equal(runs.count, 3);
  }, { ttlMs: 400, lockMs: 5_000 }),
});

Deno.test({
  name: "redisIdempotency: a claim another instance holds is 409 until its answer is kept",
  ignore,
  fn: withInstances(async ([first, second], runs) => {
    let open = () => {};
    runs.gate = new Promise((resolve) => open = resolve);
    const slow = order(first, "s1");
    await until("the first to run", () => runs.count === 1);
    const during = await order(second, "s1");
    assert.equal(during.status, 409);
    await during.body?.cancel();
    open();
    assert.equal((await slow).status, 201);
    assert.equal((await order(second, "s1")).headers.get("idempotent-replayed"), "true");
    assert.equal(runs.count, 1);
  }),
});

Deno.test({
  name: "redisIdempotency: a body of any bytes survives the round trip through Redis",
  ignore,
  fn: () =>
    withRedis(async (server) => {
      const redis = await connectRedis({ url: server.url, app: "test" });
      try {
        const store = redisIdempotency(redis);
        const body = Uint8Array.from({ length: 70_000 }, (_, i) => i % 256);
        assert.deepEqual(await store.claim("b", "fp", "tok"), { state: "claimed" });
        await store.complete("b", "other", { status: 200, headers: [], body }); // not the holder
        assert.deepEqual(await store.claim("b", "fp", "tok2"), {
          state: "running",
          fingerprint: "fp",
        });
        await store.complete("b", "tok", { status: 201, headers: [["x-a", "1"]], body });
        const found = await store.claim("b", "fp", "tok3");
        assert.equal(found.state, "done");
        if (found.state !== "done") return;
        assert.equal(found.fingerprint, "fp");
        assert.deepEqual(found.answer, { status: 201, headers: [["x-a", "1"]], body });
        await store.claim("r", "fp", "mine");
        await store.release("r", "mine");
        assert.deepEqual(await store.claim("r", "fp", "again"), { state: "claimed" });
      } finally {
        await redis.close();
      }
    }),
});

async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}
