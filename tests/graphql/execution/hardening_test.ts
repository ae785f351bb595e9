// GraphQL under attack or on a bad day: no schema names suggested when
// introspection is off, every execution error masked and observed, the cost
// of a document estimated and bounded, an execution timeout, and a cap on
// the response's size.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";

const Person = z.object({ name: z.string() });

const tree = api({
  hello: op(() => "world", { tags: { readOnly: true } }),
  search: op(({ kind }) => kind, {
    tags: { readOnly: true },
    input: z.object({ kind: z.enum(["BOOK", "FILM"]) }),
  }),
  trap: op(() => ({
    get name(): string {
      throw new Error("secret getter failure");
    },
  }), { tags: { readOnly: true }, output: Person.passthrough() }),
  // The field is JSON to GraphQL: graphql-js awaits the promise the value holds.
  slow: op(() => ({ name: Promise.reject(new Error("secret rejection")) }), {
    tags: { readOnly: true },
    output: z.object({ name: z.any() }),
  }),
});

Deno.test("GraphQL: with introspection off, no error suggests a name of the schema", async () => {
  const open = createGraphQLServer(tree);
  const closed = createGraphQLServer(tree, { introspection: false });
  const documents = [
    "{ helo }", // a field
    '{ search(kinds: "BOOK") }', // an argument
    "query($k: SearchKnd!) { search(kind: $k) }", // a type
    "{ search(kind: BOK) }", // an enum value
  ];
  for (const query of documents) {
    const shown = await open.execute({ query });
    assert.match(JSON.stringify(shown.errors), /Did you mean/, query);
    const hidden = await closed.execute({ query });
    assert.ok(hidden.errors !== undefined && hidden.errors.length > 0, query);
    assert.doesNotMatch(JSON.stringify(hidden.errors), /Did you mean/, query);
  }
  const variable = await closed.execute({
    query: "query($k: SearchKind!) { search(kind: $k) }",
    variables: { k: "BOK" },
  });
  assert.ok(variable.errors !== undefined);
  assert.doesNotMatch(JSON.stringify(variable.errors), /Did you mean/);
});

Deno.test("GraphQL: an error while completing a value is masked and observed, siblings kept", async () => {
  const observed: unknown[] = [];
  const server = createGraphQLServer(tree, { onError: (error) => observed.push(error) });
  const result = JSON.parse(JSON.stringify(
    await server.execute({ query: "{ hello trap { name } slow { name } }" }),
  ));
  assert.equal(result.data.hello, "world");
  assert.equal(result.errors.length, 2);
  for (const error of result.errors) {
    assert.equal(error.message, "Unexpected error.");
    assert.equal(error.extensions.code, "INTERNAL_SERVER_ERROR");
  }
  assert.doesNotMatch(JSON.stringify(result), /secret/);
  // A result holding a promise is a fault of the call path itself; the promise's rejection is handled.
  assert.deepEqual(
    observed.map((error) => (error as Error).message).sort(),
    ["secret getter failure", "The result holds a promise at name; await it before returning"]
      .sort(),
  );
});

const people = (depth: number): unknown =>
  depth === 0 ? { name: "x" } : { name: "x", friends: [1, 2, 3, 4].map(() => people(depth - 1)) };
const Friendly: z.ZodType = z.lazy(() =>
  z.object({ name: z.string(), friends: z.array(Friendly).optional() })
);
const social = api({
  me: op(() => people(3), { tags: { readOnly: true }, output: Friendly }),
  people: op(({ first }) => Array.from({ length: first }, () => ({ name: "p" })), {
    tags: { readOnly: true },
    input: z.object({ first: z.number().int() }),
    output: z.array(Person),
  }),
});

