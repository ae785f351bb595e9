import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { crud, httpProjection } from "@ramify/api/http/dx";
import { listOperations } from "@ramify/api/http";
import { z } from "zod";
import { assertType, type Equal } from "../../support/types.ts";
import type { InputOf, OutputOf } from "@ramify/api/tree";

const table = (tree: Parameters<typeof httpProjection>[0]) =>
  listOperations(httpProjection(tree)).map((o) => `${o.method} ${o.path}`);

Deno.test("crud: the five operations at the bookstore's positions", () => {
  const books = crud({
    list: () => [],
    add: (input: { title: string }) => input,
    read: ({ bookId }: { bookId: string }) => ({ bookId }),
    replace: ({ bookId }: { bookId: string }) => ({ bookId }),
    remove: () => undefined,
  }, { id: "bookId" });
  assert.deepEqual(table(api({ books })), [
    "GET /books/list",
    "POST /books/add",
    "GET /books/{bookId}",
    "PUT /books/{bookId}",
    "DELETE /books/{bookId}",
  ]);
});

Deno.test("crud: every operation optional; default id name", () => {
  assert.deepEqual(table(api({ notes: crud({ read: () => 1 }) })), ["GET /notes/{id}"]);
  assert.deepEqual(table(api({ notes: crud({ list: () => [] }) })), ["GET /notes/list"]);
  const empty = crud({});
  assert.equal(empty.fallback, undefined);
  assert.deepEqual(Object.keys(empty.children), []);
});

Deno.test("crud: a leaf made with op keeps its schema and meta; the convention sets the verb", () => {
  const input = z.object({ title: z.string() });
  const books = crud({
    add: op(({ title }) => ({ title }), { input, description: "Adds" }),
    remove: op(() => undefined, { description: "Removes", tags: { openWorld: true } }),
  });
  assert.equal(books.children.add.meta.input, input);
  assert.equal(books.children.add.meta.description, "Adds");
  const remove = books.fallback!.subtree.children.remove;
  assert.deepEqual(remove.meta.tags, { destructive: true, idempotent: true, openWorld: true });
  assert.deepEqual(table(api({ books })), ["POST /books/add", "DELETE /books/{id}"]);
});

Deno.test("crud: rejects an operation that is neither a function nor a leaf", () => {
  assert.throws(() => crud({ list: 3 as never }), /crud\(\): "list" must be a function or a leaf/);
});

Deno.test("types: crud keeps each operation's input and output", () => {
  const books = crud({
    list: () => [{ id: "1" }],
    read: ({ bookId }: { bookId: string }) => ({ id: bookId }),
  }, { id: "bookId" });
  assertType<Equal<OutputOf<typeof books.children.list>, { id: string }[]>>(true);
  const read = books.fallback!.subtree.children.read;
  // A bare handler has no input schema: callers send nothing (the capture travels in the path).
  assertType<Equal<InputOf<typeof read>, Record<string, never>>>(true);
  assertType<Equal<NonNullable<typeof books.fallback>["name"], "bookId">>(true);
  // Placed in a tree, the default capture name stays "id" (not widened to string).
  const tree = api({ notes: crud({ read: ({ id }: { id: string }) => ({ id }) }) });
  assertType<Equal<NonNullable<typeof tree.children.notes.fallback>["name"], "id">>(true);
  // @ts-expect-error add was not given
  books.children.add;
});
