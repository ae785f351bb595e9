// One suite of resumption cases, run on every bus that keeps events (in
// memory, and Redis Streams): ids, catching up from an id, each event once
// while publishing goes on, retention gaps, unknown ids, limits.
import assert from "node:assert/strict";
import { createPubSub, type PubSubBus, type Retention } from "@ramify/api/pubsub";
import { StreamEvent, StreamGap } from "@ramify/api/tree";
import { eventsOf } from "@ramify/api/tree/catalogue";

type Step = { id: string; n: number } | { gap: string | undefined };

/** The next `count` steps of a subscription read with positions. */
async function steps(source: { [eventsOf](): AsyncIterator<unknown> }, count: number) {
  const iterator = source[eventsOf]();
  const found: Step[] = [];
  while (found.length < count) {
    const step = await iterator.next();
    if (step.done) break;
    const item = step.value;
    if (item instanceof StreamGap) found.push({ gap: item.lastEventId });
    else if (item instanceof StreamEvent) {
      found.push({ id: item.id, n: (item.value as { n: number }).n });
    } else throw new Error(`an item without a position: ${JSON.stringify(item)}`);
  }
  return found;
}

const numbers = (found: Step[]) => found.map((step) => "n" in step ? step.n : "gap");

type TickPubSub = ReturnType<typeof createPubSub<{ tick: { n: number } }>>;

/** Runs a case's body with a bus of this kind, released after. */
export type WithBus = (
  retention: Retention | undefined,
  body: (bus: PubSubBus) => Promise<void>,
) => Promise<void>;

/** Registers the cases for one kind of bus; `missing` says why they cannot run here. */
export function resumeCases(kind: string, withBus: WithBus, missing?: string) {
  const ignore = missing !== undefined;
  if (ignore) console.warn(`skipped resume (${kind}): ${missing}`);
  const test = (name: string, fn: (pubsub: TickPubSub) => Promise<void>, retention?: Retention) =>
    Deno.test({
      name: `resume (${kind}): ${name}`,
      ignore,
      fn: () => withBus(retention, (bus) => fn(createPubSub<{ tick: { n: number } }>({ bus }))),
    });

  test("each event has a rising id; plain iteration gives the payloads alone", async (pubsub) => {
    try {
      const positioned = pubsub.subscribe("tick");
      const plain = pubsub.subscribe("tick");
      await settle(pubsub);
      for (let n = 1; n <= 3; n++) await pubsub.publish("tick", { n });
      const found = await steps(positioned, 3);
      assert.deepEqual(numbers(found), [1, 2, 3]);
      const ids = found.map((step) => "id" in step ? step.id : "");
      assert.ok(ids.every((id) => /^\d+-\d+$/.test(id)), ids.join());
      assert.deepEqual([...ids].sort(compareIds), ids);
      const payloads = [];
      for await (const payload of plain) {
        payloads.push(payload);
        if (payloads.length === 3) break;
      }
      assert.deepEqual(payloads, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    } finally {
      await pubsub.close();
    }
  });

  test("a subscriber resuming from an id gets every later event once, then live ones", async (pubsub) => {
    try {
      const first = pubsub.subscribe("tick");
      await settle(pubsub);
      for (let n = 1; n <= 5; n++) await pubsub.publish("tick", { n });
      const seen = await steps(first, 5);
      const second = seen[1] as { id: string };
      await first.return!();
      const resumed = pubsub.subscribe("tick", { lastEventId: second.id });
      await settle(pubsub);
      await pubsub.publish("tick", { n: 6 });
      const found = await steps(resumed, 4);
      assert.deepEqual(numbers(found), [3, 4, 5, 6]);
      assert.deepEqual(found.slice(0, 3), seen.slice(2), "the same ids as the first time");
    } finally {
      await pubsub.close();
    }
  });

  test("events published while a subscriber catches up come once each, in order", async (pubsub) => {
    try {
      const first = pubsub.subscribe("tick");
      await settle(pubsub);
      await pubsub.publish("tick", { n: 1 });
      const [start] = await steps(first, 1) as { id: string }[];
      for (let n = 2; n <= 30; n++) await pubsub.publish("tick", { n });
      const resumed = pubsub.subscribe("tick", { lastEventId: start.id });
      const publishing = (async () => {
        for (let n = 31; n <= 60; n++) await pubsub.publish("tick", { n });
      })();
      const found = await steps(resumed, 59);
      await publishing;
      assert.deepEqual(numbers(found), Array.from({ length: 59 }, (_, i) => i + 2));
    } finally {
      await pubsub.close();
    }
  });

  test(
    "past the retention the subscriber is told of a gap, then gets what is kept",
    async (pubsub) => {
      try {
        const first = pubsub.subscribe("tick");
        await settle(pubsub);
        await pubsub.publish("tick", { n: 1 });
        const [oldest] = await steps(first, 1) as { id: string }[];
        for (let n = 2; n <= 6; n++) await pubsub.publish("tick", { n });
        const resumed = pubsub.subscribe("tick", { lastEventId: oldest.id });
        const found = await steps(resumed, 4);
        assert.deepEqual(found[0], { gap: oldest.id });
        assert.deepEqual(numbers(found), ["gap", 4, 5, 6]);
      } finally {
        await pubsub.close();
      }
    },
    { maxLen: 3 },
  );

  test("an id the topic never gave (malformed, from the future, hostile) is a gap, then live", async (pubsub) => {
    try {
      const first = pubsub.subscribe("tick");
      await settle(pubsub);
      await pubsub.publish("tick", { n: 1 });
      await steps(first, 1);
      for (const id of ["../../etc", "99999999999999-0", "1-x", "x".repeat(10_000)]) {
        const resumed = pubsub.subscribe("tick", { lastEventId: id });
        await settle(pubsub);
        await pubsub.publish("tick", { n: 2 });
        const found = await steps(resumed, 2);
        assert.deepEqual(found[0], { gap: id });
        assert.equal(numbers(found).at(-1), 2, `live events follow the gap for ${id.slice(0, 20)}`);
        await resumed.return!();
      }
    } finally {
      await pubsub.close();
    }
  });

  test("limit ends the subscription after that many events", async (pubsub) => {
    try {
      const two = pubsub.subscribe("tick", { limit: 2 });
      await settle(pubsub);
      for (let n = 1; n <= 3; n++) await pubsub.publish("tick", { n });
      assert.deepEqual(numbers(await steps(two, 5)), [1, 2]);
      assert.equal(pubsub.subscribers("tick"), 0, "the topic is released");
    } finally {
      await pubsub.close();
    }
  });
}

/** Lets a bus that starts reading asynchronously (Redis) take its position. */
async function settle(pubsub: { subscribers(topic?: string): number }) {
  assert.ok(pubsub.subscribers() > 0);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

function compareIds(a: string, b: string): number {
  const [ma, sa] = a.split("-").map(Number);
  const [mb, sb] = b.split("-").map(Number);
  return ma - mb || sa - sb;
}
