// The shortcuts of the compiled path and of GraphQL over HTTP give what the
// long way gives: generated object runners (and the interpreter where code
// generation is forbidden), variables of built-in scalars coerced in place
// (graphql-js still coerces or refuses everything else), the path check
// without splitting the URL, and the JSON body of a declared length.

import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
import { execute, parse } from "graphql";

const Author = z.object({ name: z.string(), born: z.int32().nullable() });
const Book = z.object({
  id: z.string(),
  rating: z.number(),
  out: z.boolean(),
  author: Author,
  tags: z.array(z.string()),
});

function tree() {
  const book = (id: string) => ({
    id,
    rating: 4.5,
    out: false,
    author: { name: `A${id}`, born: id === "2" ? null : 1920 },
    tags: ["sf"],
  });
  return api({
    books: api({
      list: op(() => [book("1"), book("2")], {
        tags: { readOnly: true },
        output: z.array(Book),
      }),
      echo: op((input: Record<string, unknown>) => JSON.stringify(input), {
        tags: { readOnly: true },
        input: z.object({
          s: z.string().optional().nullable(),
          n: z.int32().optional().nullable(),
          f: z.number().optional().nullable(),
          b: z.boolean().optional().nullable(),
        }),
        output: z.string(),
      }),
    }),
  });
}

const NESTED = "{ books { list { id rating out author { name born } tags } } }";

Deno.test("compiled: generated runners answer as graphql-js does", async () => {
  const server = createGraphQLServer(tree());
  const ours = await server.execute({ query: NESTED });
  const theirs = await execute({ schema: server.schema, document: parse(NESTED) });
  assert.deepEqual(ours, JSON.parse(JSON.stringify(theirs)));
  assert.equal(server.stats.fallback, 0);
});

Deno.test("compiled: where code generation is forbidden, the interpreter answers the same", async () => {
  const script = `
    import { z } from "zod";
    import { api, op } from "@ramify/api/tree";
    import { createGraphQLServer } from "@ramify/api/graphql";
    let forbidden = false;
    try { new Function("return 1"); } catch { forbidden = true; }
    const Author = z.object({ name: z.string() });
    const server = createGraphQLServer(api({
      list: op(() => [{ name: "a" }, { name: "b" }], {
        tags: { readOnly: true },
        output: z.array(Author),
      }),
    }));
    const result = await server.execute({ query: "{ list { name } }" });
    console.log(JSON.stringify({ forbidden, result, compiled: server.stats.compiled }));
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--v8-flags=--disallow-code-generation-from-strings",
      "--config",
      new URL("../../../deno.json", import.meta.url).pathname,
      script,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.success, true, new TextDecoder().decode(output.stderr));
  const answer = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.deepEqual(answer, {
    forbidden: true,
    result: { data: { list: [{ name: "a" }, { name: "b" }] } },
    compiled: 1,
  });
});

Deno.test("compiled: scalar variables coerce and refuse as graphql-js does", async () => {
  const server = createGraphQLServer(tree());
  const query = "query ($s: String, $n: Int, $f: Float, $b: Boolean) " +
    "{ books { echo(s: $s, n: $n, f: $f, b: $b) } }";
  const strict = "query ($s: String!, $n: Int!) { books { echo(s: $s, n: $n) } }";
  const cases: [string, Record<string, unknown>][] = [
    [query, {}],
    [query, { s: null, n: null, f: null, b: null }],
    [query, { s: "x", n: -0, f: 1.5, b: true }],
    [query, { n: 2 ** 31 }],
    [query, { n: 1.5 }],
    [query, { f: "1" }],
    [query, { s: 1 }],
    [query, { b: "true" }],
    [strict, { s: "x", n: 1 }],
    [strict, { s: "x" }],
    [strict, { s: null, n: 1 }],
    [strict, { s: "x", n: "1" }],
  ];
  for (const [text, variables] of cases) {
    const ours = await server.execute({ query: text, variables });
    const theirs = await execute({
      schema: server.schema,
      document: parse(text),
      variableValues: variables,
    });
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
    if (theirs.errors === undefined) assert.deepEqual(plain(ours), plain(theirs), text);
    else {
      // Refused before execution: the same messages, with the code the server adds.
      assert.equal(ours.data, undefined, JSON.stringify(variables));
      assert.deepEqual(
        ours.errors?.map((e) => e.message),
        theirs.errors.map((e) => e.message),
      );
    }
  }
});

Deno.test("GraphQL over HTTP: the path is the whole path, before a query or a fragment", async () => {
  const handler = createHttpGraphQLServer(tree(), { path: "/graphql" });
  const status = async (url: string) => (await handler(new Request(url))).status;
  assert.equal(await status("http://localhost/graphql?query=%7B__typename%7D"), 200);
  assert.equal(await status("http://localhost/graphql#x?query=%7B__typename%7D"), 400);
  assert.equal(await status("http://localhost/graphqlx?query=%7B__typename%7D"), 404);
  assert.equal(await status("http://localhost/graphql/?query=%7B__typename%7D"), 404);
  assert.equal(await status("http://localhost/?query=%7B__typename%7D"), 404);
  const odd = createHttpGraphQLServer(tree(), { path: "/g?x" });
  assert.equal(await status("http://localhost/g?x"), 404);
  assert.equal((await odd(new Request("http://localhost/g?x"))).status, 404);
});

Deno.test("GraphQL over HTTP: a JSON body of a declared length is read strictly", async () => {
  const handler = createHttpGraphQLServer(tree());
  const send = (body: Uint8Array<ArrayBuffer>, length = String(body.byteLength)) =>
    handler(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": length },
        body,
      }),
    );
  const encode = (text: string) => new TextEncoder().encode(text);
  const ok = await send(encode(JSON.stringify({ query: "{ __typename }" })));
  assert.deepEqual(await ok.json(), { data: { __typename: "Query" } });
  const kept = await send(encode(JSON.stringify({ query: "{ __typename } # \uFFFD é" })));
  assert.deepEqual(await kept.json(), { data: { __typename: "Query" } });
  const invalid = await send(
    new Uint8Array([...encode('{"query":"{ __typename } #'), 0xf0, 0x9f, 0x98, ...encode('"}')]),
  );
  assert.equal(invalid.status, 400);
  assert.match((await invalid.json()).errors[0].message, /UTF-8/);
  const empty = await send(new Uint8Array(0), "12");
  assert.equal(empty.status, 400);
  assert.match((await empty.json()).errors[0].message, /empty/);
  const notJson = await send(encode("{ query"));
  assert.equal(notJson.status, 400);
  assert.match((await notJson.json()).errors[0].message, /JSON/);
});
