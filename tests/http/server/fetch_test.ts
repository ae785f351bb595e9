// Integration tests of the HTTP surface over a real server: `createFetch` behind
// `Deno.serve`, called with `fetch` over the loopback network. Every rule of
// DESIGN.md's "HTTP choices the spec leaves open" is exercised here, and the
// core status codes are checked against all three routers.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import {
  compiledCharRouter,
  createFetch,
  HttpError,
  radixRouter,
  toRouter,
} from "@ramify/api/http";
import { bookstoreTree } from "../../support/bookstore.ts";

const ROUTERS = [toRouter, radixRouter, compiledCharRouter] as const;

/** Asserts an RFC 9457 problem response with `status`, and returns its body. */
async function problemOf(response: Response, status: number): Promise<Record<string, unknown>> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  const body = await response.json();
  assert.equal(body.type, "about:blank");
  assert.equal(typeof body.title, "string");
  assert.equal(body.status, status);
  for (const key of Object.keys(body)) {
    assert.ok(["type", "title", "status", "detail", "issues"].includes(key), `unexpected ${key}`);
  }
  return body;
}

/** Asserts a 200 JSON response and returns its value. */
async function jsonOf(response: Response): Promise<unknown> {
  assert.equal(response.status, 200, `status ${response.status}`);
  assert.equal(response.headers.get("content-type"), "application/json");
  return await response.json();
}

function postJson(url: string, value: unknown, method = "POST"): Promise<Response> {
  return fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(value),
  });
}

/** The set of verbs in an `Allow` header. */
function allowOf(response: Response): Set<string> {
  return new Set((response.headers.get("allow") ?? "").split(",").map((v) => v.trim()));
}

/** A response's headers without the ones the server adds per message. */
function stableHeaders(response: Response): [string, string][] {
  return [...response.headers].filter(([name]) => name !== "date");
}

/** The bookstore, plus a schema-validated leaf and a leaf that crashes. */
function coreTree() {
  return api({
    ...bookstoreTree().children,
    probe: api({
      strict: op(({ title }) => ({ title }), {
        input: z.object({ title: z.string().min(1) }),
      }),
      crash: op((): unknown => {
        throw new Error("secret internal detail");
      }, http.get),
    }),
  });
}

