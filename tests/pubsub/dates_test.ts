// Dates through pub/sub (issue 29): a topic's schema revives the date-time
// strings its JSON form holds, so the docs' pattern (a typed topic streamed by
// a leaf whose output schema holds `z.date()`) passes the output check over
// SSE, in memory as through Redis; without a schema a subscriber is typed with
// the JSON form it receives, never a `Date` over a string.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createPubSub, memoryBus, type PubSubBus } from "@ramify/api/pubsub";
import { connectRedis, redisBus, redisStreams } from "@ramify/api/redis";
import { redisMissing, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";

const Message = z.object({
  text: z.string(),
  createdAt: z.date(),
  edits: z.array(z.object({ at: z.date() })),
});

/** The docs' pattern: a topic typed by its schema, streamed by a leaf that checks its output. */
function chat(bus: PubSubBus) {
  const pubsub = createPubSub({ bus, topics: { "message.posted": Message } });
  const tree = api({
    messages: api({
      post: op(async ({ text }) => {
        const message = { text, createdAt: new Date("2026-01-02T03:04:05.678Z"), edits: [] };
        await pubsub.publish("message.posted", message);
        return message;
      }, { input: z.object({ text: z.string() }), output: Message }),
      events: op((_input, ctx) => pubsub.subscribe("message.posted", { signal: ctx.signal }), {
        tags: { readOnly: true, streaming: true },
        output: Message,
      }),
    }),
  });
  return { pubsub, tree };
}

/** The next item, typed as the iterable's items (an iterator result's value is `any` when done). */
async function first<T>(source: AsyncIterable<T>): Promise<T> {
  for await (const item of source) return item;
  throw new Error("the subscription ended");
}

async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Streams one event over a real server while a message is posted; gives the event's data. */
async function streamedThrough(bus: PubSubBus): Promise<unknown> {
  const { pubsub, tree } = chat(bus);
  const errors: unknown[] = [];
  try {
    let data: unknown;
    await withServer(createFetch(tree, { onError: (e) => errors.push(e) }), async (base) => {
      const controller = new AbortController();
      // The stream opens before its first item: the headers come at once.
      const stream = fetch(`${base}/messages/events`, { signal: controller.signal });
      await until("the subscription", () => pubsub.subscribers("message.posted") === 1);
      // Through Redis the subscription is live once the bus has subscribed.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const posted = await fetch(`${base}/messages/post`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hello" }),
      });
      assert.equal(posted.status, 200);
      await posted.body?.cancel();
      const response = await stream;
      assert.equal(response.status, 200, "the stream passes its output check");
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      // An `: open` comment may come first.
      while (!/^data: .*\n\n/m.test(text)) text += (await reader.read()).value ?? "";
      controller.abort();
      await reader.cancel().catch(() => {});
      data = JSON.parse(text.split("\n").find((line) => line.startsWith("data: "))!.slice(6));
    });
    assert.deepEqual(errors, []);
    return data;
  } finally {
    await pubsub.close();
  }
}

const expected = { text: "hello", createdAt: "2026-01-02T03:04:05.678Z", edits: [] };

Deno.test("pubsub dates: a topic's schema revives its dates, so a z.date() stream is served (memory)", async () => {
  assert.deepEqual(await streamedThrough(memoryBus()), expected);
});

const missing = await redisMissing();
if (missing !== undefined) console.warn(`skipped: ${missing}`);

Deno.test({
  name:
    "pubsub dates: a topic's schema revives its dates, so a z.date() stream is served (Redis pub/sub and Streams)",
  ignore: missing !== undefined,
  async fn() {
    await withRedis(async (server) => {
      const redis = await connectRedis({ url: server.url, app: "t" });
      try {
        assert.deepEqual(await streamedThrough(redisBus(redis)), expected);
        assert.deepEqual(await streamedThrough(redisStreams(redis)), expected);
      } finally {
        await redis.close();
      }
    });
  },
});

Deno.test("pubsub dates: a subscriber gets the same Dates in memory and through a bus's text", async () => {
  const pubsub = createPubSub({ topics: { "message.posted": Message } });
  const messages = pubsub.subscribe("message.posted");
  const at = new Date("2026-05-06T07:08:09.010Z");
  await pubsub.publish("message.posted", { text: "x", createdAt: at, edits: [{ at }] });
  const value = await first(messages);
  assert.ok(value.createdAt instanceof Date && value.edits[0].at instanceof Date);
  assert.equal(value.createdAt.getTime(), at.getTime());
  assert.equal(value.edits[0].at.toISOString(), at.toISOString());
  await pubsub.close();
});

Deno.test("pubsub dates: without a schema a subscriber is typed with the JSON form it receives", async () => {
  const pubsub = createPubSub<{ tick: { at: Date; n: number } }>();
  const ticks = pubsub.subscribe("tick");
  await pubsub.publish("tick", { at: new Date("2026-01-01T00:00:00.000Z"), n: 1 });
  const value = await first(ticks);
  const at: string = value.at;
  assert.equal(at, "2026-01-01T00:00:00.000Z");
  // @ts-expect-error a Date sent without a schema arrives as its ISO text
  const wrong: Date = value.at;
  void wrong;
  // @ts-expect-error the publish side still takes the Date
  void (() => pubsub.publish("tick", { at: "2026-01-01", n: 1 }));
  const typed = createPubSub({ topics: { tick: z.object({ at: z.date() }) } });
  const dates = typed.subscribe("tick");
  await typed.publish("tick", { at: new Date(0) });
  const date: Date = (await first(dates)).at;
  assert.equal(date.getTime(), 0);
  await typed.close();
  await pubsub.close();
});
