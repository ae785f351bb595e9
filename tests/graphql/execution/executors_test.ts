// The two executors behind the server's one seam give the same answers: the
// compiled one (the default) and graphql-js's own `execute` and `subscribe`
// (`executor: "graphql-js"`), over the book tree of the HTTP tests and the
// streaming tree of the WebSocket tests: queries, mutations, fragments and
// directives, variables, introspection, a leaf's failure and a crash, a
// document that does not validate, variables that do not coerce, and
// subscriptions that complete, crash or fail with a declared error; in
// process, over HTTP and over WebSocket. The option is a server option:
// `createHttpGraphQLServer` given a tree and `serve()` take it, a name that
// is no executor is refused.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLServer,
  createHttpGraphQLServer,
  graphqlErrors,
  type GraphQLServer,
  type GraphQLServerOptions,
} from "@ramify/api/graphql";
import { createHandler } from "@ramify/api/serve";
import { bookTree, post, withServer } from "../transport/http_support.ts";
import { collect, connect, Probe, serve, tree as streamTree } from "../transport/ws_support.ts";

type Executor = NonNullable<GraphQLServerOptions["executor"]>;
const EXECUTORS: readonly Executor[] = ["compiled", "graphql-js"];

// graphql-js builds results without prototypes and errors as classes: compare
// their JSON (a bigint, which a JSON scalar passes through, as its digits).
const json = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_, v) => typeof v === "bigint" ? `${v}n` : v));

const QUERIES: readonly {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
}[] = [
  { query: "{ books { list { id title } } }" },
  { query: 'query { books { read(bookId: "1") { id title } } }' },
  {
    query:
      "query Read($id: ID!) { books { read(bookId: $id) { ...B } } } fragment B on Book { title }",
    variables: { id: "1" },
  },
  { query: 'mutation { booksAdd(title: "Emma") { id title } }' },
  {
    query: "mutation Add($title: String!) { booksAdd(title: $title) { id ... on Book { title } } }",
    variables: { title: "Ulysses" },
  },
  { query: 'mutation { booksAdd(title: "") { id } }' },
  { query: "query Skip($s: Boolean!) { whoami crash @skip(if: $s) }", variables: { s: true } },
  { query: "query Skip($s: Boolean!) { whoami crash @skip(if: $s) }", variables: { s: false } },
  { query: '{ a: books { read(bookId: "9") { id } } b: whoami __typename }' },
  { query: "{ crash }" },
  { query: "{ big }" },
  { query: '{ echo(input: { nested: [1, "two", null] }) }' },
  { query: "query Read($id: ID!) { books { read(bookId: $id) { id } } }", variables: { id: 7 } },
  { query: "query Read($id: ID!) { books { read(bookId: $id) { id } } }", variables: {} },
  { query: "{ books { nope } }" },
  { query: "{ books {" },
  { query: "query A { whoami } query B { books { list { id } } }", operationName: "B" },
  { query: "query A { whoami } query B { whoami }" },
  { query: "query A { whoami }", operationName: "Nope" },
  { query: '{ __schema { queryType { name } } __type(name: "Book") { fields { name } } }' },
];

/** Every query of `QUERIES`, in order, on a fresh book tree served with `executor`. */
async function answers(executor: Executor) {
  const server = createGraphQLServer(bookTree(), {
    executor,
    errors: graphqlErrors({ NotFound: "NOT_FOUND" }),
    onError: () => {},
  });
  const results: unknown[] = [];
  for (const request of QUERIES) results.push(json(await server.execute(request)));
  return { server, results };
}

Deno.test("executors: queries, mutations and their errors answer the same on both", async () => {
  const compiled = await answers("compiled");
  const graphqlJs = await answers("graphql-js");
  for (let i = 0; i < QUERIES.length; i++) {
    assert.deepEqual(graphqlJs.results[i], compiled.results[i], QUERIES[i].query);
  }
  // Each ran where it says: the compiled server by its plans (introspection
  // and an unknown operation fall back), the other by graphql-js alone.
  assert.ok(compiled.server.stats.compiled > compiled.server.stats.fallback);
  assert.equal(graphqlJs.server.stats.compiled, 0);
  assert.ok(graphqlJs.server.stats.fallback > 0);
});

/** Every event of a subscription, and the error that ended it, if any. */
async function events(server: GraphQLServer, query: string) {
  const stream = await server.subscribe({ query });
  if (!(Symbol.asyncIterator in stream)) return { result: json(stream) };
  const items: unknown[] = [];
  try {
    for await (const item of stream) items.push(json(item));
  } catch (error) {
    return { items, error: json(error) };
  }
  return { items };
}

const SUBSCRIPTIONS = [
  "subscription { clockTicks(to: 3) }",
  "subscription { clockBroken }",
  "subscription { clockSoldOut }",
  "subscription { clockTicks(to: -1.5) }",
  "subscription { nope }",
];

Deno.test("executors: subscriptions answer the same on both", async () => {
  const [compiled, graphqlJs] = EXECUTORS.map((executor) =>
    createGraphQLServer(streamTree(new Probe()), { executor, onError: () => {} })
  );
  for (const query of SUBSCRIPTIONS) {
    assert.deepEqual(await events(graphqlJs, query), await events(compiled, query), query);
  }
});

Deno.test("executors: GraphQL over HTTP answers the same on both", async () => {
  const replies: unknown[][] = [];
  for (const executor of EXECUTORS) {
    const handler = createHttpGraphQLServer(bookTree(), { executor, onError: () => {} });
    const seen: unknown[] = [];
    await withServer(handler, async (url) => {
      for (const request of QUERIES) {
        const reply = await post(url, request);
        seen.push([reply.status, reply.body]);
      }
    });
    replies.push(seen);
  }
  assert.deepEqual(replies[1], replies[0]);
});

Deno.test("executors: GraphQL over WebSocket answers the same on both", async () => {
  const seen: unknown[][] = [];
  for (const executor of EXECUTORS) {
    const served = serve({}, { executor });
    const client = connect(served.url);
    try {
      const results = [];
      for (
        const query of [...SUBSCRIPTIONS, "{ whoami }", 'mutation { booksAdd(title: "A") { id } }']
      ) {
        results.push(json(await collect(client.client, query)));
      }
      seen.push(results);
    } finally {
      await client.dispose();
      await served.close();
    }
  }
  assert.deepEqual(seen[1], seen[0]);
});

Deno.test("executors: the option is the server's, checked where a server is made", async () => {
  const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
  const wrong = { executor: "jit" } as unknown as GraphQLServerOptions;
  const named = /executor must be "compiled" or "graphql-js", got "jit"/;
  assert.throws(() => createGraphQLServer(tree, wrong), named);
  assert.throws(() => createHttpGraphQLServer(tree, wrong), named);
  // Given a built server, the HTTP transport runs that server's executor.
  assert.throws(
    () => createHttpGraphQLServer(createGraphQLServer(tree), { executor: "graphql-js" } as never),
    /unknown option "executor"/,
  );
  const handler = await createHandler(tree, {
    graphql: { executor: "graphql-js" },
    rest: false,
    mcp: false,
    docs: false,
  });
  try {
    const response = await handler.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
    assert.deepEqual(await response?.json(), { data: { ping: "pong" } });
  } finally {
    await handler.close();
  }
  await assert.rejects(
    () => createHandler(tree, { graphql: wrong, rest: false, mcp: false, docs: false }),
    named,
  );
});
