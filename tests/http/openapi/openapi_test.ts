import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { httpProjection } from "@ramify/api/http/dx";
import { toOpenApi, toOpenApiFromRoute } from "@ramify/api/http";
import { z } from "zod";
import { bookstore } from "../../../examples/bookstore.ts";
import { bookstoreTree } from "../../support/bookstore.ts";

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

Deno.test("openapi: a leaf without an input schema documents its free-form input", async () => {
  const doc = await toOpenApi(api({
    notes: api({
      list: op(() => [], http.get),
      find: op((query: Record<string, unknown>) => [query], http.get),
    }, {
      fallback: {
        name: "noteId",
        subtree: api({ pin: op(({ noteId }: { noteId: string }) => ({ noteId })) }),
      },
    }),
  }));
  const pin = doc.paths["/notes/{noteId}/pin"].post;
  assert.deepEqual(pin.parameters, [
    { name: "noteId", in: "path", required: true, schema: { type: "string" } },
  ]);
  // An open object, optional: the server merges it with the query and the captures.
  assert.deepEqual(pin.requestBody, {
    required: false,
    content: {
      "application/json": {
        schema: {
          type: "object",
          description: "Named inputs, merged with the query and the path captures (which win)",
        },
      },
    },
  });
  for (const status of ["400", "413", "415"]) assert.ok(status in pin.responses, status);
  assert.ok(!("422" in pin.responses), "no schema, no validation");
  // A GET: any query parameter, strings (a list when repeated).
  const find = doc.paths["/notes/find"].get;
  assert.deepEqual(
    find.parameters?.map((
      p,
    ) => [(p as { name: string }).name, (p as { in: string }).in, (p as { style?: string }).style]),
    [
      ["input", "query", "form"],
    ],
  );
  // A handler that declares no parameter reads nothing: nothing to document.
  const list = doc.paths["/notes/list"].get;
  assert.equal(list.parameters, undefined);
  assert.ok(!("422" in list.responses));
});

Deno.test("openapi: titled schemas become shared components with valid, stable names", async () => {
  const Author = z.object({ name: z.string() }).meta({ title: "Author" });
  const Book = z.object({ id: z.string(), author: Author }).meta({ title: "A Book!" });
  const doc = await toOpenApi(api({
    books: api({
      list: op(() => [], http.get, { output: z.array(Book) }),
      read: op(() => ({ id: "1", author: { name: "Ann" } }), http.get, { output: Book }),
      authors: op(() => [], http.get, { output: z.array(Author) }),
    }),
  }));
  assert.deepEqual(Object.keys(doc.components.schemas), [
    "Problem",
    "ValidationProblem",
    "Author",
    "ABook",
  ]);
  const list = doc.paths["/books/list"].get.responses["200"] as {
    content: { "application/json": { schema: unknown } };
  };
  assert.deepEqual(list.content["application/json"].schema, {
    type: "array",
    items: { $ref: "#/components/schemas/ABook" },
  });
  const book = doc.components.schemas.ABook as { properties: Record<string, unknown> };
  assert.deepEqual(book.properties.author, { $ref: "#/components/schemas/Author" });
  for (const name of Object.keys(doc.components.schemas)) {
    assert.match(name, /^[a-zA-Z0-9._-]+$/);
  }
});

Deno.test("openapi: ids and recursive schemas from $defs become components", async () => {
  const Tag = z.object({ label: z.string() }).meta({ id: "Tag" });
  type Category = { name: string; children: Category[] };
  const Category: z.ZodType<Category> = z.object({
    name: z.string(),
    get children() {
      return z.array(Category);
    },
  }).meta({ title: "Category" });
  const doc = await toOpenApi(api({
    tree: op(
      () => ({ root: { name: "all", children: [] }, tags: [], first: { label: "a" } }),
      http.get,
      {
        output: z.object({ root: Category, tags: z.array(Tag), first: Tag }),
      },
    ),
  }));
  const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
  assert.ok(schemas.Tag && schemas.Category);
  const children = (schemas.Category.properties as Record<string, { items: unknown }>).children;
  assert.deepEqual(children.items, { $ref: "#/components/schemas/Category" });
  const text = JSON.stringify(doc);
  assert.ok(!text.includes("$defs"), "no $defs reference survives");
});

