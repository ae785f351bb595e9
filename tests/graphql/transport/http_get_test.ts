// GraphQL over GET runs only fields of leaves tagged readOnly: true, the same
// leaves HTTP serves with GET, so no side effect is reachable by a cross-site GET.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createHttpGraphQLServer } from "@ramify/api/graphql";

let calls = 0;
const tree = api({
  getStats: op(() => ++calls),
  health: op(() => "ok", { tags: { readOnly: true } }),
  projects: api({ list: op(() => ["a"], { tags: { readOnly: true } }) }),
});
const handler = createHttpGraphQLServer(tree);
const get = (query: string) =>
  handler(
    new Request(`http://localhost/graphql?query=${encodeURIComponent(query)}`, {
      headers: { accept: "application/json" },
    }),
  );

Deno.test("GraphQL GET: a Query field of a leaf not tagged readOnly is 405, even through a fragment", async () => {
  for (const query of ["{ getStats }", "{ health ...F } fragment F on Query { getStats }"]) {
    const response = await get(query);
    assert.equal(response.status, 405, query);
    assert.equal(response.headers.get("allow"), "POST");
    assert.equal((await response.json()).errors[0].extensions.code, "METHOD_NOT_ALLOWED");
  }
  assert.equal(calls, 0, "the handler never ran");

  const post = await handler(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "{ getStats }" }),
    }),
  );
  assert.deepEqual(await post.json(), { data: { getStats: 1 } });
});

Deno.test("GraphQL GET: fields of readOnly leaves run, namespaces included", async () => {
  const response = await get("{ health projects { list } }");
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { data: { health: "ok", projects: { list: ["a"] } } });
});
