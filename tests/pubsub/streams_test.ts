// memoryStreams: the resumption suite in one process, and what a bus that
// keeps no events says to a subscriber that asks to resume.
import assert from "node:assert/strict";
import { createPubSub, memoryBus, memoryStreams } from "@ramify/api/pubsub";
import { StreamGap } from "@ramify/api/tree";
import { eventsOf } from "@ramify/api/tree/catalogue";
import { resumeCases } from "../support/resume_cases.ts";

resumeCases("memory", (retention, body) => body(memoryStreams(retention)));

Deno.test("resume (memory): an age bound trims what is older", async () => {
  const bus = memoryStreams({ maxAgeMs: 20 });
  await bus.publish("tick", "1");
  await new Promise((resolve) => setTimeout(resolve, 40));
  await bus.publish("tick", "2");
  const replay = await bus.replay!("tick", "0-0", 10);
  assert.equal(replay.gap, true);
  assert.deepEqual(replay.events.map((event) => event.message), ["2"]);
});

Deno.test("resume: a bus that keeps no events tells a resuming subscriber of a gap", async () => {
  const pubsub = createPubSub<{ tick: number }>({ bus: memoryBus() });
  const resumed = pubsub.subscribe("tick", { lastEventId: "5-0" });
  await pubsub.publish("tick", 1);
  const iterator = resumed[eventsOf]();
  const first = (await iterator.next()).value;
  assert.ok(first instanceof StreamGap);
  assert.equal(first.lastEventId, "5-0");
  assert.equal((await iterator.next()).value, 1, "a payload without an id comes bare");
  await pubsub.close();
});

Deno.test("resume: a subscriber that falls behind is told of a gap where messages were dropped", async () => {
  const pubsub = createPubSub<{ tick: number }>({ bus: memoryStreams(), bufferSize: 2 });
  const slow = pubsub.subscribe("tick");
  for (let n = 1; n <= 5; n++) await pubsub.publish("tick", n);
  const iterator = slow[eventsOf]();
  const items = [];
  for (let i = 0; i < 3; i++) items.push((await iterator.next()).value);
  assert.ok(items[0] instanceof StreamGap);
  assert.deepEqual(items.slice(1).map((item) => (item as { value: number }).value), [4, 5]);
  assert.equal(slow.dropped, 3);
  await pubsub.close();
});

Deno.test("resume: retention options are checked", () => {
  assert.throws(() => memoryStreams({ maxLen: 0 }), RangeError);
  assert.throws(() => memoryStreams({ maxAgeMs: 1.5 }), RangeError);
});