Deno.test("openapi: different schemas under one title are named apart", async () => {
  const strict = z.object({ a: z.string() }).meta({ title: "Thing" });
  const other = z.object({ b: z.number() }).meta({ title: "Thing" });
  const doc = await toOpenApi(api({
    one: op(() => ({ a: "a" }), http.get, { output: strict }),
    two: op(({ b }) => ({ b }), { input: other, output: other }),
  }));
  assert.deepEqual(Object.keys(doc.components.schemas).slice(2), [
    "Thing",
    "ThingInput",
    "ThingOutput",
  ]);
});

Deno.test("openapi: deterministic bytes for equal trees, built once per tree", async () => {
  const tree = bookstore();
  const first = await toOpenApi(tree, { title: "A", version: "1" });
  assert.equal(await toOpenApi(tree, { title: "A", version: "1" }), first, "cached");
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.paths));
  const again = await toOpenApi(bookstore(), { title: "A", version: "1" });
  assert.equal(JSON.stringify(again), JSON.stringify(first));
});

Deno.test("openapi: outputs: void is 204, none is open 200 or 204, streams are event streams", async () => {
  const doc = await toOpenApi(api({
    remove: op(() => undefined, http.delete, { output: z.void() }),
    open: op(() => 1, http.get),
    ticks: op(async function* () {
      yield 1;
    }, { tags: { streaming: true, readOnly: true }, output: z.number() }),
  }));
  assert.deepEqual(Object.keys(doc.paths["/remove"].delete.responses), ["204", "400", "500"]);
  const open = doc.paths["/open"].get.responses as Record<string, { content?: unknown }>;
  assert.deepEqual(open["200"].content, { "application/json": { schema: {} } });
  assert.ok(open["204"]);
  const ticks = doc.paths["/ticks"].get.responses["200"] as {
    content: Record<string, Record<string, unknown>>;
  };
  assert.deepEqual(Object.keys(ticks.content), ["text/event-stream"]);
  assert.deepEqual(ticks.content["text/event-stream"]["x-event-schema"], { type: "number" });
});

Deno.test("openapi: an event schema's references resolve, its properties named default, enum or const too", async () => {
  type Shelf = { default?: Shelf; enum: Shelf[]; const: Shelf | null };
  const Shelf: z.ZodType<Shelf> = z.object({
    get default() {
      return Shelf.optional();
    },
    get enum() {
      return z.array(Shelf);
    },
    get const() {
      return Shelf.nullable();
    },
  }).meta({ id: "Shelf" });
  const doc = await toOpenApi(api({
    shelves: op(async function* () {
      yield { enum: [], const: null };
    }, { tags: { streaming: true, readOnly: true }, output: Shelf }),
  }));
  const content = (doc.paths["/shelves"].get.responses["200"] as {
    content: Record<string, Record<string, unknown>>;
  }).content["text/event-stream"];
  const text = JSON.stringify(content["x-event-schema"]);
  const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref);
  assert.ok(refs.length >= 3, text);
  for (const ref of refs) {
    const target = ref.slice(2).split("/").map((token) =>
      decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")
    ).reduce<unknown>((at, token) => (at as Record<string, unknown>)?.[token], doc);
    assert.equal(typeof target, "object", `${ref} resolves in the document: ${text}`);
  }
});

Deno.test("openapi: errors listed are those the operation can produce", async () => {
  const doc = await toOpenApi(api({
    get: op(() => 1, http.get),
    post: op(() => 1, { input: z.object({ a: z.string() }) }),
  }));
  assert.deepEqual(Object.keys(doc.paths["/get"].get.responses), ["200", "204", "400", "500"]);
  assert.deepEqual(Object.keys(doc.paths["/post"].post.responses), [
    "200",
    "204",
    "400",
    "413",
    "415",
    "422",
    "500",
  ]);
});

