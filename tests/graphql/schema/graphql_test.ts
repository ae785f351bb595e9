// The GraphQL projection on the spec's bookstore and purpose-built trees:
// placement of fields, names, arguments, collisions, execution through the
// server, validation, error masking and mapping, limits, subscriptions.
import assert from "node:assert/strict";
import { buildSchema, graphql, GraphQLError, type GraphQLObjectType } from "graphql";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { api, LeafError, op } from "@ramify/api/tree";
import { HttpError } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import {
  createGraphQLServer,
  createResolver,
  graphqlErrors,
  projectGraphQL,
  toSchema,
  toSDL,
} from "@ramify/api/graphql";
import { z } from "zod";
import { bookstoreTree } from "../../support/bookstore.ts";
import { bookstore, MemoryBookStore } from "../../../examples/bookstore.ts";

/** graphql-js results hold null-prototype objects; compare them as plain JSON. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

const fieldsOf = (sdl: string, type: string) => {
  const object = buildSchema(sdl).getType(type) as GraphQLObjectType | undefined;
  if (object === undefined) return undefined;
  return Object.fromEntries(
    Object.values(object.getFields()).map((f) => [
      f.name,
      `${f.args.map((a) => `${a.name}: ${a.type}`).join(", ")} -> ${f.type}`,
    ]),
  );
};

Deno.test("bookstore: read leaves in BooksQuery and CatalogQuery, the rest flat mutations", () => {
  const sdl = toSDL(bookstoreTree());
  assert.deepEqual(fieldsOf(sdl, "Query"), {
    books: " -> BooksQuery!",
    catalog: " -> CatalogQuery!",
  });
  assert.deepEqual(fieldsOf(sdl, "BooksQuery"), {
    list: " -> JSON",
    read: "bookId: ID!, input: JSON -> JSON",
  });
  assert.deepEqual(fieldsOf(sdl, "CatalogQuery"), {
    featured: " -> JSON",
    search: " -> JSON",
  });
  assert.deepEqual(fieldsOf(sdl, "Mutation"), {
    booksAdd: "input: JSON -> JSON",
    booksReplace: "bookId: ID!, input: JSON -> JSON",
    booksRemove: "bookId: ID! -> JSON",
    booksCheckoutStart: "bookId: ID! -> JSON",
    booksCheckoutReserve: "bookId: ID! -> JSON",
  });
  assert.equal(fieldsOf(sdl, "Subscription"), undefined);
});

Deno.test("query or mutation: readOnly decides; untagged leaves by read-like names", () => {
  const { fields } = projectGraphQL(api({
    list: op(() => 1),
    getBook: op(() => 1),
    getter: op(() => 1),
    countAll: op(() => 1),
    searchable: op(() => 1),
    fetch: op(() => 1, { tags: { readOnly: true } }),
    read: op(() => 1, { tags: { readOnly: false } }),
    find: op(() => 1, http.post),
    ticks: op(async function* () {}, { tags: { streaming: true, readOnly: true } }),
  }));
  assert.deepEqual(Object.fromEntries(fields.map((f) => [f.steps[0].name, f.kind])), {
    list: "query",
    getBook: "query",
    getter: "mutation",
    countAll: "query",
    searchable: "mutation",
    fetch: "query",
    read: "mutation",
    find: "query",
    ticks: "subscription",
  });
});

Deno.test("namespaces nest; mutation and subscription names join the path in camelCase", () => {
  const tree = api({
    shop: api({
      books: api({
        list: op(() => []),
        add: op(() => 1),
        live: op(async function* () {}, { tags: { streaming: true } }),
      }),
    }),
  });
  const sdl = toSDL(tree);
  assert.deepEqual(fieldsOf(sdl, "Query"), { shop: " -> ShopQuery!" });
  assert.deepEqual(fieldsOf(sdl, "ShopQuery"), { books: " -> ShopBooksQuery!" });
  assert.deepEqual(fieldsOf(sdl, "ShopBooksQuery"), { list: " -> JSON" });
  assert.deepEqual(Object.keys(fieldsOf(sdl, "Mutation")!), ["shopBooksAdd"]);
  assert.deepEqual(Object.keys(fieldsOf(sdl, "Subscription")!), ["shopBooksLive"]);
});

Deno.test("fallbacks add arguments to every field beneath, not names or levels", () => {
  const tree = api({
    orgs: api({}, {
      fallback: {
        name: "org",
        subtree: api({
          read: op(() => 1, { tags: { readOnly: true } }),
          repos: api({}, {
            fallback: {
              name: "repo",
              subtree: api({
                read: op(() => 1, {
                  tags: { readOnly: true },
                  input: z.object({ repo: z.number().int().min(0).max(1000), full: z.boolean() }),
                }),
                archive: op(() => 1),
              }),
            },
          }),
        }),
      },
    }),
  });
  const sdl = toSDL(tree);
  assert.deepEqual(fieldsOf(sdl, "OrgsQuery"), {
    repos: " -> OrgsReposQuery!",
    read: "org: ID! -> JSON",
  });
  assert.deepEqual(fieldsOf(sdl, "OrgsReposQuery"), {
    read: "repo: Int!, full: Boolean!, org: ID! -> JSON",
  });
  assert.deepEqual(fieldsOf(sdl, "Mutation"), {
    orgsReposArchive: "org: ID!, repo: ID! -> JSON",
  });
});

Deno.test("two leaves on one GraphQL name are an error naming both", () => {
  assert.throws(
    () =>
      projectGraphQL(api({
        books: api({ read: op(() => 1, http.get) }, {
          fallback: { name: "id", subtree: api({ read: op(() => 1, http.get) }) },
        }),
      })),
    /books\/read and books\/\{id\}\/read both project to BooksQuery\.read/,
  );
  assert.throws(
    () => projectGraphQL(api({ booksAdd: op(() => 1), books: api({ add: op(() => 1) }) })),
    /booksAdd and books\/add both project to Mutation\.booksAdd/,
  );
  const both = {
    handler: () => 1,
    meta: { tags: { readOnly: true } },
    children: { list: op(() => []) },
  };
  assert.throws(
    () => projectGraphQL(api({ books: both })),
    /books and the branch books both project to Query\.books/,
  );
});

Deno.test("a fallback name that cannot be a GraphQL argument name is refused", () => {
  assert.throws(
    () =>
      projectGraphQL(
        api({}, { fallback: { name: "book-id", subtree: api({ read: op(() => 1) }) } }),
      ),
    /"book-id" in \{book-id\}\/read is not a GraphQL name/,
  );
});

Deno.test("the example bookstore executes: queries, captures, mutations, void results", async () => {
  const server = createGraphQLServer(
    bookstore(new MemoryBookStore([{ title: "Dune", author: "Frank" }])),
  );
  const read = await server.execute({
    query: "query ($id: String!) { books { read(bookId: $id) { id title } list { title } } }",
    variables: { id: "1" },
  });
  assert.deepEqual(plain(read), {
    data: { books: { read: { id: "1", title: "Dune" }, list: [{ title: "Dune" }] } },
  });
  const added = await server.execute({
    query: 'mutation { booksAdd(title: "Emma", author: "Austen") { id title } }',
  });
  assert.deepEqual(plain(added), { data: { booksAdd: { id: "2", title: "Emma" } } });
  const search = await server.execute({
    query: '{ catalog { search(q: "em", limit: 5) { title } } }',
  });
  assert.deepEqual(plain(search), { data: { catalog: { search: [{ title: "Emma" }] } } });
});

Deno.test("a leaf without an input schema takes one free-form input, merged with its captures", async () => {
  const tree = api({
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          update: op((input: Record<string, unknown>) => ({ echoed: input })),
          touch: op(() => "touched"),
        }),
      },
    }),
  });
  const server = createGraphQLServer(tree);
  assert.deepEqual(fieldsOf(server.sdl, "Mutation"), {
    itemsUpdate: "id: ID!, input: JSON -> JSON",
    // A handler that declares no parameter reads nothing: no free-form argument.
    itemsTouch: "id: ID! -> JSON",
  });
  const bare = await server.execute({ query: 'mutation { itemsUpdate(id: "7") }' });
  assert.deepEqual(plain(bare), { data: { itemsUpdate: { echoed: { id: "7" } } } });
  // The capture wins over the input's key of its name; own keys only.
  const merged = await server.execute({
    query: 'mutation { itemsUpdate(id: "7", input: { a: 1, id: "9", __proto__: { x: 1 } }) }',
  });
  assert.deepEqual(plain(merged), {
    data: { itemsUpdate: { echoed: { a: 1, id: "7", ["__proto__"]: { x: 1 } } } },
  });
  const notObject = await server.execute({ query: 'mutation { itemsUpdate(id: "7", input: 3) }' });
  assert.equal(notObject.errors?.[0].extensions?.code, "BAD_USER_INPUT");
  const refused = await server.execute({
    query: 'mutation { itemsTouch(id: "7", input: { a: 1 }) }',
  });
  assert.equal(refused.data, undefined, "no such argument: refused before it runs");
  assert.match(refused.errors?.[0].message ?? "", /Unknown argument "input"/);
});

Deno.test("input validation failures are BAD_USER_INPUT with issues", async () => {
  const server = createGraphQLServer(bookstore());
  const result = await server.execute({
    query: 'mutation { booksAdd(title: "", author: "x") { id } }',
  });
  assert.equal(result.errors?.[0].extensions?.code, "BAD_USER_INPUT");
  assert.deepEqual(
    (result.errors?.[0].extensions?.issues as { path: string[] }[]).map((i) => i.path),
    [["title"]],
  );
});

Deno.test("unmapped handler errors are masked; graphqlErrors maps by name, code and function", async () => {
  class NotFound extends Error {}
  const seen: unknown[] = [];
  const tree = api({
    crash: op(() => {
      throw new Error("database password is hunter2");
    }),
    missing: op(() => {
      throw new NotFound("no such book");
    }),
    limited: op(() => {
      throw Object.assign(new Error("raw"), { code: "E_RATE" });
    }),
    custom: op(() => {
      throw new RangeError("too far");
    }),
    http: op(() => {
      throw new HttpError(409, "already reserved");
    }),
    // Declared errors are the tree's: a mapping never changes them.
    declared: op(() => {
      throw new LeafError("RESERVED", {
        message: "reserved until Friday",
        data: { until: "Friday" },
      });
    }, { errors: { RESERVED: { status: 409 } } }),
  });
  const server = createGraphQLServer(tree, {
    onError: (error) => seen.push(error),
    errors: graphqlErrors({
      NotFound: "NOT_FOUND",
      E_RATE: { code: "RATE_LIMITED", message: "Slow down", extensions: { retryAfter: 5 } },
      RESERVED: "NEVER_USED",
      HttpError: "NEVER_USED",
      RangeError: (error) =>
        new GraphQLError(`mapped: ${(error as Error).message}`, {
          extensions: { code: "OUT_OF_RANGE" },
        }),
    }),
  });
  const result = await server.execute({
    query: "mutation { crash missing limited custom http declared }",
  });
  const byPath = Object.fromEntries(
    (result.errors ?? []).map((e) => [e.path?.[0], [e.message, e.extensions]]),
  );
  assert.deepEqual(byPath.crash, ["Unexpected error.", { code: "INTERNAL_SERVER_ERROR" }]);
  assert.deepEqual(byPath.missing, ["no such book", { code: "NOT_FOUND" }]);
  assert.deepEqual(byPath.limited, ["Slow down", { retryAfter: 5, code: "RATE_LIMITED" }]);
  assert.deepEqual(byPath.custom, ["mapped: too far", { code: "OUT_OF_RANGE" }]);
  assert.deepEqual(byPath.http, ["already reserved", { code: "CONFLICT", status: 409 }]);
  assert.deepEqual(byPath.declared, ["reserved until Friday", {
    code: "RESERVED",
    status: 409,
    data: { until: "Friday" },
  }]);
  assert.ok(!JSON.stringify(result).includes("hunter2"));
  assert.equal(seen.length, 1, "only the masked crash is observed");
});

Deno.test("the SDL and resolver map work in a standard executor (makeExecutableSchema)", async () => {
  const store = new MemoryBookStore([{ title: "Dune", author: "Frank" }]);
  const tree = bookstore(store);
  const schema = makeExecutableSchema({ typeDefs: toSDL(tree), resolvers: createResolver(tree) });
  const result = await graphql({
    schema,
    source: 'mutation { booksReplace(bookId: "1", title: "Dune II", author: "Frank") { title } }',
  });
  assert.deepEqual(JSON.parse(JSON.stringify(result)), {
    data: { booksReplace: { title: "Dune II" } },
  });
  const read = await graphql({ schema, source: '{ books { read(bookId: "1") { title } } }' });
  assert.deepEqual(JSON.parse(JSON.stringify(read)), {
    data: { books: { read: { title: "Dune II" } } },
  });
});

Deno.test("toSchema gives the same answers as the server", async () => {
  const tree = bookstore(new MemoryBookStore([{ title: "Dune", author: "Frank" }]));
  const schema = toSchema(projectGraphQL(tree));
  const result = await graphql({ schema, source: "{ books { list { title } } }" });
  assert.deepEqual(JSON.parse(JSON.stringify(result)), {
    data: { books: { list: [{ title: "Dune" }] } },
  });
});

Deno.test("limits: depth, aliases, selections, tokens, introspection switch", async () => {
  type Node = { name: string; children: Node[] };
  const NodeSchema: z.ZodType<Node> = z.object({
    name: z.string(),
    get children() {
      return z.array(NodeSchema);
    },
  }).meta({ title: "TreeNode" });
  const tree = api({
    root: op(() => ({ name: "r", children: [] }), http.get, { output: NodeSchema }),
  });
  const server = createGraphQLServer(tree, {
    introspection: false,
    limits: { maxDepth: 4, maxAliases: 2, maxFields: 50, maxTokens: 200 },
  });
  const deep = await server.execute({
    query: "{ root { children { children { children { children { name } } } } } }",
  });
  assert.match(deep.errors?.[0].message ?? "", /nests deeper than 4 levels/);
  const aliased = await server.execute({
    query: "{ a: root { name } b: root { name } c: root { name } }",
  });
  assert.match(aliased.errors?.[0].message ?? "", /more than 2 aliases/);
  const bomb = await server.execute({
    query: `{ ...A } fragment A on Query { ...B ...B } fragment B on Query { ...C ...C }
      fragment C on Query { ...D ...D } fragment D on Query { ...E ...E }
      fragment E on Query { ...F ...F } fragment F on Query { root { name } }`,
  });
  assert.match(bomb.errors?.[0].message ?? "", /more than 50 selections/);
  const long = await server.execute({ query: `{ ${"root { name } ".repeat(100)} }` });
  assert.match(long.errors?.[0].message ?? "", /token/i);
  const introspect = await server.execute({ query: "{ __schema { types { name } } }" });
  assert.match(introspect.errors?.[0].message ?? "", /Introspection is disabled/);
  assert.deepEqual(plain((await server.execute({ query: "{ root { name } }" })).data), {
    root: { name: "r" },
  });
});

Deno.test("parsed documents are cached and reused", () => {
  const server = createGraphQLServer(api({ ping: op(() => 1, http.get) }), {
    documentCacheSize: 2,
  });
  const first = server.prepare("{ ping }");
  assert.equal(server.prepare("{ ping }"), first);
  server.prepare("{ a: ping }");
  server.prepare("{ b: ping }");
  assert.notEqual(server.prepare("{ ping }"), first, "evicted beyond the cache size");
  assert.ok("errors" in server.prepare("{ nope }"));
});

Deno.test("subscriptions: events in order, and completing closes the generator", async () => {
  let closed = false;
  const tree = api({
    count: op(async function* ({ to }) {
      try {
        for (let i = 1; i <= to; i++) yield i;
        await new Promise(() => {});
      } finally {
        closed = true;
      }
    }, {
      tags: { streaming: true },
      input: z.object({ to: z.number().int() }),
      output: z.number(),
    }),
  });
  const server = createGraphQLServer(tree);
  const stream = await server.subscribe({ query: "subscription { count(to: 3) }" });
  assert.ok(Symbol.asyncIterator in stream);
  const iterator = (stream as AsyncIterable<{ data?: unknown }>)[Symbol.asyncIterator]();
  const values = [];
  for (let i = 0; i < 3; i++) values.push((await iterator.next()).value.data);
  assert.deepEqual(plain(values), [{ count: 1 }, { count: 2 }, { count: 3 }]);
  await iterator.return?.();
  assert.ok(closed);
});

Deno.test("properties renamed to be GraphQL names keep their own names for the handler", async () => {
  const Address = z.object({ "zip-code": z.string() });
  const tree = api({
    people: api({
      add: op((input) => ({ "first-name": input["first-name"], address: input.address }), {
        input: z.object({ "first-name": z.string(), address: Address }),
        output: z.object({ "first-name": z.string(), address: Address }).meta({ title: "Person" }),
      }),
    }),
  });
  const server = createGraphQLServer(tree);
  assert.match(server.sdl, /peopleAdd\(firstName: String!, address: .*!\): Person$/m);
  const result = await server.execute({
    query:
      'mutation { peopleAdd(firstName: "Ada", address: { zipCode: "N1" }) { firstName address { zipCode } } }',
  });
  assert.deepEqual(plain(result), {
    data: { peopleAdd: { firstName: "Ada", address: { zipCode: "N1" } } },
  });
});

Deno.test("a document nested beyond the engine's stack is a clean error, not the engine's", async () => {
  const server = createGraphQLServer(api({ ping: op(() => 1, http.get) }), {
    limits: { maxTokens: 1_000_000 },
  });
  const deep = `{ ping(input: ${"[".repeat(20_000)}${"]".repeat(20_000)}) }`;
  const result = await server.execute({ query: deep });
  assert.equal(result.errors?.length, 1);
  assert.doesNotMatch(JSON.stringify(result), /stack|RangeError/i);
});

Deno.test("the document cache is bounded by estimated memory (64 bytes a character) as well as count", () => {
  const server = createGraphQLServer(api({ ping: op(() => 1, http.get) }), {
    documentCacheBytes: 40 * 64,
  });
  const first = "{ ping } # 25 characters."; // 25 characters
  const second = "{ p: ping } # 25 chars..";
  const a = server.prepare(first);
  assert.equal(server.prepare(first), a);
  server.prepare(second);
  assert.notEqual(server.prepare(first), a, "evicted by size");
  const huge = `{ ping } #${"x".repeat(100)}`;
  assert.notEqual(server.prepare(huge), server.prepare(huge), "too large to cache at all");
});
