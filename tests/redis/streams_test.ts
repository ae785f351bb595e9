// redisStreams on a real redis-server: the resumption suite, then what only
// Redis shows: ids that mean the same on two instances (two connections), a
// stream trimmed by age, a reader that waits out a Redis restart and tells
// its subscribers of the events Redis lost, and the keys each topic uses.
import assert from "node:assert/strict";
import { createPubSub } from "@ramify/api/pubsub";
import { connectRedis, type Redis, redisStreams } from "@ramify/api/redis";
import { StreamEvent, StreamGap } from "@ramify/api/tree";
import { eventsOf } from "@ramify/api/tree/catalogue";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { resumeCases } from "../support/resume_cases.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

/** A real redis-server and `count` connections to it, as many instances would have. */
async function withInstances(
  count: number,
  body: (connections: Redis[], server: RedisServer) => Promise<void>,
) {
  await withRedis(async (server) => {
    const connections: Redis[] = [];
    try {
      for (let i = 0; i < count; i++) {
        connections.push(await connectRedis({ url: server.url, app: "streams" }));
      }
      await body(connections, server);
    } finally {
      await Promise.allSettled(connections.map((connection) => connection.close()));
    }
  });
}

resumeCases("Redis", (retention, body) =>
  withInstances(1, async ([redis]) => {
    const bus = redisStreams(redis, retention);
    try {
      await body(bus);
    } finally {
      await bus.close();
    }
  }), missing);

async function next(iterator: AsyncIterator<unknown>): Promise<unknown> {
  const step = await iterator.next();
  assert.equal(step.done, false);
  return step.value;
}

Deno.test({
  name:
    "redisStreams: an event published on one instance has the same id on another, which resumes from it",
  ignore,
  fn: () =>
    withInstances(2, async ([a, b]) => {
      const onA = createPubSub<{ tick: number }>({ bus: redisStreams(a) });
      const onB = createPubSub<{ tick: number }>({ bus: redisStreams(b) });
      try {
        const listening = onB.subscribe("tick")[eventsOf]();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await onA.publish("tick", 1);
        await onA.publish("tick", 2);
        const first = await next(listening) as StreamEvent<number>;
        assert.ok(first instanceof StreamEvent);
        assert.equal(first.value, 1);
        // Instance B's subscriber goes away; it comes back on instance A.
        const resumed = onA.subscribe("tick", { lastEventId: first.id })[eventsOf]();
        const second = await next(resumed) as StreamEvent<number>;
        assert.equal(second.value, 2);
        assert.equal(second.id, (await next(listening) as StreamEvent<number>).id);
      } finally {
        await onA.close();
        await onB.close();
      }
    }),
});

Deno.test({
  name: "redisStreams: the stream is kept under the app's prefix, trimmed by count and by age",
  ignore,
  fn: () =>
    withInstances(1, async ([redis], server) => {
      const counted = redisStreams(redis, { maxLen: 2 });
      for (let n = 0; n < 5; n++) await counted.publish("tick", String(n));
      assert.equal(await server.cli("XLEN", "ramify:streams:stream:tick"), "2");
      const aged = redisStreams(redis, { maxAgeMs: 50 });
      await aged.publish("old", "1");
      await new Promise((resolve) => setTimeout(resolve, 80));
      await aged.publish("old", "2");
      assert.equal(await server.cli("XLEN", "ramify:streams:stream:old"), "1");
      assert.notEqual(
        await server.cli("GET", "ramify:streams:stream-cut:old"),
        "",
        "the cut is noted",
      );
      const replay = await aged.replay!("old", "0-0", 10);
      assert.equal(replay.gap, true);
      assert.deepEqual(replay.events.map((event) => event.message), ["2"]);
    }),
});

Deno.test({
  name:
    "redisStreams: a reader waits out a Redis restart, tells of the events Redis lost, and goes on",
  ignore,
  fn: () =>
    withInstances(1, async ([redis], server) => {
      const pubsub = createPubSub<{ tick: number }>({ bus: redisStreams(redis) });
      try {
        const events = pubsub.subscribe("tick")[eventsOf]();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await pubsub.publish("tick", 1);
        const first = await next(events) as StreamEvent<number>;
        assert.equal(first.value, 1);
        // Redis runs without persistence here: the stream is gone with the restart.
        await server.restart();
        let published = false;
        for (let tries = 0; tries < 100 && !published; tries++) {
          try {
            await pubsub.publish("tick", 2);
            published = true;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        assert.ok(published, "publishing works again once Redis is back");
        const after = await next(events);
        assert.ok(after instanceof StreamGap, "the subscriber is told what Redis lost");
        assert.equal((await next(events) as StreamEvent<number>).value, 2);
        // A client resuming from before the restart is told too, then gets the new stream.
        const resumed = pubsub.subscribe("tick", { lastEventId: first.id })[eventsOf]();
        assert.ok(await next(resumed) instanceof StreamGap);
        assert.equal((await next(resumed) as StreamEvent<number>).value, 2);
      } finally {
        await pubsub.close();
      }
    }),
});

Deno.test({
  name: "redisStreams: Redis unreachable: a publish rejects at once, a subscription fails with 503",
  ignore,
  fn: () =>
    withInstances(1, async ([redis], server) => {
      const pubsub = createPubSub<{ tick: number }>({ bus: redisStreams(redis) });
      try {
        await server.stop();
        await assert.rejects(() => pubsub.publish("tick", 1));
        for (const lastEventId of ["1-0", undefined]) {
          const subscription = pubsub.subscribe("tick", { lastEventId });
          await assert.rejects(() => subscription.next(), (error: Error & { status?: number }) => {
            assert.equal(error.status, 503, "told the events cannot be read, not left waiting");
            return true;
          });
        }
      } finally {
        await pubsub.close();
      }
    }),
});