Deno.test("openapi: deprecated from the tag, info, servers and security from options", async () => {
  const doc = await toOpenApi(api({ old: op(() => 1, http.get, { tags: { deprecated: true } }) }), {
    title: "T",
    version: "2",
    summary: "S",
    license: { name: "MIT", identifier: "MIT" },
    contact: { email: "a@example.com" },
    servers: [{ url: "https://api.example.com/v2" }],
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    security: [{ bearer: [] }],
    tags: { old: "Old things" },
  });
  assert.equal(doc.paths["/old"].get.deprecated, true);
  assert.deepEqual(doc.info, {
    title: "T",
    version: "2",
    summary: "S",
    contact: { email: "a@example.com" },
    license: { name: "MIT", identifier: "MIT" },
  });
  assert.deepEqual(doc.servers, [{ url: "https://api.example.com/v2" }]);
  assert.deepEqual(doc.security, [{ bearer: [] }]);
  assert.deepEqual(doc.components.securitySchemes, { bearer: { type: "http", scheme: "bearer" } });
  assert.deepEqual(doc.tags, [{ name: "old", description: "Old things" }]);
});

Deno.test("openapi and createFetch agree on query encoding: arrays repeat, objects are JSON", async () => {
  const input = z.object({
    tags: z.array(z.string()),
    page: z.number().int(),
    flag: z.boolean(),
    filter: z.object({ status: z.string() }),
  });
  const tree = api({ find: op((values) => values, http.get, { input }) });
  const doc = await toOpenApi(tree);
  const params = doc.paths["/find"].get.parameters as Record<string, unknown>[];
  const byName = Object.fromEntries(params.map((p) => [p.name, p]));
  assert.deepEqual([byName.tags.style, byName.tags.explode], ["form", true]);
  assert.deepEqual(Object.keys(byName.filter.content as object), ["application/json"]);
  assert.deepEqual((byName.page.schema as { type: string }).type, "integer");
  const { createFetch } = await import("@ramify/api");
  const query = new URLSearchParams([
    ["tags", "a"],
    ["tags", "b"],
    ["page", "2"],
    ["flag", "true"],
    ["filter", JSON.stringify({ status: "live" })],
  ]);
  const response = await createFetch(tree)(new Request(`http://localhost/find?${query}`));
  assert.deepEqual(await response.json(), {
    tags: ["a", "b"],
    page: 2,
    flag: true,
    filter: { status: "live" },
  });
});

Deno.test("openapi: bytes are documented by media type; ranges only with a 200; no schema is JSON", async () => {
  const doc = await toOpenApi(api({
    photo: op(() => new File([], "a.png", { type: "image/png" }), http.get, {
      output: z.file().mime(["image/png", "image/jpeg"]),
    }),
    made: op(() => new File([], "a.bin"), http.post, {
      output: z.file(),
      http: { status: 201 },
    }),
    undeclared: op(() => new Blob([]), http.get),
  }));
  type Responses = Record<string, { content?: Record<string, unknown>; headers?: object }>;
  const responsesOf = (path: string, verb: string) =>
    (doc.paths[path] as Record<string, { responses: Responses }>)[verb].responses;
  const photo = responsesOf("/photo", "get");
  assert.deepEqual(photo["200"].content, {
    "image/png": { schema: { type: "string", format: "binary", contentMediaType: "image/png" } },
    "image/jpeg": {
      schema: { type: "string", format: "binary", contentMediaType: "image/jpeg" },
    },
  });
  assert.deepEqual(Object.keys(photo["206"].headers ?? {}), [
    "content-disposition",
    "content-range",
  ]);
  assert.ok(photo["416"]);
  const made = responsesOf("/made", "post");
  assert.deepEqual(Object.keys(made["201"].content ?? {}), ["application/octet-stream"]);
  assert.equal(made["206"], undefined);
  assert.equal(made["416"], undefined);
  assert.deepEqual(Object.keys(responsesOf("/undeclared", "get")["200"].content ?? {}), [
    "application/json",
  ]);
});
