// createPubSub over the in-memory bus: typed topics, filters, schemas, the
// bounded queue's two policies, release of the bus subscription when the last
// subscriber leaves, and a streaming leaf fanning out on every surface.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  createPubSub,
  memoryBus,
  type PubSubBus,
  SubscriptionOverflowError,
} from "@ramify/api/pubsub";

/** A memory bus that counts its topic subscriptions. */
function countingBus(): PubSubBus & { live: Map<string, number> } {
  const inner = memoryBus();
  const live = new Map<string, number>();
  return {
    live,
    publish: (topic, message) => inner.publish(topic, message),
    async subscribe(topic, deliver) {
      live.set(topic, (live.get(topic) ?? 0) + 1);
      const stop = await inner.subscribe(topic, deliver);
      return async () => {
        live.set(topic, live.get(topic)! - 1);
        await stop();
      };
    },
    close: () => inner.close(),
  };
}

async function take<T>(source: AsyncIterable<T>, count: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) {
    items.push(item);
    if (items.length === count) break;
  }
  return items;
}

Deno.test("pubsub: every subscriber of a topic gets each payload from its subscription on, filtered", async () => {
  const pubsub = createPubSub<{ "books.added": { title: string; author: string } }>();
  const all = pubsub.subscribe("books.added");
  const leGuin = pubsub.subscribe("books.added", { filter: (book) => book.author === "Le Guin" });
  await pubsub.publish("books.added", { title: "Dune", author: "Herbert" });
  await pubsub.publish("books.added", { title: "Lathe", author: "Le Guin" });
  assert.deepEqual((await take(all, 2)).map((book) => book.title), ["Dune", "Lathe"]);
  assert.deepEqual((await take(leGuin, 1)).map((book) => book.title), ["Lathe"]);
  const late = pubsub.subscribe("books.added");
  await pubsub.publish("books.added", { title: "Emma", author: "Austen" });
  assert.deepEqual((await take(late, 1))[0].title, "Emma");
  // @ts-expect-error topics are typed
  void (() => pubsub.publish("books.gone", {}));
  await pubsub.close();
});

Deno.test("pubsub: a topic's schema checks what is published", async () => {
  const pubsub = createPubSub({ topics: { tick: z.object({ n: z.number().int() }) } });
  await assert.rejects(() => pubsub.publish("tick", { n: 1.5 }), /does not fit the topic's schema/);
  const ticks = pubsub.subscribe("tick");
  await pubsub.publish("tick", { n: 2 });
  assert.deepEqual(await take(ticks, 1), [{ n: 2 }]);
  await assert.rejects(() => pubsub.publish("tick", { n: 3n } as never), /schema|JSON/);
  await pubsub.close();
});

Deno.test("pubsub: a slow subscriber's queue is bounded: the oldest are dropped, or it ends", async () => {
  const dropping = createPubSub<{ n: number }>({ bufferSize: 3 });
  const slow = dropping.subscribe("n");
  for (let n = 1; n <= 10; n++) await dropping.publish("n", n);
  assert.equal(slow.dropped, 7);
  assert.deepEqual(await take(slow, 3), [8, 9, 10]);
  await dropping.close();

  const closing = createPubSub<{ n: number }>({ bufferSize: 3, overflow: "close" });
  const behind = closing.subscribe("n");
  for (let n = 1; n <= 4; n++) await closing.publish("n", n);
  await assert.rejects(() => take(behind, 10), SubscriptionOverflowError);
  assert.equal(closing.subscribers("n"), 0, "it left the topic");
  await closing.close();
});

Deno.test("pubsub: the bus subscription lives while the topic has local subscribers", async () => {
  const bus = countingBus();
  const pubsub = createPubSub<{ a: number; b: number }>({ bus });
  const first = pubsub.subscribe("a");
  const second = pubsub.subscribe("a");
  const controller = new AbortController();
  const third = pubsub.subscribe("b", { signal: controller.signal });
  await Promise.resolve();
  assert.deepEqual([bus.live.get("a"), bus.live.get("b"), pubsub.subscribers()], [1, 1, 3]);
  await first.return!();
  assert.equal(bus.live.get("a"), 1, "one subscriber is left");
  await second.return!();
  controller.abort();
  assert.deepEqual(await third.next(), { done: true, value: undefined });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual([bus.live.get("a"), bus.live.get("b"), pubsub.subscribers()], [0, 0, 0]);
  // An aborted signal from the start subscribes nothing.
  const gone = pubsub.subscribe("a", { signal: AbortSignal.abort() });
  assert.deepEqual(await gone.next(), { done: true, value: undefined });
  assert.equal(bus.live.get("a"), 0);
  await pubsub.close();
});

Deno.test("pubsub: close ends every subscription", async () => {
  const pubsub = createPubSub<{ a: number }>();
  const pending = pubsub.subscribe("a").next();
  await pubsub.close();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.throws(() => createPubSub({ bufferSize: 0 }), RangeError);
});
