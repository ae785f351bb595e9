// Type tests of the typed HTTP client: inference of inputs and outputs through
// branches and fallbacks. Checked by `deno test` (type checking), run trivially.
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { crud } from "@ramify/api/http/dx";
import { createClient, createFetch } from "@ramify/api/http";
import type { Client } from "@ramify/api/client";
import { createTasks } from "@ramify/api/tasks";
import { z } from "zod";
import { bookstore } from "../../examples/bookstore.ts";
import { assertType, type Equal } from "../support/types.ts";

const tree = bookstore();
const client = createClient(tree, { fetch: createFetch(tree, { tasks: createTasks() }) });
type Book = { id: string; title: string; author: string; year?: number | undefined };

Deno.test("types: leaf inputs and outputs come from the schemas", () => {
  assertType<Equal<Awaited<ReturnType<typeof client.books.list>>, Book[]>>(true);
  assertType<Equal<Parameters<typeof client.books.add>[0], Omit<Book, "id">>>(true);
  assertType<Equal<Awaited<ReturnType<typeof client.books.add>>, Book>>(true);
  const _call = () => {
    // @ts-expect-error author is required
    client.books.add({ title: "x" });
    // @ts-expect-error year must be a number
    client.books.add({ title: "x", author: "y", year: "1999" });
    // @ts-expect-error no such leaf
    client.books.purge();
  };
});

Deno.test("types: a fallback takes a string and types its subtree without the capture", () => {
  const book = client.books.bookId("1");
  assertType<Equal<Awaited<ReturnType<typeof book.read>>, Book>>(true);
  // The capture is not asked for again: read needs no input at all.
  assertType<
    Equal<Parameters<typeof book.read>[0], Omit<{ bookId: string }, "bookId"> | undefined>
  >(
    true,
  );
  assertType<Equal<Parameters<typeof book.replace>[0], Omit<Book, "id">>>(true);
  assertType<Equal<Awaited<ReturnType<typeof book.remove>>, undefined>>(true);
  const _call = () => {
    // @ts-expect-error the capture is a string
    client.books.bookId(1);
    // @ts-expect-error checkout has no leaf named cancel
    book.checkout.cancel();
  };
});

Deno.test("types: schema-typed leaves, optional inputs, streams, nested fallbacks", () => {
  const t = api({
    plain: op(() => 42, http.get),
    typed: op(({ a, b }) => ({ sum: a, b }), {
      input: z.object({ a: z.number(), b: z.string().optional() }),
    }),
    ticks: op(async function* () {
      yield { n: 1 };
    }, { tags: { streaming: true, readOnly: true } }),
    orgs: api({}, {
      fallback: {
        name: "org",
        subtree: api({
          members: api({}, {
            fallback: {
              name: "user",
              subtree: api({
                read: op(({ org, user, full }) => ({ org, user, full }), {
                  input: z.object({
                    org: z.string(),
                    user: z.string(),
                    full: z.boolean().optional(),
                  }),
                }),
              }),
            },
          }),
        }),
      },
    }),
  });
  const c = createClient(t);
  assertType<Equal<Awaited<ReturnType<typeof c.plain>>, number>>(true);
  // What arrives is the JSON form: a key holding undefined is left out.
  assertType<Equal<Awaited<ReturnType<typeof c.typed>>, { sum: number; b?: string }>>(true);
  assertType<Equal<Awaited<ReturnType<typeof c.ticks>>, AsyncIterable<{ n: number }>>>(true);
  const read = c.orgs.org("acme").members.user("ann").read;
  assertType<
    Equal<
      Parameters<typeof read>[0],
      Omit<{ org: string; user: string; full?: boolean }, "org" | "user"> | undefined
    >
  >(true);
  assertType<
    Equal<
      Awaited<ReturnType<typeof read>>,
      { org: string; user: string; full?: boolean }
    >
  >(true);
  const _call = () => {
    // @ts-expect-error a is required
    c.typed({ b: "x" });
    // @ts-expect-error a is a number
    c.typed({ a: "1" });
    c.plain();
    c.plain(undefined, { headers: { "x-a": "1" } });
  };
});

Deno.test("types: crud resources and Client<T> agree", () => {
  const t = api({
    notes: crud({
      list: op(() => [{ id: "1", text: "hi" }], {
        output: z.array(z.object({ id: z.string(), text: z.string() })),
      }),
      read: ({ id }: { id: string }) => ({ id, text: "hi" }),
      remove: (_input: { force?: boolean }) => undefined,
    }),
  });
  const c: Client<typeof t> = createClient(t);
  assertType<Equal<Awaited<ReturnType<typeof c.notes.list>>, { id: string; text: string }[]>>(true);
  assertType<
    Equal<Awaited<ReturnType<ReturnType<typeof c.notes.id>["read"]>>, { id: string; text: string }>
  >(true);
  const _call = () => {
    // @ts-expect-error crud was given no add
    c.notes.add();
    c.notes.id("1").read();
    c.notes.id("1").remove();
    // @ts-expect-error a bare handler has no input schema: no input beyond its capture
    c.notes.id("1").read({ id: "2" });
    // @ts-expect-error a bare handler has no input schema, whatever its parameter says
    c.notes.id("1").remove({ force: true });
    // @ts-expect-error a branch without a fallback has no other names
    c.notebooks;
  };
});

Deno.test("types: without an output schema, clients are typed with the JSON form of the result", () => {
  const t = api({
    stamp: op(() => ({ at: new Date(), note: undefined as string | undefined, run: () => 1 })),
    list: op(() => [new Date(), undefined, () => 1]),
    items: op(async function* () {
      yield { at: new Date() };
    }, { tags: { streaming: true } }),
    nothing: op(() => undefined),
    anything: op((): unknown => 1),
  });
  const c = createClient(t, { baseUrl: "http://localhost" });
  assertType<Equal<Awaited<ReturnType<typeof c.stamp>>, { at: string; note?: string }>>(true);
  assertType<Equal<Awaited<ReturnType<typeof c.list>>, (string | null)[]>>(true);
  assertType<Equal<Awaited<ReturnType<typeof c.items>>, AsyncIterable<{ at: string }>>>(true);
  assertType<Equal<Awaited<ReturnType<typeof c.nothing>>, undefined>>(true);
  assertType<Equal<Awaited<ReturnType<typeof c.anything>>, unknown>>(true);
  const _call = async () => {
    // @ts-expect-error a Date arrives as a string
    (await c.stamp()).at.getTime();
  };
});
