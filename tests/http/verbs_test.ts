import assert from "node:assert/strict";
import { http } from "@ramify/api/http/verbs";
import type { HttpVerb } from "@ramify/api/tree/node";

const table: [keyof typeof http, HttpVerb, Record<string, boolean>][] = [
  ["get", "GET", { readOnly: true }],
  ["post", "POST", {}],
  ["put", "PUT", { idempotent: true }],
  ["patch", "PATCH", {}],
  ["delete", "DELETE", { destructive: true, idempotent: true }],
  ["head", "HEAD", { readOnly: true }],
  ["options", "OPTIONS", { readOnly: true }],
];

for (const [name, verb, tags] of table) {
  Deno.test(`http.${name}: one verb and one method directive for ${verb}, tags ${JSON.stringify(tags)}`, () => {
    const bundle = http[name];
    assert.ok(typeof bundle === "object");
    assert.deepEqual(bundle.http.directives, [
      { kind: "verb", value: verb },
      { kind: "method", value: verb },
    ]);
    assert.deepEqual(bundle.tags, tags);
    assert.deepEqual(Object.keys(bundle).sort(), ["http", "tags"]);
  });
}

Deno.test("verb bundles are plain, frozen meta values", () => {
  for (const [name] of table) {
    const bundle = http[name] as object;
    assert.equal(Object.getPrototypeOf(bundle), Object.prototype);
    assert.ok(Object.isFrozen(bundle));
    assert.throws(() => {
      (bundle as { tags: Record<string, boolean> }).tags.readOnly = false;
    }, TypeError);
  }
});

Deno.test("http.moveTo: one moveTo directive", () => {
  assert.deepEqual(http.moveTo("..").http.directives, [{ kind: "moveTo", value: ".." }]);
  assert.deepEqual(http.moveTo("../rename").http.directives, [
    { kind: "moveTo", value: "../rename" },
  ]);
  assert.deepEqual(http.moveTo("*").http.directives, [{ kind: "moveTo", value: "*" }]);
  assert.deepEqual(http.moveTo("../../a/*id/b").http.directives, [
    { kind: "moveTo", value: "../../a/*id/b" },
  ]);
});

Deno.test("http.moveTo: rejects what is not a relative path", () => {
  for (const bad of ["", "/abs", "a//b", "a/", "a?b", "{x}", "a b"]) {
    assert.throws(() => http.moveTo(bad), /http\.moveTo\(\)/, bad);
  }
  assert.throws(() => http.moveTo(42 as unknown as string), TypeError);
});
