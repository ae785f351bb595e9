import assert from "node:assert/strict";
import { mergeMeta } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";

Deno.test("mergeMeta: a later value wins per top-level key", () => {
  assert.deepEqual(mergeMeta({ description: "a" }, { description: "b" }), {
    description: "b",
  });
});

Deno.test("mergeMeta: undefined defers to an earlier value", () => {
  assert.deepEqual(mergeMeta({ description: "a" }, { description: undefined }), {
    description: "a",
  });
  assert.deepEqual(mergeMeta(undefined, { description: "a" }, undefined), { description: "a" });
  assert.deepEqual(
    mergeMeta({ tags: { readOnly: true } }, { tags: { readOnly: undefined, openWorld: true } }),
    { tags: { readOnly: true, openWorld: true } },
  );
});

Deno.test("mergeMeta: plain objects merge one level deeper, no further", () => {
  const merged = mergeMeta(
    { tags: { readOnly: true }, x: { deep: { a: 1 } } },
    { tags: { openWorld: true }, x: { deep: { b: 2 } } },
  );
  assert.deepEqual(merged.tags, { readOnly: true, openWorld: true });
  // The second level is replaced, not merged: one level only.
  assert.deepEqual(merged.x, { deep: { b: 2 } });
});

Deno.test("mergeMeta: arrays are replaced, not merged", () => {
  const merged = mergeMeta({ openapi: { tags: ["a"] }, list: [1, 2] }, {
    openapi: { tags: ["b"] },
    list: [3],
  });
  assert.deepEqual(merged.openapi?.tags, ["b"]);
  assert.deepEqual(merged.list, [3]);
  const directives = mergeMeta(http.get, http.moveTo("..")).http?.directives;
  assert.deepEqual(directives, [{ kind: "moveTo", value: ".." }]);
});

Deno.test("mergeMeta: a plain object replaces a non-object and the reverse", () => {
  assert.deepEqual(mergeMeta({ x: 1 }, { x: { a: 1 } }), { x: { a: 1 } });
  assert.deepEqual(mergeMeta({ x: { a: 1 } }, { x: 2 }), { x: 2 });
  assert.deepEqual(mergeMeta({ x: { a: 1 } }, { x: [1] }), { x: [1] });
});

Deno.test("mergeMeta: schemas are values, never merged into", () => {
  const first = z.object({ a: z.string() });
  const second = z.object({ b: z.string() });
  const merged = mergeMeta({ input: first }, { input: second });
  assert.equal(merged.input, second);
});

Deno.test("mergeMeta: spec rule 5, http.put plus destructive: false keeps both", () => {
  const merged = mergeMeta(http.put, { tags: { destructive: false } });
  assert.deepEqual(merged.tags, { idempotent: true, destructive: false });
  assert.deepEqual(merged.http?.directives, [
    { kind: "verb", value: "PUT" },
    { kind: "method", value: "PUT" },
  ]);
});

Deno.test("mergeMeta: does not modify its inputs", () => {
  const first = { tags: { readOnly: true } };
  const second = { tags: { openWorld: true } };
  mergeMeta(first, second);
  assert.deepEqual(first, { tags: { readOnly: true } });
  assert.deepEqual(second, { tags: { openWorld: true } });
});

Deno.test("mergeMeta: __proto__ keys stay own keys", () => {
  const hostile = JSON.parse('{"__proto__": {"polluted": true}, "tags": {"__proto__": {"x": 1}}}');
  const merged = mergeMeta({ tags: { readOnly: true } }, hostile);
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.hasOwn(merged, "__proto__"));
  assert.ok(Object.hasOwn(merged.tags!, "__proto__"));
  assert.equal(Object.getPrototypeOf(merged.tags), Object.prototype);
});