Deno.test("GraphQL: a document's estimated cost is bounded before it runs", async () => {
  const server = createGraphQLServer(social);
  let selection = "name";
  for (let i = 0; i < 13; i++) selection = `name friends { ${selection} }`;
  const deep = await server.execute({ query: `{ me { ${selection} } }` });
  assert.equal(deep.data, undefined, "refused before execution");
  assert.match(deep.errors![0].message, /may cost more than 10000 \(its estimate: \d+;/);
  assert.equal(deep.errors![0].extensions?.code, "GRAPHQL_VALIDATION_FAILED");
  // A size argument replaces the default list size of 10 in the estimate.
  const small = await server.execute({ query: "{ people(first: 50) { name } }" });
  assert.equal((small.data?.people as unknown[]).length, 50);
  const large = await server.execute({ query: "{ people(first: 20000) { name } }" });
  assert.match(large.errors![0].message, /may cost more than 10000/);
  const roomy = createGraphQLServer(social, { limits: { maxCost: 1e9, listSize: 4 } });
  const allowed = await roomy.execute({
    query: "{ me { name friends { name friends { name } } } }",
  });
  assert.equal(allowed.errors, undefined);
});

Deno.test("GraphQL: a leaf past timeoutMs is a TIMEOUT error on its field; its signal aborts; siblings answer", async () => {
  let aborted: unknown;
  const stuck = api({
    wait: op(
      (_input, { signal }) =>
        new Promise<string>((_, reject) =>
          signal?.addEventListener("abort", () => {
            aborted = signal.reason;
            reject(signal.reason);
          })
        ),
      { tags: { readOnly: true } },
    ),
    quick: op(() => "done", { tags: { readOnly: true } }),
  });
  const observed: unknown[] = [];
  const server = createGraphQLServer(stuck, {
    timeoutMs: 50,
    onError: (error) => observed.push(error),
  });
  const result = await server.execute({ query: "{ wait quick }" });
  assert.deepEqual(JSON.parse(JSON.stringify(result)), {
    data: { wait: null, quick: "done" },
    errors: [{
      message: "The operation did not finish within 50 ms",
      locations: [{ line: 1, column: 3 }],
      path: ["wait"],
      extensions: { code: "TIMEOUT", status: 503 },
    }],
  });
  assert.equal((aborted as DOMException).name, "TimeoutError");
  assert.deepEqual(observed, [], "a timeout is no crash");
  // No deadline unless asked: the default is none.
  const patient = createGraphQLServer(api({
    later: op(() => new Promise((resolve) => setTimeout(() => resolve("late"), 80)), {
      tags: { readOnly: true },
    }),
  }));
  assert.deepEqual({ ...(await patient.execute({ query: "{ later }" })).data }, { later: "late" });
});

Deno.test("GraphQL: a leaf cancelled by its caller is CANCELLED, never reported", async () => {
  const observed: unknown[] = [];
  const server = createGraphQLServer(
    api({
      wait: op(
        (_input, { signal }) =>
          new Promise<string>((_, reject) =>
            signal?.addEventListener("abort", () => reject(new DOMException("gone", "AbortError")))
          ),
        { tags: { readOnly: true } },
      ),
      cut: op(() => {
        // An abort nobody asked for (an upstream call cut off by the server itself) is a fault.
        throw new DOMException("upstream cut", "AbortError");
      }, { tags: { readOnly: true } }),
    }),
    { onError: (error) => observed.push(error) },
  );
  const caller = new AbortController();
  setTimeout(() => caller.abort(), 20);
  const result = JSON.parse(JSON.stringify(
    await server.execute({ query: "{ wait }", context: { signal: caller.signal } }),
  ));
  assert.deepEqual(result.errors.map((e: { extensions: unknown }) => e.extensions), [
    { code: "CANCELLED", status: 499 },
  ]);
  assert.deepEqual(observed, []);
  const cut = JSON.parse(JSON.stringify(await server.execute({ query: "{ cut }" })));
  assert.deepEqual(cut.errors[0].extensions, { code: "INTERNAL_SERVER_ERROR" });
  assert.equal(observed.length, 1);
});

Deno.test("GraphQL over HTTP: a response over maxResponseBytes is replaced by a clean error", async () => {
  const big = api({
    blob: op(() => "x".repeat(5_000), { tags: { readOnly: true } }),
  });
  const handler = createHttpGraphQLServer(big, { maxResponseBytes: 1_000 });
  const response = await handler(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ blob }" }),
    }),
  );
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    data: null,
    errors: [{
      message: "The response is larger than 1000 bytes; ask for less",
      extensions: { code: "RESPONSE_TOO_LARGE" },
    }],
  });
});
