// The typed GraphQL client: the tree's shape over GraphQL, documents from the
// server's own projection, errors with partial data, subscriptions.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { HttpError } from "@ramify/api/tree";
import {
  buildDocument,
  createGraphQLClient,
  createGraphQLServer,
  projectGraphQL,
  serverTransport,
} from "@ramify/api/graphql";
import { GraphQLClientError } from "@ramify/api/graphql/client";
import { z } from "zod";
import { bookstore, MemoryBookStore } from "../../../examples/bookstore.ts";
import { assertType, type Equal } from "../../support/types.ts";

function bookstoreClient() {
  const tree = bookstore(new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]));
  return createGraphQLClient(tree, { transport: serverTransport(createGraphQLServer(tree)) });
}

Deno.test("graphql client: queries, mutations and fallbacks through the tree's shape", async () => {
  const client = bookstoreClient();
  assert.deepEqual(await client.books.list(), [{
    id: "1",
    title: "Dune",
    author: "Frank Herbert",
  }]);
  const added = await client.books.add({ title: "Emma", author: "Austen", year: 1815 });
  assert.deepEqual(added, { id: "2", title: "Emma", author: "Austen", year: 1815 });
  assert.equal((await client.books.bookId("2").read()).title, "Emma");
  const replaced = await client.books.bookId("2").replace({ title: "Emma", author: "Jane Austen" });
  assert.equal(replaced.author, "Jane Austen");
  assert.deepEqual(await client.books.bookId("2").checkout.reserve(), {
    bookId: "2",
    reserved: true,
  });
  assert.deepEqual(await client.catalog.search({ q: "emma", limit: 2 }), [
    { id: "2", title: "Emma", author: "Jane Austen" },
  ]);
  assert.equal(
    await client.books.bookId("2").remove(),
    undefined,
    "a void leaf gives nothing, as over HTTP",
  );
});

Deno.test("graphql client: types mirror the tree (the HTTP client's types)", () => {
  const client = bookstoreClient();
  type Book = { id: string; title: string; author: string; year?: number | undefined };
  assertType<Equal<Awaited<ReturnType<typeof client.books.list>>, Book[]>>(true);
  assertType<Equal<Awaited<ReturnType<ReturnType<typeof client.books.bookId>["read"]>>, Book>>(
    true,
  );
  const _typed = () => {
    // @ts-expect-error author is required
    client.books.add({ title: "x" });
  };
});

Deno.test("graphql client: errors raise GraphQLClientError with errors and partial data", async () => {
  const client = bookstoreClient();
  const missing = await client.books.bookId("404").read().catch((e) => e);
  assert.ok(missing instanceof GraphQLClientError);
  assert.equal(missing.errors[0].extensions?.code, "NOT_FOUND");
  assert.equal(missing.message, "There is no book 404");
  assert.deepEqual(
    JSON.parse(JSON.stringify(missing.data)),
    { books: { read: null } },
    "a failing leaf nulls its own field only",
  );
  const invalid = await client.books.add({ title: "", author: "x" }).catch((e) => e);
  assert.equal(invalid.errors[0].extensions?.code, "BAD_USER_INPUT");

  const partial = createGraphQLClient(
    api({
      items: op(() => [{ id: "1", note: null }], { tags: { readOnly: true } }),
      broken: op(() => {
        throw new HttpError(409, "busy");
      }, { tags: { readOnly: true }, output: z.string().nullable() }),
    }),
    {
      transport: {
        request: () =>
          Promise.resolve({
            data: { broken: null },
            errors: [{ message: "busy", path: ["broken"], extensions: { code: "CONFLICT" } }],
          }),
        subscribe: () => {
          throw new Error("unused");
        },
      },
    },
  );
  const error = await partial.broken().catch((e) => e);
  assert.ok(error instanceof GraphQLClientError);
  assert.deepEqual(error.data, { broken: null });
});

