// The compiled path under hostile load: the document cache (documents and
// their plans) stays within its count and byte bounds through a flood of
// distinct documents, and what the limits let through (at the alias, depth
// and selection limits, fragments spread many times) runs compiled, never by
// the fallback; what they refuse (fragment cycles, over the limits) runs at
// all. The fallback counts what the compiler leaves to graphql-js.

import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createClient } from "graphql-ws";
import { execute, parse } from "graphql";
import { post, withServer } from "../transport/http_support.ts";

const Node = z.object({ id: z.string(), next: z.object({ id: z.string() }).nullable() });

function tree() {
  return api({
    ping: op(() => "pong", { tags: { readOnly: true }, output: z.string() }),
    nodes: api({
      list: op(() => [{ id: "1", next: { id: "2" } }, { id: "3", next: null }], {
        tags: { readOnly: true },
        output: z.array(Node),
      }),
    }),
    slow: op(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return "done";
    }, { tags: { readOnly: true }, output: z.string() }),
  });
}

Deno.test("compiled: 10,000 distinct documents keep the cache within its count and bytes", async () => {
  const maxBytes = 64 * 100_000;
  const server = createGraphQLServer(tree(), {
    documentCacheSize: 500,
    documentCacheBytes: maxBytes,
  });
  let largest = 0;
  const run = async (query: string) => {
    const result = await server.execute({ query });
    assert.deepEqual(result, { data: { ping: "pong" } });
    largest = Math.max(largest, server.stats.documents);
    assert.ok(server.stats.documents <= 500, `${server.stats.documents} documents`);
    assert.ok(server.stats.documentBytes <= maxBytes, `${server.stats.documentBytes} bytes`);
  };
  for (let i = 0; i < 10_000; i++) await run(`query Q${i} { ping }`);
  assert.equal(largest, 500, "the count bound was reached, and held");
  // Long documents: the byte bound, not the count, holds those (50 of 2,000 characters).
  for (let i = 0; i < 1_000; i++) await run(`query L${i} { ping${" ".repeat(2_000)} }`);
  assert.ok(server.stats.documents <= 50, `${server.stats.documents} long documents`);
  assert.equal(server.stats.compiled, 11_000);
  assert.equal(server.stats.fallback, 0);
});

