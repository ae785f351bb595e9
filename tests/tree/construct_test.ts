import assert from "node:assert/strict";
import { api, type InputOf, op, type OutputOf } from "@ramify/api/tree";
import { isBranch, isLeaf, isNode } from "@ramify/api/tree/node";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";
import { assertType, type Equal } from "../support/types.ts";

Deno.test("op: a bare function gives a leaf with empty meta", () => {
  const fn = () => 1;
  const leaf = op(fn);
  assert.equal(leaf.handler, fn);
  assert.deepEqual(leaf.meta, {});
  assert.ok(isNode(leaf) && isLeaf(leaf) && !isBranch(leaf));
  assert.ok(Object.isFrozen(leaf) && Object.isFrozen(leaf.meta));
});

Deno.test("op: merges contributions left to right", () => {
  const leaf = op(() => 1, http.put, { tags: { destructive: false }, description: "x" });
  assert.deepEqual(leaf.meta.tags, { idempotent: true, destructive: false });
  assert.equal(leaf.meta.description, "x");
  assert.deepEqual(leaf.meta.http?.directives, [
    { kind: "verb", value: "PUT" },
    { kind: "method", value: "PUT" },
  ]);
});

Deno.test("op: a move keeps the bundle's verb; a later verb replaces an earlier one", () => {
  const moved = op(() => 1, http.patch, http.moveTo(".."));
  assert.deepEqual(moved.meta.http?.directives, [
    { kind: "verb", value: "PATCH" },
    { kind: "method", value: "PATCH" },
    { kind: "moveTo", value: ".." },
  ]);
  const movedFirst = op(() => 1, http.moveTo("../x"), http.delete);
  assert.deepEqual(movedFirst.meta.http?.directives, [
    { kind: "moveTo", value: "../x" },
    { kind: "verb", value: "DELETE" },
    { kind: "method", value: "DELETE" },
  ]);
  const replaced = op(() => 1, http.get, http.post);
  assert.deepEqual(replaced.meta.http?.directives, [
    { kind: "verb", value: "POST" },
    { kind: "method", value: "POST" },
  ]);
  assert.deepEqual(replaced.meta.tags, { readOnly: true }, "tags still merge as mergeMeta does");
});

Deno.test("op: does not freeze or change the caller's objects", () => {
  const tags = { openWorld: true };
  const leaf = op(() => 1, { tags });
  assert.ok(!Object.isFrozen(tags));
  tags.openWorld = false;
  assert.equal(leaf.meta.tags?.openWorld, true);
});

Deno.test("op: rejects a handler that is not a function", () => {
  for (const bad of [undefined, null, 42, "fn", {}, []]) {
    assert.throws(
      () => op(bad as unknown as () => void),
      (error: unknown) =>
        error instanceof TypeError && /^op\(\): the handler must be a function/.test(error.message),
    );
  }
});

Deno.test("op: rejects a contribution that is not a meta object, naming the handler", () => {
  function listBooks() {
    return [];
  }
  assert.throws(
    () => op(listBooks, http.get, [] as never),
    /op\(listBooks\): contribution 2 must be a meta object or a verb bundle, got an array/,
  );
  assert.throws(() => op(() => 1, "GET" as never), /contribution 1/);
});

Deno.test("op: rejects contradicting tags", () => {
  assert.throws(
    () => op(function wipe() {}, http.get, { tags: { destructive: true } }),
    /op\(wipe\): contradicting tags: readOnly and destructive exclude each other/,
  );
  assert.throws(
    () => op(() => 1, { tags: { readOnly: true, idempotent: false } }),
    /readOnly implies idempotent/,
  );
});

Deno.test("op: rejects input or output that is not a Standard Schema", () => {
  assert.throws(
    () => op(() => 1, { input: { type: "object" } as never }),
    /meta\.input must be a Standard Schema/,
  );
  assert.throws(() => op(() => 1, { output: "string" as never }), /meta\.output must be/);
  assert.doesNotThrow(() => op(() => 1, { input: z.object({}), output: z.number() }));
});

Deno.test("api: builds a branch with children, meta and fallback", () => {
  const read = op(() => 1);
  const tree = api({ list: op(() => []) }, {
    meta: { description: "books" },
    fallback: { name: "bookId", subtree: api({ read }) },
  });
  assert.ok(isBranch(tree) && !isLeaf(tree) && isNode(tree));
  assert.deepEqual(Object.keys(tree.children), ["list"]);
  assert.equal(tree.meta?.description, "books");
  assert.equal(tree.fallback?.name, "bookId");
  assert.equal(tree.fallback?.subtree.children.read, read);
  assert.ok(Object.isFrozen(tree) && Object.isFrozen(tree.children));
});

Deno.test("api: a node may carry a handler and children", () => {
  const both = { handler: () => 1, children: { sub: op(() => 2) } };
  assert.ok(isNode(both) && isLeaf(both) && isBranch(both));
  assert.doesNotThrow(() => api({ both }));
});

Deno.test("api: rejects children that are not an object", () => {
  for (const bad of [null, [], "x", 1]) {
    assert.throws(() => api(bad as never), /api\(\): children must be an object/);
  }
});

Deno.test("api: rejects a child that is not a node, naming it", () => {
  assert.throws(
    () => api({ list: 42 as never }),
    /api\(\): child "list" is not a node \(got a number\)/,
  );
  assert.throws(() => api({ list: (() => []) as never }), /child "list" is not a node/);
  assert.throws(() => api({ list: { title: "x" } as never }), /child "list" is not a node/);
  assert.throws(
    () => api({ list: { handler: "x" } as never }),
    /child "list" is not a node/,
  );
});

