// The serving fast paths cannot drift from the general ones: for random
// values and bodies (a seeded generator, so a failure repeats), a JSON answer
// equals the general response builder's, a body read by its declared length
// equals the same body streamed without one, the input a handler gets with
// nothing to merge equals the merged one, and HEAD carries GET's length.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch, http } from "@ramify/api/http";
import { resultResponse } from "../../../http/server/respond.ts";
import { mergeInput } from "../../../http/server/_request.ts";

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ["a", "title", "__proto__", "constructor", "é", "x y", "0", "toString"];

function value(next: () => number, depth = 0): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.round((next() - 0.5) * 1e6) / 100;
    case 3:
      return ["", "Dune", "ünïcödé ✓", 'quote " and \\ slash', "\u2028"][Math.floor(next() * 5)];
    case 4:
      return Math.floor(next() * 100);
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default:
      return object(next, depth + 1);
  }
}

function object(next: () => number, depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const size = Math.floor(next() * 5);
  for (let i = 0; i < size; i++) {
    Object.defineProperty(result, KEYS[Math.floor(next() * KEYS.length)], {
      value: value(next, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

const received: unknown[] = [];
const tree = api({
  echo: op((input: Record<string, unknown>) => {
    received.push(input);
    return input;
  }),
  give: op(({ n }: { n: string }) => generated[Number(n)], http.get),
});
let generated: unknown[] = [];

Deno.test("fast path: a JSON answer equals the general response builder's, for random values", async () => {
  const next = random(7);
  generated = Array.from({ length: 300 }, () => value(next));
  const handler = createFetch(tree, { openapi: false });
  for (let i = 0; i < generated.length; i++) {
    if (generated[i] === undefined) continue;
    const fast = await handler(new Request(`http://x/give?n=${i}`));
    const general = await resultResponse(generated[i], "json", {
      firstId: 1,
      heartbeatMs: 0,
      onError: () => {},
    });
    assert.equal(fast.status, general.status, `value ${i}`);
    assert.equal(fast.headers.get("content-type"), general.headers.get("content-type"));
    assert.equal(await fast.text(), await general.text(), `value ${i}`);
  }
});

Deno.test("fast path: a body read by its length equals it streamed; the input equals the merged one", async () => {
  const next = random(11);
  const handler = createFetch(tree, { openapi: false });
  for (let i = 0; i < 200; i++) {
    const body = object(next);
    const text = JSON.stringify(body);
    received.length = 0;
    const declared = await handler(
      new Request("http://x/echo", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(new TextEncoder().encode(text).length),
        },
        body: text,
      }),
    );
    const bytes = new TextEncoder().encode(text);
    const streamed = await handler(
      new Request("http://x/echo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            // Two chunks, split anywhere: no length declared.
            const cut = Math.floor(next() * bytes.length);
            controller.enqueue(bytes.slice(0, cut));
            controller.enqueue(bytes.slice(cut));
            controller.close();
          },
        }),
      }),
    );
    assert.equal(declared.status, 200);
    assert.equal(await declared.text(), await streamed.text(), text);
    const merged = mergeInput({}, JSON.parse(text), []);
    for (const input of received) {
      assert.deepEqual(input, merged, text);
      assert.equal(Object.getPrototypeOf(input), Object.prototype, "no prototype was replaced");
    }
  }
});

Deno.test("fast path: HEAD carries GET's Content-Length and no body", async () => {
  const handler = createFetch(tree, { openapi: false });
  generated = [{ title: "Dune", note: "ünïcödé ✓" }];
  const get = await handler(new Request("http://x/give?n=0"));
  const head = await handler(new Request("http://x/give?n=0", { method: "HEAD" }));
  const body = new Uint8Array(await get.arrayBuffer());
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), String(body.byteLength));
  assert.equal(head.headers.get("content-type"), get.headers.get("content-type"));
  assert.equal(await head.text(), "");
});
