// GraphQL over HTTP: hostile inputs.
import assert from "node:assert/strict";
import fc from "fast-check";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import {
  bookTree,
  codes,
  GRAPHQL_RESPONSE,
  post,
  quiet,
  strict,
  withServer,
} from "./http_support.ts";

// ---------------------------------------------------------------- hostile input

Deno.test("hostile: huge documents, deep nesting, many tokens and aliases are refused", async () => {
  const opts = quiet();
  await withServer(createHttpGraphQLServer(bookTree(), opts), async (url) => {
    const huge = await post(url, { query: `{ whoami }${" ".repeat(2 * 1024 * 1024)}` });
    assert.equal(huge.status, 413);
    const long = await post(url, { query: `{ whoami }${"#".repeat(200_000)}` });
    assert.equal(long.status, 413);

    const tokens = await post(url, { query: `{ ${"whoami ".repeat(12_000)}}` }, strict);
    assert.equal(tokens.status, 400);
    assert.deepEqual(codes(tokens), ["GRAPHQL_PARSE_FAILED"]);
    assert.match(tokens.body.errors[0].message, /tokens/);

    for (const depth of [100, 4000]) {
      const nested = await post(url, {
        query: `{ ${"books { ".repeat(depth)}list${" }".repeat(depth)} }`,
      }, strict);
      assert.equal(nested.status, 400, `depth ${depth}`);
      assert.ok(!nested.text.includes("RangeError"));
    }
    const list = await post(url, {
      query: `{ echo(input: ${"[".repeat(5000)}${"]".repeat(5000)}) }`,
    }, strict);
    assert.equal(list.status, 400);
    assert.ok(!list.text.includes("RangeError"));

    const deepVariables = `{"query":"query($v: JSON) { echo(input: $v) }","variables":{"v":${
      "[".repeat(100_000)
    }${"]".repeat(100_000)}}}`;
    const variables = await post(url, deepVariables);
    assert.equal(variables.status, 400);
    assert.match(variables.body.errors[0].message, /deeper than 64/);

    const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: whoami`).join(" ");
    const aliased = await post(url, { query: `{ ${aliases} }` }, strict);
    assert.equal(aliased.status, 400);
    assert.match(aliased.body.errors[0].message, /aliases/);

    const fine = await post(url, { query: "{ whoami }" });
    assert.deepEqual(fine.body, { data: { whoami: "anonymous" } });
    assert.deepEqual(opts.crashes, []);
  });
});

Deno.test("hostile: __proto__ keys in the body and in variables stay plain keys", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const raw =
      `{"__proto__":{"query":"mutation { booksAdd(title: \\"x\\") { id } }"},"query":"query($v: JSON) { echo(input: $v) }",` +
      `"variables":{"__proto__":{"polluted":1},"v":{"__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}},"a":1}}}`;
    const reply = await post(url, raw);
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body.data.echo).sort(), ["__proto__", "a", "constructor"]);
    assert.deepEqual(
      JSON.parse(reply.text).data.echo.__proto__,
      { polluted: 2 },
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);

    const onlyProto = await post(url, `{"__proto__":{"query":"{ whoami }"}}`);
    assert.equal(onlyProto.status, 400, "a query inherited from __proto__ is no query");
  });
});

Deno.test("hostile: arbitrary bodies and headers never crash the handler", async () => {
  const opts = quiet();
  const handler = createHttpGraphQLServer(bookTree(), opts);
  const types = ["application/json", "application/json; charset=utf-8", "text/plain", "", "x/y;;="];
  const accepts = [GRAPHQL_RESPONSE, "application/json", "*/*", "", "a/b;q=2, */*;q=0.5", ",,;q="];
  const queries = fc.oneof(
    fc.string(),
    fc.constantFrom(
      "{ whoami }",
      "{ books { list { id } } }",
      'mutation { booksAdd(title: "t") { id } }',
    ),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.json(),
        fc.record({ query: queries, variables: fc.option(fc.jsonValue()) }),
        fc.record({ query: queries, operationName: fc.option(fc.string()) }),
      ),
      fc.constantFrom(...types),
      fc.constantFrom(...accepts),
      fc.constantFrom("GET", "POST"),
      async (payload, type, accept, method) => {
        const body = typeof payload === "string" ? payload : JSON.stringify(payload);
        const headers: Record<string, string> = { "content-type": type, accept };
        const request = method === "GET"
          ? new Request(
            `http://localhost/graphql?${new URLSearchParams({ query: body, variables: body })}`,
            { headers },
          )
          : new Request("http://localhost/graphql", { method, headers, body });
        const response = await handler(request);
        const text = await response.text();
        assert.ok(response.status < 500, `${response.status} ${text}`);
        assert.doesNotThrow(() => JSON.parse(text));
      },
    ),
    { numRuns: 300 },
  );
  assert.deepEqual(opts.crashes, []);
});
