/**
 * The tree, requests and minimal handlers the GraphQL benchmarks share
 * (`graphql.bench.ts` for time, `graphql_count.ts` and `graphql_serve_count.ts`
 * for instructions): a bookstore of 20 books, four POST requests as the wire
 * delivers them (a body of bytes with its `Content-Length`, for every
 * contender alike), ours, a bare graphql-jit handler (parses and compiles each
 * document once, cached by its text, no validation, limits or protocol checks;
 * answers `JSON.stringify` of the result) and "base" (`request.json()`, our
 * `server.execute`, a one-header Response: our executor without GraphQL over
 * HTTP).
 *
 * @module
 */

import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { parse } from "graphql";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLServer,
  createHttpGraphQLServer,
  projectGraphQL,
  toSchema,
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

/** The bookstore every contender serves. */
export const tree = api({
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

/** A fetch handler. */
export type Handler = (request: Request) => Promise<Response>;

/** Ours: `createHttpGraphQLServer`, every protocol rule and limit on. */
export const ours: Handler = createHttpGraphQLServer(tree, { onError: () => {} });

const jitSchema = toSchema(projectGraphQL(tree));
const jitCache = new Map<string, CompiledQuery>();
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** The bare graphql-jit handler. */
export const jit: Handler = async (request) => {
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

const server = createGraphQLServer(tree, { onError: () => {} });

/** Our executor without GraphQL over HTTP: `request.json()`, `server.execute`, one header. */
export const base: Handler = async (request) => {
  const { query, variables, operationName } = await request.json();
  const result = await server.execute({ query, variables, operationName, context: { request } });
  return new Response(JSON.stringify(result), { headers: JSON_HEADERS });
};

const HEADERS = {
  "content-type": "application/json",
  accept: "application/graphql-response+json, application/json",
};

// Each Request as the wire delivers it, for every contender alike: a body of
// bytes with its Content-Length. (A Request made in memory from a string has no
// length, and its text must be encoded before its bytes can be read, which a
// served request never pays.)
const post = (payload: unknown) => {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  const headers = { ...HEADERS, "content-length": String(bytes.byteLength) };
  return () => new Request("http://localhost/graphql", { method: "POST", headers, body: bytes });
};

/** The four requests, each a maker of a fresh `Request`. */
export const cases: Record<string, () => Request> = {
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

/**
 * Prints a Markdown table of `count` (instructions per request) for each
 * request and contender, with ours against each other contender.
 */
export async function countTable(
  contenders: readonly string[],
  count: (who: string, name: string) => Promise<number>,
): Promise<void> {
  const others = contenders.filter((who) => who !== "ours");
  const heads = [
    ...contenders.map((who) => `${who} instr/req`),
    ...others.map((who) => `ours / ${who}`),
  ];
  console.log(`| request | ${heads.join(" | ")} |`);
  console.log(`| --- |${" --: |".repeat(heads.length)}`);
  for (const name of Object.keys(cases)) {
    const byWho: Record<string, number> = {};
    for (const who of contenders) byWho[who] = await count(who, name);
    const cells = contenders.map((who) => Math.round(byWho[who]).toLocaleString("en-US"));
    const ratios = others.map((who) =>
      byWho.ours === undefined ? "" : `${(byWho.ours / byWho[who]).toFixed(2)}x`
    );
    console.log(`| ${name} | ${[...cells, ...ratios].join(" | ")} |`);
  }
}
