// createFetch over a real Deno.serve: responses (200, 204, passthrough, SSE, HEAD,
// OPTIONS), HttpError, crashes, exact path matching.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import { bookstoreTree } from "../../support/bookstore.ts";
import { allowOf, jsonOf, problemOf, stableHeaders } from "./fetch_support.ts";

function responseTree(finished: PromiseWithResolvers<void>) {
  return api({
    value: op(() => ({ n: 1, s: "é" }), http.get),
    nothing: op(() => undefined),
    asyncNothing: op(async () => {}),
    zero: op(() => 0, http.get),
    nil: op(() => null, http.get),
    raw: op(() =>
      new Response("made by hand", {
        status: 201,
        headers: { "content-type": "text/plain", "x-custom": "yes" },
      }), http.get),
    ticks: op(async function* () {
      yield 1;
      yield { n: 2 };
      yield "three\nlines";
    }, { tags: { readOnly: true, streaming: true } }),
    iterable: op(() => ({
      async *[Symbol.asyncIterator]() {
        yield "a";
        yield "b";
      },
    }), http.get),
    single: op(() => ({ only: true }), { tags: { readOnly: true, streaming: true } }),
    forever: op(async function* () {
      try {
        for (let i = 0;; i++) {
          yield { tick: i };
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        finished.resolve();
      }
    }, { tags: { readOnly: true, streaming: true } }),
    teapot: op((): unknown => {
      throw new HttpError(429, "Slow down", { headers: { "retry-after": "7" } });
    }),
    unavailable: op((): unknown => {
      throw new HttpError(503, "Back soon");
    }, http.get),
  });
}

Deno.test("success: a value is 200 JSON, undefined is 204, a Response passes through", async () => {
  const finished = Promise.withResolvers<void>();
  await withServer(createFetch(responseTree(finished)), async (base) => {
    assert.deepEqual(await jsonOf(await fetch(`${base}/value`)), { n: 1, s: "é" });
    assert.equal(await jsonOf(await fetch(`${base}/zero`)), 0);
    assert.equal(await jsonOf(await fetch(`${base}/nil`)), null);
    for (const path of ["/nothing", "/asyncNothing"]) {
      const response = await fetch(base + path, { method: "POST" });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get("content-type"), null);
      assert.equal(await response.text(), "");
    }
    const raw = await fetch(`${base}/raw`);
    assert.equal(raw.status, 201);
    assert.equal(raw.headers.get("content-type"), "text/plain");
    assert.equal(raw.headers.get("x-custom"), "yes");
    assert.equal(await raw.text(), "made by hand");
  });
});

Deno.test("a streaming leaf or an async-iterable result is Server-Sent Events", async () => {
  const finished = Promise.withResolvers<void>();
  await withServer(createFetch(responseTree(finished)), async (base) => {
    const ticks = await fetch(`${base}/ticks`);
    assert.equal(ticks.status, 200);
    assert.equal(ticks.headers.get("content-type"), "text/event-stream");
    assert.equal(ticks.headers.get("cache-control"), "no-cache");
    assert.equal(
      await ticks.text(),
      'id: 1\ndata: 1\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: "three\\nlines"\n\n',
    );
    const iterable = await fetch(`${base}/iterable`);
    assert.equal(iterable.headers.get("content-type"), "text/event-stream");
    assert.equal(await iterable.text(), 'id: 1\ndata: "a"\n\nid: 2\ndata: "b"\n\n');
    const single = await fetch(`${base}/single`);
    assert.equal(single.headers.get("content-type"), "text/event-stream");
    assert.equal(await single.text(), 'id: 1\ndata: {"only":true}\n\n');
  });
});

Deno.test("cancelling an event stream runs the generator's finally", async () => {
  const finished = Promise.withResolvers<void>();
  const errors: unknown[] = [];
  const handler = createFetch(responseTree(finished), { onError: (error) => errors.push(error) });
  await withServer(handler, async (base) => {
    const response = await fetch(`${base}/forever`);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^id: 1\ndata: \{"tick":0\}\n\n/);
    await reader.cancel();
    await finished.promise;
    assert.deepEqual(errors, []);
  });
});

Deno.test("HEAD of a streaming GET sends no body and closes the generator", async () => {
  const finished = Promise.withResolvers<void>();
  const errors: unknown[] = [];
  const handler = createFetch(responseTree(finished), { onError: (error) => errors.push(error) });
  await withServer(handler, async (base) => {
    const head = await fetch(`${base}/forever`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "text/event-stream");
    assert.equal(await head.text(), "");
    await finished.promise;
    assert.deepEqual(errors, []);
  });
});

