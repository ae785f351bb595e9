// A start pays for the routes it serves: the router checks every operation
// when it is built (a bad status, a bad idempotency key fail there, before any
// request), and makes a route's call path on its first request only, once.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { httpProjection } from "@ramify/api/http/dx";
import { createFetch, type HttpRoute, listOperations, toRouter } from "@ramify/api/http";
import { timesPrepared } from "../../../tree/call.ts";
import { withServer } from "../../support/server.ts";

/** How many calls of each operation's leaf this process has prepared, by path. */
function preparedOf(route: HttpRoute): Record<string, number> {
  return Object.fromEntries(
    listOperations(route).map((operation) => [operation.path, timesPrepared(operation.node)]),
  );
}

Deno.test("the router makes a route's call path on its first request, once, and no other's", async () => {
  const Book = z.object({ title: z.string().min(1) });
  const route = httpProjection(api({
    add: op(({ title }) => ({ title }), http.post, { input: Book }),
    list: op(() => [], http.get),
  }));
  const handler = toRouter(route);
  assert.deepEqual(preparedOf(route), { "/add": 0, "/list": 0 }, "building prepared no call");
  await withServer(handler, async (base) => {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Dune" }),
      });
      assert.deepEqual(await response.json(), { title: "Dune" });
    }
    const refused = await fetch(`${base}/add`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "" }),
    });
    assert.equal(refused.status, 422);
    await refused.body?.cancel();
  });
  assert.deepEqual(
    preparedOf(route),
    { "/add": 1, "/list": 0 },
    "one preparation, of the route called",
  );
});

Deno.test("the router still refuses a bad operation when it is built, before any request", () => {
  const badStatus = api({ make: op(() => ({}), http.post, { http: { status: 302 } }) });
  assert.throws(
    () => createFetch(badStatus),
    /POST \/make: meta\.http\.status must be an integer from 200 to 299, got 302/,
  );
  const keyedRead = api({
    read: op(() => ({}), http.get, { http: { idempotencyKey: "required" } }),
  });
  assert.throws(
    () => toRouter(httpProjection(keyedRead)),
    /GET \/read: meta\.http\.idempotencyKey: the leaf is safe to repeat already/,
  );
});

Deno.test("a query is coerced as the input schema asks on a route's first request too", async () => {
  const handler = createFetch(api({
    page: op(({ n }) => ({ n, next: n + 1 }), http.get, { input: z.object({ n: z.number() }) }),
  }));
  await withServer(handler, async (base) => {
    const response = await fetch(`${base}/page?n=2`);
    assert.deepEqual(await response.json(), { n: 2, next: 3 });
  });
});