Deno.test("api: rejects child names that cannot be a segment", () => {
  for (const bad of ["", "a/b", "{id}", "a b", "..", "?q", "a#"]) {
    assert.throws(() => api({ [bad]: op(() => 1) }), /api\(\): child ".*": a name must/, bad);
  }
});

Deno.test("api: rejects a fallback without a name or subtree", () => {
  const subtree = op(() => 1);
  assert.throws(
    () => api({}, { fallback: { subtree } as never }),
    /api\(\): fallback needs a non-empty string name/,
  );
  assert.throws(
    () => api({}, { fallback: { name: "", subtree } }),
    /fallback needs a non-empty string name/,
  );
  assert.throws(
    () => api({}, { fallback: { name: "id" } as never }),
    /api\(\): fallback "id" needs a subtree node, got undefined/,
  );
  assert.throws(
    () => api({}, { fallback: { name: "id", subtree: 3 as never } }),
    /fallback "id" needs a subtree node, got a number/,
  );
  assert.throws(() => api({}, { fallback: "id" as never }), /fallback must be an object/);
  assert.throws(
    () => api({}, { fallback: { name: "a/b", subtree } }),
    /fallback "a\/b": a name must/,
  );
});

Deno.test("api: rejects a fallback name that collides with a static child", () => {
  assert.throws(
    () => api({ id: op(() => 1) }, { fallback: { name: "id", subtree: op(() => 2) } }),
    /api\(\): fallback name "id" collides with the static child "id"/,
  );
});

Deno.test("api: rejects contradicting tags on a branch and bad options", () => {
  assert.throws(
    () => api({}, { meta: { tags: { readOnly: true, destructive: true } } }),
    /api\(\): contradicting tags: readOnly and destructive/,
  );
  assert.throws(() => api({}, [] as never), /api\(\): options must be an object/);
  assert.throws(() => api({}, { meta: 1 as never }), /api\(\): meta must be an object/);
});

Deno.test("api: own keys only; a __proto__ child name stays a child", () => {
  const children = JSON.parse('{"__proto__": {"handler": null}}');
  assert.throws(() => api(children), /child "__proto__" is not a node/);
  const safe = Object.defineProperty({}, "__proto__", {
    value: op(() => 1),
    enumerable: true,
  }) as Record<string, ReturnType<typeof op>>;
  const tree = api(safe);
  assert.ok(Object.hasOwn(tree.children, "__proto__"));
  assert.equal(Object.getPrototypeOf(tree.children), Object.prototype);
});

Deno.test("construction: an input schema that is not an object is an error naming the leaf", () => {
  assert.throws(
    () =>
      api({
        search: op(({ q }) => q, { input: z.object({ q: z.string() }) }),
        tag: op((value) => value, { input: z.string() }),
      }),
    (error: Error) =>
      error instanceof TypeError &&
      error.message.startsWith('api(): child "tag": meta.input must describe an object') &&
      error.message.includes('"string"'),
  );
  assert.throws(
    () =>
      op(function addTags(tags) {
        return tags;
      }, { input: z.array(z.string()) }),
    /^TypeError: op\(addTags\): meta\.input must describe an object/,
  );
  assert.throws(
    () =>
      api({}, {
        fallback: { name: "id", subtree: op(() => 1, { input: z.number() }) },
      }),
    /api\(\): fallback "id" subtree: meta\.input must describe an object/,
  );
  assert.throws(
    () =>
      api({
        pick: op(() => 1, { input: z.union([z.object({ a: z.string() }), z.string()]) }),
      }),
    /child "pick": meta\.input must describe an object or a union of objects/,
  );
});

Deno.test("construction: objects, unions of objects and open schemas are accepted as input", () => {
  const Node: z.ZodType<{ children: unknown[] }> = z.lazy(() =>
    z.object({ children: z.array(Node) })
  );
  const ok = api({
    plain: op(({ a }) => a, { input: z.object({ a: z.string() }) }),
    union: op((input) => input, {
      input: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
    }),
    tagged: op((input) => input, {
      input: z.discriminatedUnion("k", [
        z.object({ k: z.literal("a") }),
        z.object({ k: z.literal("b") }),
      ]),
    }),
    nullable: op((input) => input, { input: z.object({ a: z.string() }).nullable() }),
    both: op((input) => input, {
      input: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
    }),
    record: op((input) => input, { input: z.record(z.string(), z.number()) }),
    open: op((input) => input, { input: z.unknown() }),
    recursive: op((input) => input, { input: Node }),
    // A date is a date-time string on the wire: this is an object still.
    dated: op((input) => input, { input: z.object({ at: z.date() }) }),
  });
  assert.equal(Object.keys(ok.children).length, 9);
});

Deno.test("op: a schema passed where meta goes says how to pass it", () => {
  const schema = z.object({ title: z.string() });
  assert.throws(
    () => op(function add() {}, schema as never),
    (error: Error) =>
      error instanceof TypeError &&
      error.message ===
        "op(add): contribution 1 is a schema, not meta; pass it as { input: schema } (or { output: schema })",
  );
});

Deno.test("types: a leaf in api() is typed by its arguments, not by its place", () => {
  // Inferred from the place, a leaf's input would be `never` (api()'s `Node`).
  const tree = api({
    ping: op(() => "pong"),
    read: op(({ id }: { id: string }) => id, http.get),
    add: op(({ n }) => n + 1, { input: z.object({ n: z.number() }), output: z.number() }),
  });
  assertType<Equal<InputOf<typeof tree.children.ping>, Record<string, unknown>>>(true);
  assertType<Equal<InputOf<typeof tree.children.read>, { id: string }>>(true);
  assertType<Equal<InputOf<typeof tree.children.add>, { n: number }>>(true);
  assertType<Equal<OutputOf<typeof tree.children.add>, number>>(true);
  assertType<Equal<OutputOf<typeof tree.children.ping>, string>>(true);
});
