// The one rule for what kind of result a value is, which every surface asks.
import assert from "node:assert/strict";
import { content, reply } from "@ramify/api/tree";
import { resultKindOf } from "@ramify/api/tree/catalogue";

Deno.test("resultKindOf: JSON values, nothing, and a content() value are values", async () => {
  for (const value of [{ id: 1 }, [1, 2], "text", 0, false, null, Object.create(null)]) {
    assert.equal(resultKindOf(value), "value", JSON.stringify(value));
  }
  assert.equal(resultKindOf(new Date(0)), "value");
  assert.equal(resultKindOf(await content("hello")), "value");
  assert.equal(resultKindOf(undefined), "none");
});

Deno.test("resultKindOf: every form of bytes is bytes, a ReadableStream before a stream", () => {
  const bytes = [
    new Blob(["a"]),
    new File(["a"], "a.txt"),
    new ArrayBuffer(2),
    new Uint8Array(2),
    new DataView(new ArrayBuffer(2)),
    new ReadableStream(),
  ];
  for (const value of bytes) assert.equal(resultKindOf(value), "bytes", String(value));
});

Deno.test("resultKindOf: async iterables are streams, an object literal with the symbol too", () => {
  async function* ticks() {
    yield 1;
  }
  const literal = {
    [Symbol.asyncIterator]: () => ticks(),
  };
  assert.equal(resultKindOf(ticks()), "stream");
  assert.equal(resultKindOf(literal), "stream");
  // A sync iterable is a value, as JSON.stringify sees it.
  assert.equal(resultKindOf(new Set([1])), "value");
});

Deno.test("resultKindOf: a reply() is a reply whatever it holds, a Response a response", () => {
  assert.equal(resultKindOf(reply({ id: 1 }, { status: 201 })), "reply");
  assert.equal(resultKindOf(reply(new Blob(["a"]))), "reply");
  assert.equal(resultKindOf(new Response("hi")), "response");
});
