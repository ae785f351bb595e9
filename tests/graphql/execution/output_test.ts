// The output schema over GraphQL: values come from the schema's parsed result,
// and a result that breaks it is masked (never mapped, never shown) and reported
// to onError, for queries and subscriptions alike.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { OutputError } from "@ramify/api/tree/catalogue";
import { GraphQLError } from "graphql";
import { createGraphQLServer } from "@ramify/api/graphql";

const User = z.object({ id: z.string(), name: z.string() });
type UserIn = z.input<typeof User>;
const readOnly = { tags: { readOnly: true } };
// graphql-js builds results without prototypes: compare their JSON.
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

const tree = api({
  me: op(() => ({ id: "7", name: "Ann", passwordHash: "x" }), readOnly, { output: User }),
  broken: op(() => ({ id: 7, passwordHash: "x" }) as unknown as UserIn, readOnly, {
    output: User,
  }),
  feed: op(async function* () {
    yield { id: "1", name: "Ann" };
    yield { id: 2 } as unknown as UserIn;
  }, { tags: { streaming: true }, output: User }),
});

Deno.test("GraphQL: a result that breaks the output schema is masked and reported, even with a catch-all mapping", async () => {
  const reported: unknown[] = [];
  const server = createGraphQLServer(tree, {
    onError: (error) => reported.push(error),
    // A mapping that would expose any error must still not see this one.
    errors: (error) => new GraphQLError(String(error), { extensions: { code: "MAPPED" } }),
  });
  const ok = await server.execute({ query: "{ me { id name } }" });
  assert.deepEqual(json(ok), { data: { me: { id: "7", name: "Ann" } } });
  const result = await server.execute({ query: "{ broken { id name } }" });
  const text = JSON.stringify(result);
  assert.deepEqual(result.errors?.map((e) => [e.message, e.extensions?.code]), [
    ["Unexpected error.", "INTERNAL_SERVER_ERROR"],
  ]);
  assert.ok(!text.includes("passwordHash") && !text.includes("7,"));
  assert.equal(reported.length, 1);
  assert.ok(reported[0] instanceof OutputError);
});

Deno.test("GraphQL: subscription events are checked item by item", async () => {
  const reported: unknown[] = [];
  const server = createGraphQLServer(tree, { onError: (error) => reported.push(error) });
  const stream = await server.subscribe({ query: "subscription { feed { id name } }" });
  assert.ok(Symbol.asyncIterator in stream);
  const events: unknown[] = [];
  const failure = await (async () => {
    for await (const event of stream) events.push(json(event));
  })().catch((error) => error);
  assert.deepEqual(events, [{ data: { feed: { id: "1", name: "Ann" } } }]);
  // graphql-js ends a subscription by throwing its source's error: masked here.
  assert.ok(failure instanceof GraphQLError);
  assert.equal(failure.message, "Unexpected error.");
  assert.equal(failure.extensions.code, "INTERNAL_SERVER_ERROR");
  assert.equal(reported.length, 1);
  assert.ok(reported[0] instanceof OutputError);
});
