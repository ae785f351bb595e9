// The schema builds on first use: creating a GraphQL server checks the tree
// (its projection), but the executable schema, its resolvers and its SDL wait
// for the first request that needs them, so a process serving REST beside
// GraphQL answers its first request without paying for them.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";

const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true } }),
  books: api({ add: op((input: { title: string }) => ({ id: "1", ...input })) }),
});

/** Options whose `timeoutMs` only the resolvers read: a count of schema builds. */
function counted() {
  let reads = 0;
  return {
    opts: {
      get timeoutMs() {
        reads++;
        return 5_000;
      },
    },
    reads: () => reads,
  };
}

const request = (query: string) =>
  new Request("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query }),
  });

Deno.test("lazy schema: creating the server builds no resolvers; the first request does, once", async () => {
  const { opts, reads } = counted();
  const server = createGraphQLServer(tree, opts);
  assert.equal(reads(), 0);
  assert.equal(server.stats.compiled, 0);
  assert.deepEqual((await server.execute({ query: "{ ping }" })).data, { ping: "pong" });
  const afterFirst = reads();
  assert.ok(afterFirst > 0);
  await server.execute({ query: "{ ping }" });
  assert.equal(reads(), afterFirst, "the schema is built once");
});

Deno.test("lazy schema: the HTTP handler builds nothing until a GraphQL request arrives", async () => {
  const { opts, reads } = counted();
  const handler = createHttpGraphQLServer(tree, opts);
  assert.equal(reads(), 0);
  const response = await handler(request("{ ping }"));
  assert.deepEqual(await response.json(), { data: { ping: "pong" } });
  assert.ok(reads() > 0);
});

Deno.test("lazy schema: a tree the projection refuses still throws at creation", () => {
  const bad = api({ booksAdd: op(() => 1), books: api({ add: op(() => 1) }) });
  assert.throws(() => createGraphQLServer(bad), /both project to Mutation\.booksAdd/);
  assert.throws(() => createHttpGraphQLServer(bad), /both project to Mutation\.booksAdd/);
});

Deno.test("lazy schema: schema and SDL read before any request are the ones that run", async () => {
  const server = createGraphQLServer(tree);
  assert.match(server.sdl, /ping: /);
  const schema = server.schema;
  assert.ok(schema.getQueryType()?.getFields().ping !== undefined);
  assert.deepEqual((await server.execute({ query: "{ ping }" })).data, { ping: "pong" });
  assert.equal(server.schema, schema);
});
