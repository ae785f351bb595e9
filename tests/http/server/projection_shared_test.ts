// The projection resolves each node's position once for the leaves beneath it
// (issue 35): these pin that a position belongs to where the walk met the node,
// not to the node object, and that a failed move still names its first leaf.
import assert from "node:assert/strict";
import { api, type ApiOptions, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { httpProjection } from "@ramify/api/http/dx";
import { type HttpRoute, listOperations } from "@ramify/api/http";

const table = (route: HttpRoute) =>
  listOperations(route).map((operation) => `${operation.method} ${operation.path}`);

const moved = (path: string): ApiOptions => ({
  meta: { http: { directives: [{ kind: "moveTo", value: path }] } },
});

Deno.test("one subtree object mounted twice is placed from each mount", () => {
  const shared = api({ inner: api({ leaf: op(() => 1, http.get) }, moved("../*slot")) });
  const route = httpProjection(api({
    a: shared,
    b: api({}, { fallback: { name: "id", subtree: shared } }),
    c: shared,
  }));
  assert.deepEqual(table(route), [
    "GET /a/{slot}/leaf",
    "GET /b/{id}/{slot}/leaf",
    "GET /c/{slot}/leaf",
  ]);
  const [a, b] = listOperations(route);
  assert.deepEqual(b.params, ["id", "slot"]);
  assert.deepEqual(a.steps.map((step) => step.name), ["a", "inner", "leaf"]);
  assert.notEqual(a.steps, b.steps);
});

Deno.test("a failed move names the first leaf beneath it; a move above no leaf fails nothing", () => {
  const bad = api({
    first: op(() => 1, http.get),
    second: op(() => 2, http.get),
  }, moved("../../.."));
  assert.throws(
    () => httpProjection(api({ ok: op(() => 0, http.get), x: bad })),
    /moveTo\("\.\.\/\.\.\/\.\."\) of x\/first goes above the root/,
  );
  const route = httpProjection(api({ ok: op(() => 0, http.get), x: api({}, moved("../../..")) }));
  assert.deepEqual(table(route), ["GET /ok"]);
});

Deno.test("a move error wins over a conflict met earlier in the tree", () => {
  assert.throws(
    () =>
      httpProjection(api({
        one: op(() => 1, http.get, http.moveTo("../same")),
        two: op(() => 2, http.get, http.moveTo("../same")),
        deep: api({ leaf: op(() => 3, http.moveTo("../../..")) }),
      })),
    /goes above the root/,
  );
});
