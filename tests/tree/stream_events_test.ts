// Stream positions in the tree: the call path checks an event's value
// against the output schema and keeps its id, lets a gap through, takes a
// source's positioned items (`eventsOf`); the types let a handler yield
// events and gaps under an output schema, and clients receive the values.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op, StreamEvent, streamEvent, StreamGap } from "@ramify/api/tree";
import { createCall, eventsOf, OutputError } from "@ramify/api/tree/catalogue";
import type { ReceivedOf } from "@ramify/api/client";
import { assertType, type Equal } from "../support/types.ts";

const streaming = { tags: { readOnly: true, streaming: true } } as const;

async function items(result: unknown): Promise<unknown[]> {
  const found: unknown[] = [];
  for await (const item of result as AsyncIterable<unknown>) found.push(item);
  return found;
}

Deno.test("stream events: the output schema checks an event's value, its id kept; a gap passes", async () => {
  const leaf = op(async function* () {
    yield streamEvent({ n: 1, secret: "x" }, "1-0");
    yield new StreamGap("1-0");
    yield { n: 2 };
  }, { ...streaming, output: z.object({ n: z.number() }) });
  const [first, gap, plain] = await items(await createCall(leaf)({}, {}));
  assert.ok(first instanceof StreamEvent);
  assert.deepEqual([first.value, first.id], [{ n: 1 }, "1-0"], "parsed by the schema, id kept");
  assert.ok(gap instanceof StreamGap);
  assert.deepEqual(plain, { n: 2 });

  // A handler its types would refuse (below), as plain JavaScript could write it.
  const breaking = (async function* () {
    yield streamEvent({ n: "one" }, "1-0");
  }) as unknown as () => AsyncIterable<{ n: number }>;
  const wrong = op(breaking, { ...streaming, output: z.object({ n: z.number() }) });
  await assert.rejects(() => items(createCall(wrong)({}, {})), OutputError);
});

Deno.test("stream events: a source's positioned items are what the call path streams", async () => {
  const source = {
    async *[Symbol.asyncIterator]() {
      yield "bare";
    },
    async *[eventsOf]() {
      yield new StreamEvent("positioned", "7-0");
    },
  };
  const leaf = op(() => source, streaming);
  const [only] = await items(await createCall(leaf)({}, {}));
  assert.ok(only instanceof StreamEvent);
  assert.deepEqual([only.value, only.id], ["positioned", "7-0"]);
});

Deno.test("stream events: an id with a line break is refused (it could not travel on SSE)", () => {
  assert.throws(() => streamEvent(1, "1\nevent: forged"), TypeError);
  assert.throws(() => streamEvent(1, "1\r0"), TypeError);
  assert.equal(streamEvent(1, "1-0").id, "1-0");
});

Deno.test("stream events: types: events and gaps under a schema; clients receive the values", () => {
  const tree = api({
    typed: op(async function* () {
      yield streamEvent({ n: 1 }, "1-0");
      yield new StreamGap();
    }, { ...streaming, output: z.object({ n: z.number() }) }),
    untyped: op(async function* () {
      yield streamEvent({ n: 1 }, "1-0");
      yield new StreamGap();
    }, streaming),
  });
  assertType<Equal<ReceivedOf<typeof tree.children.typed>, AsyncIterable<{ n: number }>>>(true);
  assertType<Equal<ReceivedOf<typeof tree.children.untyped>, AsyncIterable<{ n: number }>>>(true);
  // @ts-expect-error an event's value must fit the output schema too
  op(async function* () {
    yield streamEvent({ n: "one" }, "1-0");
  }, { ...streaming, output: z.object({ n: z.number() }) });
});
