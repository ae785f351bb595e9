// createFetch over a real Deno.serve: the one flat input (precedence, captures,
// query coercion, bodies, own properties only), per DESIGN.md's HTTP choices.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { asSent, jsonOf, postJson, problemOf } from "./fetch_support.ts";

function inputTree() {
  const show = (input: Record<string, unknown>) => ({
    input,
    keys: Object.keys(input),
    prototypeIsObject: Object.getPrototypeOf(input) === Object.prototype,
  });
  return api({
    echo: op(show, { input: asSent }),
    look: op(show, http.get, { input: asSent }),
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          edit: op(show, { input: asSent }),
          show: op(show, http.get, { input: asSent }),
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

Deno.test("a leaf without an input schema takes captures, body and query merged (SPEC.md)", async () => {
  const seen: unknown[] = [];
  const tree = api({
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          touch: op((input: Record<string, unknown>) => {
            seen.push(input);
            return { input, keys: Object.keys(input) };
          }),
        }),
      },
    }),
    ping: op((input: Record<string, unknown>) => Object.keys(input)),
    look: op((input: Record<string, unknown>) => input, { tags: { readOnly: true } }),
  });
  await withServer(createFetch(tree, { maxBodyBytes: 1024 }), async (base) => {
    // Capture over body over query; own keys only.
    const merged = await jsonOf(
      await fetch(`${base}/items/7/touch?id=query&x=query&q=1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"id":"body","x":"body","y":1,"__proto__":{"polluted":true}}',
      }),
    ) as { input: Record<string, unknown> };
    assert.deepEqual(merged.input, {
      id: "7",
      x: "body",
      q: "1",
      y: 1,
      ["__proto__"]: { polluted: true },
    });
    assert.equal(Object.getPrototypeOf(seen[0]), Object.prototype);
    assert.equal((seen[0] as { polluted?: unknown }).polluted, undefined);
    // A GET reads its query as strings.
    assert.deepEqual(await jsonOf(await fetch(`${base}/look?a=1&a=2&b=x`)), {
      a: ["1", "2"],
      b: "x",
    });
    // The body is read under every limit: malformed, too large, too deep, the wrong type.
    const malformed = await fetch(`${base}/ping`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(malformed.status, 400);
    await malformed.body?.cancel();
    const large = await fetch(`${base}/ping`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: "x".repeat(2048) }),
    });
    assert.equal(large.status, 413);
    await large.body?.cancel();
    const deep = await fetch(`${base}/ping`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":'.repeat(100) + "1" + "}".repeat(100),
    });
    assert.equal(deep.status, 400);
    assert.match((await deep.json()).detail, /nests deeper than 64 levels/);
    const typeless = await fetch(`${base}/ping`, { method: "POST", body: "plain text" });
    assert.equal(typeless.status, 415);
    await typeless.body?.cancel();
    const badQuery = await fetch(`${base}/ping?%zz`, { method: "POST" });
    assert.equal(badQuery.status, 400);
    await badQuery.body?.cancel();
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
    }, { input: asSent }),
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
