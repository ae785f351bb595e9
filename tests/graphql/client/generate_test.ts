// The generated client module: written to disk, type-checked on its own (no
// imports, no config), then used against a live server. The bookstore has a
// long-running leaf: its module carries its own task runtime, and still
// imports nothing (generate_tasks_test.ts covers those calls).
import assert from "node:assert/strict";
import { assertChecksStandalone } from "../../support/standalone.ts";
import {
  createHttpGraphQLServer,
  generateGraphQLClient,
  toGraphQLClientManifest,
  toSDL,
} from "@ramify/api/graphql";
import { api, op } from "@ramify/api/tree";
import { z } from "zod";
import { bookstore, MemoryBookStore } from "../../../examples/bookstore.ts";

Deno.test("the generated client type-checks standalone and calls a live server", async () => {
  const tree = bookstore(new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]));
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-" });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createHttpGraphQLServer(tree),
  );
  try {
    const source = generateGraphQLClient(tree);
    assert.doesNotMatch(source, /^\s*import\b|\bfrom\s+["']|\bimport\(/m);
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    await Deno.writeTextFile(`${dir}/use.ts`, USE_PROGRAM);
    await assertChecksStandalone(`${dir}/use.ts`);
    const { run } = await import(`file://${dir}/use.ts`);
    assert.deepEqual(await run(`http://127.0.0.1:${server.addr.port}/graphql`), {
      listed: ["Dune"],
      added: { id: "2", title: "Emma", author: "Austen" },
      read: "Emma",
      replaced: "Jane Austen",
      searched: 1,
      removed: undefined,
      failed: "NOT_FOUND",
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the generated module declares every input and output type and the documents", () => {
  const source = generateGraphQLClient(api({
    shapes: api({
      draw: op(() => ({ kind: "circle" as const, r: 1 }), {
        input: z.object({ kind: z.enum(["circle", "square"]), size: z.number() }),
        output: z.union([
          z.object({ kind: z.literal("circle"), r: z.number() }).meta({ title: "Circle" }),
          z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
        ]),
      }),
      live: op(async function* () {
        yield 1;
      }, { tags: { streaming: true }, output: z.number() }),
    }),
  }));
  assert.match(source, /export interface Circle \{/);
  assert.match(source, /export type ShapesDrawResult = .*;/);
  assert.match(source, /export interface ShapesDrawVariables \{\n {2}kind: /);
  assert.match(source, /ShapesDraw: "mutation ShapesDraw\(/);
  assert.match(source, /AsyncIterable<ShapesLiveResult>/);
  assert.doesNotMatch(source, /^import /m);
});

// What a front end would write with the generated module; type errors fail the check.
const USE_PROGRAM = `
import { createClient, GraphQLClientError, httpTransport } from "./client.ts";

export async function run(url: string) {
  const client = createClient(httpTransport(url));
  const listed = (await client.books.list()).map((book) => book.title);
  const added = await client.books.add({ title: "Emma", author: "Austen" });
  const read = (await client.books.bookId(added.id).read()).title;
  const replaced = (await client.books.bookId(added.id).replace({ title: "Emma", author: "Jane Austen" })).author;
  const searched = (await client.catalog.search({ q: "emma" })).length;
  // @ts-expect-error author is required
  client.books.add({ title: "x" }).catch(() => {});
  const removed = await client.books.bookId(added.id).remove();
  const failed = await client.books.bookId("404").read().then(
    () => "no error",
    (error: unknown) => error instanceof GraphQLClientError ? String(error.errors[0].extensions?.code) : "other",
  );
  return { listed, added, read, replaced, searched, removed, failed };
}
`;

Deno.test("the generated module type-checks with unnamed outputs; union members are told apart by literal types", async () => {
  const Shape = z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("circle"), r: z.number() }).meta({ title: "Circle" }),
    z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
  ]);
  const source = generateGraphQLClient(api({
    shapes: op(() => [], { tags: { readOnly: true }, output: z.array(Shape) }),
    point: op(() => ({ x: 1 }), { tags: { readOnly: true }, output: z.object({ x: z.number() }) }),
  }));
  assert.match(source, /export interface Circle \{\n {2}kind: "circle";/);
  assert.match(source, /export type ShapesResult = Circle \| Square;/);
  assert.match(source, /export type ShapesResponse = Array<ShapesResult>;/);
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    await Deno.writeTextFile(
      `${dir}/use.ts`,
      `import type { ShapesResponse } from "./client.ts";
export function area(shapes: ShapesResponse): number {
  let total = 0;
  for (const shape of shapes) total += shape.kind === "circle" ? shape.r * shape.r * 3 : shape.side * shape.side;
  return total;
}
`,
    );
    await assertChecksStandalone(`${dir}/use.ts`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an empty input schema has no arguments, no schema one free-form input: in the SDL, the manifest and the generated client", async () => {
  const tree = api({
    me: op((_input, ctx) => ctx.user, { tags: { readOnly: true }, input: z.object({}) }),
    echo: op((input: Record<string, unknown>) => input),
  });
  assert.match(toSDL(tree), /^ {2}me: JSON$/m);
  assert.match(toSDL(tree), /^ {4}input: JSON\n {2}\): JSON$/m);
  const [operation, echo] = toGraphQLClientManifest(tree).operations;
  assert.deepEqual([operation.query, operation.args], ["query Me { me }", []]);
  assert.deepEqual(echo.args, [{ name: "input", type: "JSON", spread: true }]);
  const source = generateGraphQLClient(tree);
  assert.match(source, /"me": \(\): GraphQLCall<MeResult> =>/);
  assert.doesNotMatch(source, /MeVariables/);
  assert.match(source, /export type EchoVariables = Record<string, unknown>;/);

  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-" });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createHttpGraphQLServer(tree, {
      context: ({ request }) => ({ user: request.headers.get("x-user") }),
    }),
  );
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    await Deno.writeTextFile(
      `${dir}/use.ts`,
      `import { createClient, httpTransport } from "./client.ts";

export async function run(url: string) {
  const client = createClient(httpTransport(url, { headers: { "x-user": "ada" } }));
  // @ts-expect-error the leaf takes no input
  client.me({ user: "mallory" }).catch(() => {});
  return [await client.me(), await client.echo({ a: 1, n: { b: [2] } }), await client.echo()];
}
`,
    );
    await assertChecksStandalone(`${dir}/use.ts`);
    const { run } = await import(`file://${dir}/use.ts`);
    assert.deepEqual(await run(`http://127.0.0.1:${server.addr.port}/graphql`), [
      "ada",
      { a: 1, n: { b: [2] } },
      {},
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