/** The heap a flood of 10,000 distinct documents leaves, garbage collected, in a process of its own. */
async function floodHeap(
  size: number,
  bytes: number,
): Promise<{ kept: number; documents: number }> {
  const script = new URL("./compiled_flood_support.ts", import.meta.url).pathname;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", script, String(size), String(bytes)],
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test("compiled: after a flood of 10,000 documents the heap holds what the bounds allow", async () => {
  // Measured: about 10 MB for the default 1,000 documents (52 characters each,
  // with their plans); without a bound the same flood keeps about 86 MB.
  const byCount = await floodHeap(1_000, 32 * 1024 * 1024);
  assert.equal(byCount.documents, 1_000);
  assert.ok(byCount.kept < 16 * 1024 * 1024, `${byCount.kept} bytes kept`);
  // The byte bound: 1 MiB estimated is 16,384 characters, 315 documents, about 4.5 MB measured.
  const byBytes = await floodHeap(100_000, 1024 * 1024);
  assert.equal(byBytes.documents, 315);
  assert.ok(byBytes.kept < 7 * 1024 * 1024, `${byBytes.kept} bytes kept`);
});

Deno.test("compiled: a document over the byte bound is run, not cached", async () => {
  const server = createGraphQLServer(tree(), { documentCacheBytes: 64 * 100 });
  const query = `{ ping ${"__typename ".repeat(20)}}`;
  assert.deepEqual((await server.execute({ query })).data?.ping, "pong");
  assert.equal(server.stats.documents, 0);
  assert.equal(server.stats.compiled, 1);
});

Deno.test("compiled: what the limits let through runs compiled; what they refuse never runs", async () => {
  const server = createGraphQLServer(tree(), { onError: () => {} });
  await withServer(createHttpGraphQLServer(server), async (url) => {
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: ping`).join(" ");
    const aliased = await post(url, { query: `{ ${aliases} }` });
    assert.equal(aliased.body.data.a29, "pong");

    const fragments = `fragment N on NodesListResult { id next { id } }`;
    const spread = Array.from({ length: 50 }, () => "...N").join(" ");
    const many = await post(url, { query: `{ nodes { list { ${spread} } } } ${fragments}` });
    assert.deepEqual(many.body.data.nodes.list[0], { id: "1", next: { id: "2" } });

    const inline = `{ ${"... on Query { ".repeat(14)}ping${" }".repeat(14)} }`;
    assert.deepEqual((await post(url, { query: inline })).body, { data: { ping: "pong" } });

    const wide = Array.from({ length: 500 }, () => "__typename").join(" ");
    assert.equal((await post(url, { query: `{ ping ${wide} }` })).body.data.__typename, "Query");

    const ran = server.stats.compiled;
    assert.equal(ran, 4);
    const cycle = await post(url, {
      query: "{ nodes { list { ...A } } } fragment A on NodesListResult { ...B } " +
        "fragment B on NodesListResult { ...A }",
    });
    assert.match(cycle.body.errors[0].message, /Cannot spread fragment "A" within itself/);
    const deep = await post(url, { query: `{ ${"nodes { ".repeat(20)}list${" }".repeat(20)} }` });
    assert.equal(deep.body.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
    const over = Array.from({ length: 31 }, (_, i) => `a${i}: ping`).join(" ");
    assert.match((await post(url, { query: `{ ${over} }` })).body.errors[0].message, /aliases/);
    assert.equal(server.stats.compiled, ran, "refused documents never run");
    assert.equal(server.stats.fallback, 0);

    // Introspection is graphql-js's to answer: the one fallback here.
    const typename = await post(url, { query: "{ __schema { queryType { name } } }" });
    assert.equal(typename.body.data.__schema.queryType.name, "Query");
    assert.equal(server.stats.fallback, 1);
  });
});

Deno.test("compiled: an operation name the document lacks is graphql-js's error, counted as a fallback", async () => {
  const server = createGraphQLServer(tree());
  const result = await server.execute({ query: "query A { ping }", operationName: "B" });
  assert.equal(result.errors?.[0].message, 'Unknown operation named "B".');
  assert.equal(server.stats.fallback, 1);
  assert.equal(server.stats.compiled, 0);
});

Deno.test("compiled: a caller gone while a leaf runs is CANCELLED, as graphql-js answers", async () => {
  const server = createGraphQLServer(tree());
  const caller = new AbortController();
  const pending = server.execute({ query: "{ slow }", context: { signal: caller.signal } });
  caller.abort();
  const result = await pending;
  assert.equal(result.data, null);
  assert.equal(result.errors?.[0].extensions.code, "CANCELLED");
  assert.equal(server.stats.compiled, 1);
});

Deno.test("compiled: GraphQL over WebSocket runs queries and mutations by the same plans", async () => {
  const server = createGraphQLServer(tree());
  const ws = createWsHandler(server);
  const http = createHttpGraphQLServer(server);
  await withServer(
    async (request) =>
      request.headers.get("upgrade") === "websocket" ? ws(request) : await http(request),
    async (url) => {
      const client = createClient({
        url: url.replace("http", "ws"),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      try {
        const results: unknown[] = [];
        for (let i = 0; i < 3; i++) {
          await new Promise<void>((resolve, reject) => {
            client.subscribe({ query: "{ ping nodes { list { id } } }" }, {
              next: (value) => results.push(value),
              error: reject,
              complete: resolve,
            });
          });
        }
        assert.deepEqual(results[2], {
          data: { ping: "pong", nodes: { list: [{ id: "1" }, { id: "3" }] } },
        });
        assert.equal(server.stats.compiled, 3);
        assert.equal(server.stats.fallback, 0);
      } finally {
        await client.dispose();
      }
    },
  );
});

Deno.test("compiled: variables coerce as graphql-js coerces them, refusals included", async () => {
  const echo = op((input) => input, {
    tags: { readOnly: true },
    input: z.object({
      n: z.int32().nullable().optional(),
      f: z.number().optional(),
      s: z.string().optional(),
      b: z.boolean().optional(),
    }),
    output: z.record(z.string(), z.unknown()),
  });
  const server = createGraphQLServer(
    api({ things: api({}, { fallback: { name: "key", subtree: api({ echo }) } }) }),
    { onError: () => {} },
  );
  const query = "query($id: ID!, $n: Int, $f: Float, $s: String!, $b: Boolean) " +
    "{ things { echo(key: $id, n: $n, f: $f, s: $s, b: $b) } }";
  const cases: Record<string, unknown>[] = [
    { id: "1", s: "x" },
    { id: "7", s: "x", n: 3, f: 1.5, b: true },
    { id: 7, s: "x", f: 2 },
    { id: "1", s: "x", n: null, b: false },
    { id: "1", s: "x", n: 2 ** 40 },
    { id: "1", s: "x", n: 1.5 },
    { id: "1", s: "x", f: "1" },
    { id: "1", s: 1 },
    { s: "x" },
    { id: "1", s: null },
    { id: "1", s: "x", b: "true" },
    { id: 1.5, s: "x" },
  ];
  for (const variables of cases) {
    const ours = await server.execute({ query, variables });
    const theirs = await execute({
      schema: server.schema,
      document: parse(query),
      variableValues: variables,
      contextValue: {},
    });
    // The server's one rendering of a request error: BAD_USER_INPUT.
    const expected = theirs.data === undefined
      ? {
        errors: theirs.errors?.map((error) => ({
          ...error.toJSON(),
          extensions: { code: "BAD_USER_INPUT" },
        })),
      }
      : theirs;
    assert.deepEqual(
      JSON.parse(JSON.stringify(ours)),
      JSON.parse(JSON.stringify(expected)),
      JSON.stringify(variables),
    );
  }
  assert.equal(server.stats.fallback, 0);
});
