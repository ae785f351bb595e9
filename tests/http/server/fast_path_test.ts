// The serving fast paths cannot drift from the general ones: for random
// values and bodies (a seeded generator, so a failure repeats), a JSON answer
// equals the general response builder's, a body read by its declared length
// equals the same body streamed without one, the input a handler gets with
// nothing to merge equals the merged one, HEAD carries GET's length, and a
// served JSON body read by the runtime's JSON read (its length declared) gets
// the same answer as the same bytes streamed, hostile ones included.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { resultResponse } from "../../../web/respond.ts";
import { mergeInput } from "../../../web/request.ts";
import { withServer } from "../../support/server.ts";
import { asSent } from "./fetch_support.ts";
import { z } from "zod";

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
  }, { input: asSent }),
  give: op(({ n }) => generated[Number(n)], http.get, { input: z.object({ n: z.string() }) }),
  items: api({}, {
    fallback: {
      name: "itemId",
      subtree: api({
        read: op((input: Record<string, unknown>) => {
          received.push(input);
          return input;
        }, http.get),
      }),
    },
  }),
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
      request: new Request(`http://x/give?n=${i}`),
      status: 200,
      mediaType: undefined,
      firstId: 1,
      heartbeatMs: 0,
      context: {},
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
    const merged = mergeInput({}, JSON.parse(text), [], []);
    for (const input of received) {
      assert.deepEqual(input, merged, text);
      assert.equal(Object.getPrototypeOf(input), Object.prototype, "no prototype was replaced");
    }
  }
});

Deno.test("fast path: a capture alone gives the input the merge gives", async () => {
  const next = random(5);
  const handler = createFetch(tree, { openapi: false });
  const alphabet = [
    "a",
    "Z",
    "0",
    "-",
    "_",
    ".",
    "~",
    "é",
    "✓",
    " ",
    "%",
    "/",
    "?",
    "#",
    "+",
    "__proto__",
  ];
  for (let i = 0; i < 200; i++) {
    const id = Array.from(
      { length: 1 + Math.floor(next() * 6) },
      () => alphabet[Math.floor(next() * alphabet.length)],
    ).join("");
    // A URL resolves the dot segments away: no capture there.
    if (id === "." || id === "..") continue;
    received.length = 0;
    const response = await handler(new Request(`http://x/items/${encodeURIComponent(id)}`));
    assert.equal(response.status, 200, id);
    const merged = mergeInput(undefined, undefined, ["itemId"], [encodeURIComponent(id)]);
    assert.deepEqual(received, [merged], id);
    assert.deepEqual(await response.json(), merged, id);
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

/** A JSON text, then maybe spoiled: a bad byte, U+FFFD, a byte-order mark, cut short, deeper. */
function hostileJson(next: () => number): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const pick = Math.floor(next() * 9);
  const root = pick === 0 ? value(next) : object(next);
  let text = JSON.stringify(root) ?? "null";
  if (pick === 1) text = '{"a":' + "[".repeat(3 + Math.floor(next() * 4)) + "]".repeat(6) + "}";
  if (pick === 2) text = text.replace(/"([^"]*)"/, '"$1\uFFFD"');
  if (pick === 3) text = text.replace(/"([^"]*)"/, '"$1\\ufffd"');
  if (pick === 4) text = "\uFEFF" + text;
  if (pick === 5) text = text.slice(0, Math.floor(next() * text.length));
  if (pick === 6) text = ` \n${text}\t `;
  const bytes = encoder.encode(text);
  if (pick === 7 && bytes.length > 0) {
    // A byte that is never UTF-8, or a sequence cut off, somewhere in the text.
    const at = Math.floor(next() * bytes.length);
    const bad = [[0xff], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98]];
    const spoiled = bad[Math.floor(next() * bad.length)];
    return new Uint8Array([...bytes.slice(0, at), ...spoiled, ...bytes.slice(at)]);
  }
  return bytes;
}

Deno.test("fast path: a served JSON body read by its length answers as the same bytes streamed", async () => {
  const next = random(23);
  const handler = createFetch(tree, { openapi: false, maxInputDepth: 5 });
  await withServer(handler, async (base) => {
    for (let i = 0; i < 300; i++) {
      const bytes = hostileJson(next);
      const post = (body: BodyInit) =>
        fetch(`${base}/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
      const declared = await post(bytes);
      const cut = Math.floor(next() * bytes.length);
      const streamed = await post(ReadableStream.from([bytes.slice(0, cut), bytes.slice(cut)]));
      const label = JSON.stringify(new TextDecoder().decode(bytes));
      assert.equal(declared.status, streamed.status, label);
      assert.ok(declared.status === 200 || declared.status === 400, label);
      assert.equal(await declared.text(), await streamed.text(), label);
    }
  });
});