for (const router of ROUTERS) {
  Deno.test(`${router.name}: the core status codes over a real server`, async () => {
    const errors: unknown[] = [];
    const handler = createFetch(coreTree(), { router, onError: (error) => errors.push(error) });
    await withServer(handler, async (base) => {
      // 200 and 204 across the bookstore's routes and verbs.
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/list`)), []);
      assert.deepEqual(await jsonOf(await postJson(`${base}/books/add`, { title: "Dune" })), {
        id: "1",
        title: "Dune",
      });
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/42`)), { id: "42" });
      assert.deepEqual(await jsonOf(await postJson(`${base}/books/42`, {}, "PUT")), { id: "42" });
      const removed = await fetch(`${base}/books/42`, { method: "DELETE" });
      assert.equal(removed.status, 204);
      assert.equal(await removed.text(), "");
      assert.deepEqual(
        await jsonOf(await fetch(`${base}/books/42/checkout/start`, { method: "POST" })),
        {
          started: true,
        },
      );
      assert.deepEqual(
        await jsonOf(await fetch(`${base}/books/42/checkout/reserve`, { method: "PUT" })),
        { reserved: true },
      );
      assert.deepEqual(await jsonOf(await fetch(`${base}/catalog/featured`)), []);
      assert.deepEqual(await jsonOf(await fetch(`${base}/catalog/search`)), []);

      // 404: no route, including a trailing slash and a bare branch.
      for (const path of ["/nowhere", "/books/list/", "/books", "/books/42/checkout", "/"]) {
        await problemOf(await fetch(base + path), 404);
      }

      // 405 with Allow.
      const wrong = await fetch(`${base}/books/list`, { method: "POST" });
      assert.deepEqual(allowOf(wrong), new Set(["GET", "HEAD", "OPTIONS"]));
      await problemOf(wrong, 405);
      const patch = await fetch(`${base}/books/42`, { method: "PATCH" });
      assert.deepEqual(allowOf(patch), new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
      await problemOf(patch, 405);

      // HEAD for a GET route: same status and headers, no body.
      const get = await fetch(`${base}/books/42`);
      await get.body?.cancel();
      const head = await fetch(`${base}/books/42`, { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.deepEqual(stableHeaders(head), stableHeaders(get));
      assert.equal(await head.text(), "");

      // OPTIONS: 204 with Allow.
      const options = await fetch(`${base}/books/42`, { method: "OPTIONS" });
      assert.equal(options.status, 204);
      assert.deepEqual(allowOf(options), new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
      assert.equal(await options.text(), "");

      // 400 malformed body, 415 unsupported type, 413 over the limit.
      const malformed = await fetch(`${base}/books/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"title": ',
      });
      await problemOf(malformed, 400);
      const plain = await fetch(`${base}/books/add`, { method: "POST", body: "title=Dune" });
      await problemOf(plain, 415);
      const big = await fetch(`${base}/books/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
      });
      await problemOf(big, 413);

      // 400 for bad percent-encoding in a capture; captures decode exactly once.
      await problemOf(await fetch(`${base}/books/%zz`), 400);
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/%2541`)), { id: "%41" });

      // 422 with issues.
      const invalid = await problemOf(await postJson(`${base}/probe/strict`, { title: "" }), 422);
      assert.ok(Array.isArray(invalid.issues));
      assert.deepEqual((invalid.issues as { path: unknown[] }[])[0].path, ["title"]);
      assert.deepEqual(await jsonOf(await postJson(`${base}/probe/strict`, { title: "ok" })), {
        title: "ok",
      });

      // 500 with nothing internal.
      const crash = await fetch(`${base}/probe/crash`);
      const body = await problemOf(crash, 500);
      assert.equal(body.detail, undefined);
      assert.equal(errors.length, 1);
      assert.equal((errors[0] as Error).message, "secret internal detail");
    });
  });
}

/** Leaves that show what their handler received. */
function inputTree() {
  const show = (input: Record<string, unknown>) => ({
    input,
    keys: Object.keys(input),
    prototypeIsObject: Object.getPrototypeOf(input) === Object.prototype,
  });
  return api({
    echo: op(show),
    look: op(show, http.get),
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          edit: op(show),
          show: op(show, http.get),
          typed: op((input) => input, {
            input: z.object({ id: z.string(), title: z.string() }),
          }),
          partial: op((input) => ({ input, keys: Object.keys(input) }), {
            input: z.object({ title: z.string() }),
          }),
        }),
      },
    }),
  });
}

Deno.test("input precedence: path capture over JSON body over query", async () => {
  await withServer(createFetch(inputTree()), async (base) => {
    const result = await jsonOf(
      await postJson(`${base}/items/7/edit?id=query&x=query&y=query`, {
        id: "body",
        x: "body",
        z: "body",
      }),
    );
    assert.deepEqual(result, {
      input: { id: "7", x: "body", y: "query", z: "body" },
      keys: ["id", "x", "y", "z"],
      prototypeIsObject: true,
    });
  });
});

Deno.test("a capture can never be overridden by the client, with or without a schema", async () => {
  await withServer(createFetch(inputTree()), async (base) => {
    assert.deepEqual(
      await jsonOf(await postJson(`${base}/items/7/typed?id=query`, { id: "body", title: "t" })),
      { id: "7", title: "t" },
    );
    // A schema that does not name the capture would strip it: the handler still gets it.
    assert.deepEqual(
      await jsonOf(await postJson(`${base}/items/7/partial`, { id: "body", title: "t" })),
      { input: { title: "t", id: "7" }, keys: ["title", "id"] },
    );
  });
});

Deno.test("query values are strings, and repeated keys give arrays", async () => {
  await withServer(createFetch(inputTree()), async (base) => {
    const { input } = await jsonOf(
      await fetch(`${base}/look?n=1&flag=true&t=a&t=b&t=c&empty&space=a+b&enc=%C3%A9%26`),
    ) as { input: Record<string, unknown> };
    assert.deepEqual(input, {
      n: "1",
      flag: "true",
      t: ["a", "b", "c"],
      empty: "",
      space: "a b",
      enc: "é&",
    });
  });
});

Deno.test("captures are percent-decoded exactly once", async () => {
  await withServer(createFetch(inputTree()), async (base) => {
    const cases: [string, string][] = [
      ["%2541", "%41"],
      ["a%2Fb", "a/b"],
      ["%E2%9C%93", "✓"],
      ["a+b", "a+b"],
      ["a%20b", "a b"],
      ["%25", "%"],
    ];
    for (const [raw, decoded] of cases) {
      const { input } = await jsonOf(await fetch(`${base}/items/${raw}/show`)) as {
        input: { id: string };
      };
      assert.equal(input.id, decoded, raw);
    }
  });
});

/** Leaves with typed inputs, for query and form coercion. */
function typedTree() {
  const search = z.object({
    page: z.number(),
    size: z.int().optional(),
    exact: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
    ids: z.array(z.int()).optional(),
    filter: z.object({ a: z.number(), b: z.array(z.string()) }).optional(),
    maybe: z.number().nullable().optional(),
    q: z.string().optional(),
  });
  return api({
    search: op((input) => input, http.get, { input: search }),
    count: op((input) => input, { input: z.object({ count: z.int(), on: z.boolean() }) }),
  });
}

Deno.test("with an input schema, query strings are coerced to the schema's types", async () => {
  await withServer(createFetch(typedTree()), async (base) => {
    const filter = encodeURIComponent(JSON.stringify({ a: 1.5, b: ["x"] }));
    const url = `${base}/search?page=2&size=10&exact=true&tags=a&ids=1&ids=2` +
      `&filter=${filter}&maybe=-3e2&q=42`;
    assert.deepEqual(await jsonOf(await fetch(url)), {
      page: 2,
      size: 10,
      exact: true,
      tags: ["a"],
      ids: [1, 2],
      filter: { a: 1.5, b: ["x"] },
      maybe: -300,
      q: "42",
    });
    assert.deepEqual(await jsonOf(await fetch(`${base}/search?page=.5&exact=false`)), {
      page: 0.5,
      exact: false,
    });
  });
});

Deno.test("a query string that does not read as the schema's type is a 422", async () => {
  await withServer(createFetch(typedTree()), async (base) => {
    const cases: [string, string][] = [
      ["page=abc", "page"],
      ["page=1&size=1.5", "size"],
      ["page=1&exact=yes", "exact"],
      ["page=1&ids=1&ids=x", "ids"],
      ["page=1&filter=%7Bnot%20json", "filter"],
      ["page=Infinity", "page"],
      ["", "page"],
    ];
    for (const [query, key] of cases) {
      const body = await problemOf(await fetch(`${base}/search?${query}`), 422);
      const issues = body.issues as { message: string; path: (string | number)[] }[];
      assert.ok(
        issues.some((issue) => issue.path[0] === key),
        `${query}: ${JSON.stringify(issues)}`,
      );
      for (const issue of issues) assert.equal(typeof issue.message, "string");
    }
  });
});

Deno.test("form fields are coerced like the query; JSON bodies keep their own types", async () => {
  await withServer(createFetch(typedTree()), async (base) => {
    const form = await fetch(`${base}/count`, {
      method: "POST",
      body: new URLSearchParams({ count: "3", on: "true" }),
    });
    assert.deepEqual(await jsonOf(form), { count: 3, on: true });
    const multipart = new FormData();
    multipart.append("count", "-4");
    multipart.append("on", "false");
    assert.deepEqual(
      await jsonOf(await fetch(`${base}/count`, { method: "POST", body: multipart })),
      { count: -4, on: false },
    );
    await problemOf(await postJson(`${base}/count`, { count: "3", on: "true" }), 422);
    assert.deepEqual(await jsonOf(await postJson(`${base}/count`, { count: 3, on: true })), {
      count: 3,
      on: true,
    });
  });
});

Deno.test("bodies: JSON, urlencoded and multipart", async () => {
  const tree = api({
    take: op((input: Record<string, unknown>) => {
      const summary: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) {
        summary[key] = value instanceof File
          ? { file: value.name, size: value.size, type: value.type }
          : value;
      }
      return summary;
    }),
  });
  await withServer(createFetch(tree), async (base) => {
    assert.deepEqual(await jsonOf(await postJson(`${base}/take`, { n: 1, list: [true, null] })), {
      n: 1,
      list: [true, null],
    });
    const vendored = await fetch(`${base}/take`, {
      method: "POST",
      headers: { "content-type": "application/vnd.example+json; charset=utf-8" },
      body: '{"ok":true}',
    });
    assert.deepEqual(await jsonOf(vendored), { ok: true });
    const urlencoded = new URLSearchParams([["a", "1"], ["b", "x y"], ["b", "z"]]);
    assert.deepEqual(
      await jsonOf(await fetch(`${base}/take`, { method: "POST", body: urlencoded })),
      { a: "1", b: ["x y", "z"] },
    );
    const form = new FormData();
    form.append("title", "Dune");
    form.append("tag", "a");
    form.append("tag", "b");
    form.append("cover", new File(["abc"], "cover.txt", { type: "text/plain" }));
    assert.deepEqual(await jsonOf(await fetch(`${base}/take`, { method: "POST", body: form })), {
      title: "Dune",
      tag: ["a", "b"],
      cover: { file: "cover.txt", size: 3, type: "text/plain" },
    });
    // No body at all is an empty input.
    assert.deepEqual(await jsonOf(await fetch(`${base}/take`, { method: "POST" })), {});
    const empty = await fetch(`${base}/take`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "",
    });
    assert.deepEqual(await jsonOf(empty), {});
  });
});

Deno.test("the input object has own data properties only", async () => {
  await withServer(createFetch(inputTree()), async (base) => {
    const body = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const response = await fetch(`${base}/items/1/edit?__proto__=q&toString=q`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const text = await response.text();
    assert.equal(response.status, 200);
    const result = JSON.parse(text);
    assert.deepEqual(result.keys, ["__proto__", "toString", "constructor", "id"]);
    assert.equal(result.prototypeIsObject, true);
    assert.ok(Object.hasOwn(result.input, "__proto__"));
    assert.deepEqual(result.input.__proto__, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

/** Leaves for every success encoding and for chosen errors. */
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
    assert.equal(await ticks.text(), 'data: 1\n\ndata: {"n":2}\n\ndata: "three\\nlines"\n\n');
    const iterable = await fetch(`${base}/iterable`);
    assert.equal(iterable.headers.get("content-type"), "text/event-stream");
    assert.equal(await iterable.text(), 'data: "a"\n\ndata: "b"\n\n');
    const single = await fetch(`${base}/single`);
    assert.equal(single.headers.get("content-type"), "text/event-stream");
    assert.equal(await single.text(), 'data: {"only":true}\n\n');
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
    assert.match(new TextDecoder().decode(value), /^data: \{"tick":0\}\n\n/);
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
    onError: (error, request) => seen.push([error, new URL(request.url).pathname]),
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

Deno.test("GET /openapi.json is built once and cached; openapi: false turns it off", async () => {
  await withServer(createFetch(bookstoreTree()), async (base) => {
    const first = await fetch(`${base}/openapi.json`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-type"), "application/json");
    const text = await first.text();
    const second = await (await fetch(`${base}/openapi.json`)).text();
    assert.equal(second, text);
    const doc = JSON.parse(text);
    assert.match(doc.openapi, /^3\.1\./);
    assert.deepEqual(Object.keys(doc.paths["/books/{bookId}"]).sort(), ["delete", "get", "put"]);
    assert.ok(doc.paths["/books/list"].get !== undefined);
    await problemOf(await fetch(`${base}/openapi.json`, { method: "POST" }), 404);
  });
  await withServer(createFetch(bookstoreTree(), { openapi: false }), async (base) => {
    await problemOf(await fetch(`${base}/openapi.json`), 404);
  });
});

Deno.test("basePath: routes only under it, the document at <base>/openapi.json", async () => {
  for (const basePath of ["/api", "/api/"]) {
    await withServer(createFetch(bookstoreTree(), { basePath }), async (base) => {
      assert.deepEqual(await jsonOf(await fetch(`${base}/api/books/list`)), []);
      assert.deepEqual(await jsonOf(await fetch(`${base}/api/books/7`)), { id: "7" });
      const doc = await jsonOf(await fetch(`${base}/api/openapi.json`)) as {
        paths: Record<string, unknown>;
        servers?: { url: string }[];
      };
      assert.ok("/books/list" in doc.paths);
      assert.deepEqual(doc.servers, [{ url: "/api" }]);
      for (const path of ["/books/list", "/openapi.json", "/apix/books/list", "/api", "/ap"]) {
        await problemOf(await fetch(base + path), 404);
      }
    });
  }
});

Deno.test("CORS true: any origin as *, without Vary", async () => {
  await withServer(createFetch(bookstoreTree(), { cors: true }), async (base) => {
    const origin = { origin: "https://anywhere.example" };
    const response = await fetch(`${base}/books/list`, { headers: origin });
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.equal(response.headers.get("vary"), null);
    assert.equal(response.headers.get("access-control-allow-credentials"), null);
    await response.body?.cancel();
    // Errors carry the CORS headers too, or a browser could not read them.
    const missing = await fetch(`${base}/nowhere`, { headers: origin });
    assert.equal(missing.headers.get("access-control-allow-origin"), "*");
    await problemOf(missing, 404);
    const preflight = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: { ...origin, "access-control-request-method": "PUT" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    const methods = preflight.headers.get("access-control-allow-methods") ?? "";
    assert.ok(methods.split(", ").includes("PUT"), methods);
    await preflight.body?.cancel();
  });
});

Deno.test("CORS with credentials: reflects an allowed origin, never *", async () => {
  const allowed = "https://app.example";
  const tree = api({
    ...bookstoreTree().children,
    away: op(() => Response.redirect("http://127.0.0.1/elsewhere", 302), http.get),
  });
  const handler = createFetch(tree, { cors: { origin: [allowed], credentials: true } });
  await withServer(handler, async (base) => {
    const ok = await fetch(`${base}/books/list`, { headers: { origin: allowed } });
    assert.equal(ok.headers.get("access-control-allow-origin"), allowed);
    assert.equal(ok.headers.get("access-control-allow-credentials"), "true");
    assert.match(ok.headers.get("vary") ?? "", /\bOrigin\b/);
    await ok.body?.cancel();

    const other = await fetch(`${base}/books/list`, {
      headers: { origin: "https://evil.example" },
    });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    assert.equal(other.headers.get("access-control-allow-credentials"), null);
    assert.match(other.headers.get("vary") ?? "", /\bOrigin\b/);
    await other.body?.cancel();

    const preflight = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: {
        origin: allowed,
        "access-control-request-method": "DELETE",
        "access-control-request-headers": "content-type, x-token",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), allowed);
    assert.equal(preflight.headers.get("access-control-allow-credentials"), "true");
    assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type, x-token");
    const methods = new Set(
      (preflight.headers.get("access-control-allow-methods") ?? "").split(", "),
    );
    assert.deepEqual(methods, new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
    assert.deepEqual(allowOf(preflight), methods);
    await preflight.body?.cancel();

    const refused = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "DELETE" },
    });
    assert.equal(refused.status, 204);
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    assert.equal(refused.headers.get("access-control-allow-methods"), null);
    await refused.body?.cancel();

    // A passed-through Response with immutable headers still gets the CORS headers.
    const away = await fetch(`${base}/away`, { headers: { origin: allowed }, redirect: "manual" });
    assert.equal(away.status, 302);
    assert.equal(away.headers.get("location"), "http://127.0.0.1/elsewhere");
    assert.equal(away.headers.get("access-control-allow-origin"), allowed);
    assert.equal(away.headers.get("access-control-allow-credentials"), "true");
    await away.body?.cancel();
  });
});

Deno.test('CORS origin "*" with credentials throws at construction', () => {
  assert.throws(
    () => createFetch(bookstoreTree(), { cors: { origin: "*", credentials: true } }),
    TypeError,
  );
  assert.throws(
    () => createFetch(bookstoreTree(), { cors: { credentials: true } }),
    TypeError,
  );
});

Deno.test("a configurable body limit: at the limit passes, one byte over is 413", async () => {
  const tree = api({ take: op((input: Record<string, unknown>) => Object.keys(input)) });
  await withServer(createFetch(tree, { maxBodyBytes: 64 }), async (base) => {
    const exact = JSON.stringify({ p: "x".repeat(56) });
    assert.equal(exact.length, 64);
    assert.deepEqual(
      await jsonOf(
        await fetch(`${base}/take`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: exact,
        }),
      ),
      ["p"],
    );
    const over = JSON.stringify({ p: "x".repeat(57) });
    await problemOf(
      await fetch(`${base}/take`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: over,
      }),
      413,
    );
    // Streamed (chunked, no Content-Length) over the limit.
    const chunks = [new TextEncoder().encode('{"p":"'), new TextEncoder().encode("x".repeat(80))];
    const streamed = await fetch(`${base}/take`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: ReadableStream.from(chunks),
    });
    await problemOf(streamed, 413);
  });
});

Deno.test("CORS keeps the Vary of a passed-through response, even with immutable headers", async () => {
  const allowed = "https://app.example";
  let upstream = "";
  const tree = api({
    origin: op(() => new Response("up", { headers: { vary: "Accept-Encoding" } }), http.get),
    // A proxied fetch() response: its headers are immutable.
    proxy: op(() => fetch(upstream), http.get),
  });
  const handler = createFetch(tree, { cors: { origin: [allowed] } });
  await withServer(handler, async (base) => {
    upstream = `${base}/origin`;
    for (const path of ["/origin", "/proxy"]) {
      const response = await fetch(base + path, { headers: { origin: allowed } });
      assert.equal(await response.text(), "up", path);
      assert.equal(response.headers.get("access-control-allow-origin"), allowed, path);
      const vary = (response.headers.get("vary") ?? "").split(",").map((v) => v.trim());
      assert.ok(vary.includes("Accept-Encoding"), `${path}: ${vary}`);
      assert.ok(vary.includes("Origin"), `${path}: ${vary}`);
    }
  });
});
