// Type tests of output schemas: op() refuses a handler whose result does not
// fit the schema's input type, and every typed client (HTTP, GraphQL) gives the
// schema's output type. Checked by `deno test` (type checking), run trivially.
import { z } from "zod";
import { api, op, type OutputOf } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createClient } from "@ramify/api/http";
import { createGraphQLClient } from "@ramify/api/graphql";
import type { GraphQLTransport } from "@ramify/api/graphql/client";
import { assertType, type Equal } from "../support/types.ts";

const User = z.object({ id: z.string(), name: z.string() });
type User = { id: string; name: string };
// What the schema takes in and gives out differ: callers see the output.
const Stamp = z.object({ at: z.string().default("now") });

Deno.test("types: op() refuses a result that does not fit the output schema", () => {
  op(() => ({ id: "1", name: "Ann", passwordHash: "x" }), http.get, { output: User });
  op(() => Promise.resolve({ id: "1", name: "Ann" }), { output: User });
  op(async function* () {
    yield { id: "1", name: "Ann" };
  }, { tags: { streaming: true }, output: User });
  op(({ name }) => ({ id: "1", name }), { input: z.object({ name: z.string() }), output: User });

  // @ts-expect-error id must be a string
  op(() => ({ id: 1, name: "Ann" }), { output: User });
  // @ts-expect-error name is missing
  op(() => ({ id: "1" }), http.get, { output: User });
  // @ts-expect-error a promise of the wrong shape
  op(() => Promise.resolve({ id: 1 }), { output: User });
  // @ts-expect-error a stream of the wrong shape
  op(async function* () {
    yield { id: 1 };
  }, { tags: { streaming: true }, output: User });
  // @ts-expect-error with an input schema too
  op(({ name }) => ({ id: 2, name }), { input: z.object({ name: z.string() }), output: User });
  // @ts-expect-error the schema's input side is what the handler must return
  op(() => ({ at: 3 }), { output: Stamp });
});

Deno.test("types: callers receive the output schema's output type", () => {
  const me = op(() => ({ id: "1", name: "Ann", passwordHash: "x" }), http.get, { output: User });
  assertType<Equal<OutputOf<typeof me>, User>>(true);
  const stamp = op(() => ({}), { output: Stamp });
  assertType<Equal<OutputOf<typeof stamp>, { at: string }>>(true);
  const feed = op(async function* () {
    yield { id: "1", name: "Ann", secret: "s" };
  }, { tags: { streaming: true }, output: User });
  assertType<Equal<OutputOf<typeof feed>, AsyncIterable<User>>>(true);
  const plain = op(() => ({ id: 1 }));
  assertType<Equal<OutputOf<typeof plain>, { id: number }>>(true);
});

Deno.test("types: the HTTP and GraphQL clients are typed from the output schema", () => {
  const tree = api({
    users: api({
      me: op(() => ({ id: "1", name: "Ann", passwordHash: "x" }), http.get, { output: User }),
      stamp: op(() => ({}), { output: Stamp }),
      feed: op(async function* () {
        yield { id: "1", name: "Ann", secret: "s" };
      }, { tags: { streaming: true }, output: User }),
    }),
  });
  const rest = createClient(tree, { baseUrl: "http://localhost" });
  assertType<Equal<Awaited<ReturnType<typeof rest.users.me>>, User>>(true);
  assertType<Equal<Awaited<ReturnType<typeof rest.users.stamp>>, { at: string }>>(true);
  assertType<Equal<Awaited<ReturnType<typeof rest.users.feed>>, AsyncIterable<User>>>(true);
  const transport = {} as GraphQLTransport;
  const graphql = createGraphQLClient(tree, { transport });
  assertType<Equal<Awaited<ReturnType<typeof graphql.users.me>>, User>>(true);
  assertType<Equal<Awaited<ReturnType<typeof graphql.users.stamp>>, { at: string }>>(true);
  const _hidden = async () => {
    // @ts-expect-error the hidden key is not part of the client's type
    (await rest.users.me()).passwordHash;
    // @ts-expect-error nor over GraphQL
    (await graphql.users.me()).passwordHash;
  };
});