Deno.test("HEAD is served for every GET route with the GET's headers", async () => {
  const finished = Promise.withResolvers<void>();
  await withServer(createFetch(responseTree(finished)), async (base) => {
    for (const path of ["/value", "/zero", "/unavailable"]) {
      const get = await fetch(base + path);
      await get.body?.cancel();
      const head = await fetch(base + path, { method: "HEAD" });
      assert.equal(head.status, get.status, path);
      assert.deepEqual(stableHeaders(head), stableHeaders(get), path);
      assert.equal(await head.text(), "", path);
    }
    // A passed-through Response keeps its own headers; its length is unknown
    // without reading its body, so only a Content-Length it set itself survives.
    const get = await fetch(`${base}/raw`);
    await get.body?.cancel();
    const raw = await fetch(`${base}/raw`, { method: "HEAD" });
    assert.equal(raw.status, 201);
    const withoutLength = (response: Response) =>
      stableHeaders(response).filter(([name]) => name !== "content-length");
    assert.deepEqual(withoutLength(raw), withoutLength(get));
    assert.equal(await raw.text(), "");
    // Not for a route without GET.
    const head = await fetch(`${base}/teapot`, { method: "HEAD" });
    assert.equal(head.status, 405);
    assert.deepEqual(allowOf(head), new Set(["POST", "OPTIONS"]));
    await head.body?.cancel();
  });
});

Deno.test("HttpError lets a handler choose its status, detail and headers", async () => {
  const finished = Promise.withResolvers<void>();
  const errors: unknown[] = [];
  const handler = createFetch(responseTree(finished), { onError: (error) => errors.push(error) });
  await withServer(handler, async (base) => {
    const teapot = await fetch(`${base}/teapot`, { method: "POST" });
    assert.equal(teapot.headers.get("retry-after"), "7");
    assert.deepEqual(await problemOf(teapot, 429), {
      type: "about:blank",
      title: "Too Many Requests",
      status: 429,
      detail: "Slow down",
    });
    const unavailable = await problemOf(await fetch(`${base}/unavailable`), 503);
    assert.equal(unavailable.detail, "Back soon");
    // A chosen status is not a crash.
    assert.deepEqual(errors, []);
  });
});

Deno.test("a crash is a bare 500 and onError sees the error and the request", async () => {
  const seen: [unknown, string][] = [];
  const failure = new Error("database password is hunter2");
  const tree = api({ boom: op(() => Promise.reject(failure), http.get) });
  const handler = createFetch(tree, {
    onError: (error, request) => seen.push([error, new URL(request!.url).pathname]),
  });
  await withServer(handler, async (base) => {
    const response = await fetch(`${base}/boom`);
    const text = await response.text();
    assert.equal(response.status, 500);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(JSON.parse(text), {
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
    });
    assert.ok(!text.includes("hunter2"));
    assert.equal(seen.length, 1);
    assert.equal(seen[0][0], failure);
    assert.equal(seen[0][1], "/boom");
  });
});

Deno.test("OPTIONS answers 204 with Allow at every route position", async () => {
  await withServer(createFetch(bookstoreTree()), async (base) => {
    const cases: [string, string[]][] = [
      ["/books/list", ["GET", "HEAD", "OPTIONS"]],
      ["/books/add", ["POST", "OPTIONS"]],
      ["/books/9/checkout/reserve", ["PUT", "OPTIONS"]],
    ];
    for (const [path, verbs] of cases) {
      const response = await fetch(base + path, { method: "OPTIONS" });
      assert.equal(response.status, 204, path);
      assert.deepEqual(allowOf(response), new Set(verbs), path);
      await response.body?.cancel();
    }
    await problemOf(await fetch(`${base}/nowhere`, { method: "OPTIONS" }), 404);
  });
});

Deno.test("paths match exactly: no trailing slash, no empty segment", async () => {
  await withServer(createFetch(bookstoreTree()), async (base) => {
    for (const path of ["/books/list/", "/books/42/", "//books/list", "/books//list", "/books/"]) {
      await problemOf(await fetch(base + path), 404);
    }
    assert.deepEqual(await jsonOf(await fetch(`${base}/books/list`)), []);
  });
});
