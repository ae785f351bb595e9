import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { httpProjection } from "@ramify/api/http/dx";
import { toOpenApi, toOpenApiFromRoute } from "@ramify/api/http";
import { z } from "zod";
import { bookstore } from "../examples/bookstore.ts";
import { bookstoreTree } from "./_bookstore.ts";

Deno.test("openapi: 3.1 with paths[path][verb] for every route, info from opts", async () => {
  const doc = await toOpenApi(bookstoreTree(), { title: "Bookstore", version: "1.2.3" });
  assert.equal(doc.openapi, "3.1.0");
  assert.deepEqual(doc.info, { title: "Bookstore", version: "1.2.3" });
  const pairs = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((verb) => `${verb} ${path}`)
  ).sort();
  assert.deepEqual(pairs, [
    "delete /books/{bookId}",
    "get /books/list",
    "get /books/{bookId}",
    "get /catalog/featured",
    "get /catalog/search",
    "post /books/add",
    "post /books/{bookId}/checkout/start",
    "put /books/{bookId}",
    "put /books/{bookId}/checkout/reserve",
  ]);
});

Deno.test("openapi: toOpenApiFromRoute gives the same document as toOpenApi", async () => {
  const tree = bookstoreTree();
  assert.deepEqual(await toOpenApiFromRoute(httpProjection(tree)), await toOpenApi(tree));
});

Deno.test("openapi: stable unique operationIds from the tree", async () => {
  const doc = await toOpenApi(api({
    books: api({ list: op(() => [], http.get) }, {
      fallback: {
        name: "id",
        subtree: api({ list: op(() => [], http.get), read: op(() => 1, http.get) }),
      },
    }),
    "books-list": op(() => 1),
  }));
  const ids = Object.values(doc.paths).flatMap((item) =>
    Object.values(item).map((o) => o.operationId)
  );
  assert.deepEqual(ids, ["booksList", "booksRead", "booksListGet", "booksListPost"]);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(
    await toOpenApi(api({ x: op(() => 1) })),
    await toOpenApi(api({ x: op(() => 1) })),
  );
});

Deno.test("openapi: path parameters, always required, typed from the schema when named", async () => {
  const doc = await toOpenApi(api({
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          read: op(({ id }) => id, http.get, { input: z.object({ id: z.string().uuid() }) }),
          untyped: op(() => 1, http.get),
        }),
      },
    }),
  }));
  const read = doc.paths["/items/{id}"].get;
  assert.deepEqual(read.parameters?.[0], {
    name: "id",
    in: "path",
    required: true,
    schema: (read.parameters?.[0] as { schema: object }).schema,
  });
  assert.equal((read.parameters?.[0] as { schema: { format?: string } }).schema.format, "uuid");
  assert.deepEqual(doc.paths["/items/{id}/untyped"].get.parameters, [
    { name: "id", in: "path", required: true, schema: { type: "string" } },
  ]);
});

Deno.test("openapi: meta.openapi overrides operationId, summary, description, tags, deprecated", async () => {
  const doc = await toOpenApi(api({
    books: api({
      list: op(() => [], http.get, {
        description: "Lists books\nwith details",
        openapi: {
          operationId: "getAllBooks",
          summary: "All books",
          description: "Every book there is",
          tags: ["library"],
          deprecated: true,
        },
      }),
      add: op(() => 1, { description: "Adds a book" }),
    }),
  }));
  const list = doc.paths["/books/list"].get;
  assert.equal(list.operationId, "getAllBooks");
  assert.equal(list.summary, "All books");
  assert.equal(list.description, "Every book there is");
  assert.deepEqual(list.tags, ["library"]);
  assert.equal(list.deprecated, true);
  const add = doc.paths["/books/add"].post;
  assert.equal(add.summary, "Adds a book");
  assert.deepEqual(add.tags, ["books"], "default group: the first path segment");
});

Deno.test("openapi: a duplicate explicit operationId is an error", async () => {
  const tree = api({
    a: op(() => 1, { openapi: { operationId: "same" } }),
    b: op(() => 1, { openapi: { operationId: "same" } }),
  });
  await assert.rejects(toOpenApi(tree), /operationId "same" is given to more than one operation/);
});

Deno.test("openapi: query parameters for GET, a JSON body for POST, problem responses", async () => {
  const doc = await toOpenApi(bookstore());
  const search = doc.paths["/catalog/search"].get;
  assert.deepEqual(search.parameters?.map((p) => [p.name, p.in, p.required]), [
    ["q", "query", true],
    ["limit", "query", false],
  ]);
  const add = doc.paths["/books/add"].post;
  assert.equal((add.requestBody as { required: boolean }).required, true);
  assert.ok("422" in add.responses && "400" in add.responses && "500" in add.responses);
  assert.ok(doc.components.schemas.Problem && doc.components.schemas.ValidationProblem);
});