Deno.test("graphql client: subscriptions are async iterables; leaving ends the stream", async () => {
  let closed = false;
  const tree = api({
    clock: api({
      ticks: op(async function* ({ count }) {
        try {
          for (let i = 1; i <= count; i++) yield { n: i };
          await new Promise(() => {});
        } finally {
          closed = true;
        }
      }, {
        tags: { streaming: true },
        input: z.object({ count: z.number().int() }),
        output: z.object({ n: z.number().int() }),
      }),
    }),
  });
  const client = createGraphQLClient(tree, {
    transport: serverTransport(createGraphQLServer(tree)),
  });
  const seen: unknown[] = [];
  for await (const tick of await client.clock.ticks({ count: 3 })) {
    seen.push(tick);
    if (seen.length === 3) break;
  }
  assert.deepEqual(seen, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.ok(closed);
});

Deno.test("graphql client: renamed properties and unions come back in the tree's spelling", async () => {
  const Cat = z.object({ kind: z.literal("cat"), "lives-left": z.number().int() }).meta({
    title: "Cat",
  });
  const Dog = z.object({ kind: z.literal("dog"), "good-boy": z.boolean() }).meta({ title: "Dog" });
  const tree = api({
    pets: api({
      list: op(
        () => [{ kind: "cat" as const, "lives-left": 9 }, {
          kind: "dog" as const,
          "good-boy": true,
        }],
        {
          tags: { readOnly: true },
          output: z.array(z.union([Cat, Dog])),
        },
      ),
      add: op((input) => ({ kind: "cat" as const, "lives-left": input["lives-left"] }), {
        input: z.object({ "lives-left": z.number().int() }),
        output: Cat,
      }),
    }),
  });
  const client = createGraphQLClient(tree, {
    transport: serverTransport(createGraphQLServer(tree)),
  });
  assert.deepEqual(await client.pets.list(), [
    { kind: "cat", "lives-left": 9 },
    { kind: "dog", "good-boy": true },
  ]);
  assert.deepEqual(await client.pets.add({ "lives-left": 3 }), { kind: "cat", "lives-left": 3 });
});

Deno.test("buildDocument: full selection, bounded depth, cycles cut, unions with __typename", () => {
  type Category = { name: string; parent?: Category; children: Category[] };
  const Category: z.ZodType<Category> = z.object({
    name: z.string(),
    get parent() {
      return Category.optional();
    },
    get children() {
      return z.array(Category);
    },
  }).meta({ title: "Category" });
  const Shape = z.union([
    z.object({ kind: z.literal("circle"), r: z.number() }).meta({ title: "Circle" }),
    z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
  ]);
  const projection = projectGraphQL(api({
    shop: api({
      categories: api({
        read: op(() => ({ name: "a", children: [] }), {
          tags: { readOnly: true },
          input: z.object({ name: z.string() }),
          output: Category,
        }),
      }, {}),
    }),
    shapes: op(() => [], { tags: { readOnly: true }, output: z.array(Shape) }),
  }));
  const read = buildDocument(projection, projection.fields[0]);
  assert.equal(
    read.query,
    "query ShopCategoriesRead($name: String!) { shop { categories { read(name: $name) { name parent { name } children { name } } } } }",
  );
  assert.deepEqual(read.path, ["shop", "categories", "read"]);
  assert.equal(read.kind, "query");
  const shapes = buildDocument(projection, projection.fields[1]);
  assert.equal(
    shapes.query,
    "query Shapes { shapes { __typename ... on Circle { kind r } ... on Square { kind side } } }",
  );
  const shallow = buildDocument(projection, projection.fields[0], { maxDepth: 1 });
  assert.match(shallow.query, /read\(name: \$name\) \{ name \}/);
});

Deno.test("graphql client over a live server: httpTransport and wsTransport", async () => {
  const { createClient } = await import("graphql-ws");
  const { createWsHandler } = await import("@ramify/api/graphql/ws");
  const { createHttpGraphQLServer } = await import("@ramify/api/graphql");
  const { httpTransport, wsTransport } = await import("@ramify/api/graphql/client");
  let closed = 0;
  const tree = api({
    books: api({
      list: op(() => [{ id: "1", title: "Dune" }], { tags: { readOnly: true } }),
      add: op(({ title }) => ({ id: "2", title }), { input: z.object({ title: z.string() }) }),
      live: op(async function* ({ count }) {
        try {
          for (let i = 1; i <= count; i++) yield i;
        } finally {
          closed++;
        }
      }, {
        tags: { streaming: true },
        input: z.object({ count: z.number().int() }),
        output: z.number(),
      }),
    }),
  });
  const http = createHttpGraphQLServer(tree);
  const ws = createWsHandler(createGraphQLServer(tree));
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => request.headers.get("upgrade") === "websocket" ? ws(request) : http(request),
  );
  const url = `127.0.0.1:${server.addr.port}/graphql`;
  const socket = createClient({ url: `ws://${url}`, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const overHttp = createGraphQLClient(tree, {
      transport: httpTransport({ url: `http://${url}` }),
    });
    assert.deepEqual(await overHttp.books.list(), [{ id: "1", title: "Dune" }]);
    assert.deepEqual(await overHttp.books.add({ title: "Emma" }), { id: "2", title: "Emma" });
    const overWs = createGraphQLClient(tree, { transport: wsTransport(socket) });
    assert.deepEqual(await overWs.books.add({ title: "Kindred" }), { id: "2", title: "Kindred" });
    const events: number[] = [];
    for await (const n of await overWs.books.live({ count: 3 })) events.push(n);
    assert.deepEqual(events, [1, 2, 3]);
    assert.equal(closed, 1);
  } finally {
    await socket.dispose();
    await server.shutdown();
  }
});
