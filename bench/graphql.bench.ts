/**
 * GraphQL over HTTP benchmark: our `createHttpGraphQLServer` against
 * graphql-yoga, a bare graphql-http handler and a minimal graphql-jit handler,
 * in process (each handler is called with a fresh `Request`; the response body
 * is read in full). All four serve one schema: yoga gets `toSDL(tree)` with
 * `createResolver(tree)`, graphql-http and graphql-jit get
 * `toSchema(projectGraphQL(tree))`, so the same resolvers run the same
 * handlers. The graphql-jit handler does no more than it must: it parses and
 * compiles each document once (cached by its text, no validation, no limits,
 * no protocol checks), runs it and answers `JSON.stringify` of the result. At
 * load time the file checks that all four answer every request with the same
 * body, and throws if not.
 *
 * Run with `deno task bench` or
 * `deno bench --allow-read --allow-env --allow-net=127.0.0.1 bench/graphql.bench.ts`.
 *
 * @module
 */

import { createSchema, createYoga } from "graphql-yoga";
import { createHandler } from "graphql-http/lib/use/fetch";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { parse } from "graphql";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import {
  createHttpGraphQLServer,
  createResolver,
  projectGraphQL,
  toSchema,
  toSDL,
} from "@ramify/api/graphql";

const Author = z.object({ id: z.string(), name: z.string(), born: z.int32() });
const Review = z.object({ stars: z.int32(), text: z.string() });
const Book = z.object({
  id: z.string(),
  title: z.string(),
  year: z.int32(),
  author: Author,
  reviews: z.array(Review),
});

const books = Array.from({ length: 20 }, (_, i) => ({
  id: String(i + 1),
  title: `Book ${i + 1}`,
  year: 1900 + i,
  author: { id: `a${i % 5}`, name: `Author ${i % 5}`, born: 1850 + i },
  reviews: Array.from({ length: 3 }, (_, j) => ({ stars: 1 + ((i + j) % 5), text: `Review ${j}` })),
}));
const byId = new Map(books.map((book) => [book.id, book]));

const tree = api({
  books: api({
    list: op(() => books, { tags: { readOnly: true }, output: z.array(Book) }),
    add: op(
      ({ title, year }: { title: string; year: number }) => ({
        ...books[0],
        id: "21",
        title,
        year,
      }),
      { input: z.object({ title: z.string(), year: z.int32() }), output: Book },
    ),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }: { bookId: string }) => byId.get(bookId) ?? null, {
          tags: { readOnly: true },
          output: Book.nullable(),
        }),
      }),
    },
  }),
  ping: op(() => "pong", { tags: { readOnly: true }, output: z.string() }),
});

type Handler = (request: Request) => Promise<Response>;

const ours: Handler = createHttpGraphQLServer(tree, { onError: () => {} });
const yoga = createYoga({
  schema: createSchema({ typeDefs: toSDL(tree), resolvers: createResolver(tree) }),
  graphqlEndpoint: "/graphql",
  logging: false,
  maskedErrors: true,
});
const yogaHandler: Handler = async (request) => await yoga.fetch(request);
const bare: Handler = createHandler({ schema: toSchema(projectGraphQL(tree)) });
const jitSchema = toSchema(projectGraphQL(tree));
const jitCache = new Map<string, CompiledQuery>();
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
const jit: Handler = async (request) => {
  const { query, variables, operationName } = await request.json();
  let compiled = jitCache.get(query);
  if (compiled === undefined) {
    const made = compileQuery(jitSchema, parse(query), operationName);
    if (!isCompiledQuery(made)) return new Response(JSON.stringify(made), { status: 400 });
    jitCache.set(query, compiled = made);
  }
  const result = await compiled.query(undefined, { request }, variables);
  return new Response(JSON.stringify(result), { headers: JSON_HEADERS });
};

const URL_ = "http://localhost/graphql";
const HEADERS = {
  "content-type": "application/json",
  accept: "application/graphql-response+json, application/json",
};

// With the Content-Length a client sends on the wire: a Request made in memory
// has none, and reading a body of unknown length is the slower, bounded path.
const post = (payload: unknown) => {
  const body = JSON.stringify(payload);
  const headers = { ...HEADERS, "content-length": String(new TextEncoder().encode(body).length) };
  return () => new Request(URL_, { method: "POST", headers, body });
};

const cases: Record<string, () => Request> = {
  "small query": post({ query: "{ ping }" }),
  "query with variables": post({
    query: "query Read($id: ID!) { books { read(bookId: $id) { id title year } } }",
    variables: { id: "7" },
    operationName: "Read",
  }),
  "mutation": post({
    query:
      "mutation Add($title: String!, $year: Int!) { booksAdd(title: $title, year: $year) { id title } }",
    variables: { title: "New", year: 2026 },
  }),
  "nested query (20 books, author, 3 reviews)": post({
    query: "{ books { list { id title year author { id name born } reviews { stars text } } } }",
  }),
};

const peers: Record<string, Handler> = {
  "ramify (ours)": ours,
  "graphql-yoga": yogaHandler,
  "graphql-http": bare,
  "graphql-jit": jit,
};

// Same answers from every server, or the comparison means nothing.
for (const [name, make] of Object.entries(cases)) {
  const bodies = new Map<string, string>();
  for (const [peer, handler] of Object.entries(peers)) {
    const response = await handler(make());
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${peer} ${name}: ${response.status} ${text}`);
    bodies.set(peer, JSON.stringify(JSON.parse(text)));
  }
  const distinct = new Set(bodies.values());
  if (distinct.size !== 1) {
    throw new Error(`${name}: the servers disagree:\n${[...bodies].join("\n")}`);
  }
}

for (const [name, make] of Object.entries(cases)) {
  for (const [peer, handler] of Object.entries(peers)) {
    Deno.bench({
      name: peer,
      group: name,
      baseline: handler === ours,
      async fn() {
        const response = await handler(make());
        await response.text();
      },
    });
  }
}
