// The public conversion functions and the registry: argumentsOf, define,
// definitions, and a large mixed case.
import assert from "node:assert/strict";
import {
  argumentsOf,
  DATE_TIME_SCALAR,
  GraphQLTypeRegistry,
  JSON_SCALAR,
  type NamedTypeDefinition,
  toGraphQL,
  toGraphQLType,
} from "@ramify/api/graphql";
import type { JsonSchema } from "@ramify/api/tree/catalogue";
import {
  buildSchema,
  type GraphQLObjectType,
  isInputObjectType,
  isObjectType,
  isUnionType,
} from "graphql";
import { z } from "zod";
import { fieldsOf, names, output, validSDL, zodIn, zodOut } from "./types_support.ts";

Deno.test("argumentsOf: properties in order, required ones non-null", () => {
  const registry = new GraphQLTypeRegistry();
  const args = argumentsOf(
    zodIn(z.object({
      title: z.string().describe("The title"),
      pages: z.int32().optional(),
      "cover-url": z.string().nullable(),
      tags: z.array(z.string()),
    })),
    { name: "BooksAddInput", registry },
  );
  assert.deepEqual(args, [
    { name: "title", type: "String!", description: "The title" },
    { name: "pages", type: "Int" },
    { name: "coverUrl", type: "String", key: "cover-url" },
    { name: "tags", type: "[String!]!" },
  ]);
  assert.deepEqual(names(registry), []);
});

Deno.test("argumentsOf: nested objects and enums are named after the argument name", () => {
  const registry = new GraphQLTypeRegistry();
  const args = argumentsOf(
    zodIn(z.object({
      author: z.object({ name: z.string() }),
      format: z.enum(["EBOOK", "PRINT"]),
      at: z.iso.datetime().optional(),
    })),
    { name: "BooksAddInput", registry },
  );
  assert.deepEqual(args, [
    { name: "author", type: "BooksAddAuthorInput!" },
    { name: "format", type: "BooksAddFormat!" },
    { name: "at", type: "DateTime" },
  ]);
  assert.deepEqual(names(registry), ["BooksAddAuthorInput", "BooksAddFormat", DATE_TIME_SCALAR]);
  validSDL(registry);
});

Deno.test("argumentsOf: no schema, non-objects and empty objects give no arguments", () => {
  const registry = new GraphQLTypeRegistry();
  const options = { name: "XInput", registry };
  assert.deepEqual(argumentsOf(undefined, options), []);
  assert.deepEqual(argumentsOf({ type: "string" }, options), []);
  assert.deepEqual(argumentsOf(zodIn(z.array(z.object({ a: z.string() }))), options), []);
  assert.deepEqual(argumentsOf(zodIn(z.record(z.string(), z.string())), options), []);
  assert.deepEqual(argumentsOf(zodIn(z.object({})), options), []);
  assert.deepEqual(argumentsOf({}, options), []);
  assert.deepEqual(names(registry), []);
});

Deno.test("argumentsOf: refs, nullable roots and recursion", () => {
  const registry = new GraphQLTypeRegistry();
  const Filter = z.object({ q: z.string() }).meta({ id: "Filter" });
  assert.deepEqual(argumentsOf(zodIn(Filter), { name: "SearchInput", registry }), [
    { name: "q", type: "String!" },
  ]);
  assert.deepEqual(
    argumentsOf(zodIn(z.object({ q: z.string() }).nullable()), { name: "SearchInput", registry }),
    [{ name: "q", type: "String" }],
  );
  const recursive: JsonSchema = {
    type: "object",
    properties: { name: { type: "string" }, parent: { $ref: "#" } },
    required: ["name"],
  };
  assert.deepEqual(argumentsOf(recursive, { name: "NodesAddInput", registry }), [
    { name: "name", type: "String!" },
    { name: "parent", type: "NodesAddInput" },
  ]);
  assert.equal(
    validSDL(registry),
    "input NodesAddInput {\n  name: String!\n  parent: NodesAddInput\n}",
  );
});

Deno.test("define: adds, accepts an equal copy, refuses a different one", () => {
  const registry = new GraphQLTypeRegistry();
  const namespace: NamedTypeDefinition = {
    kind: "object",
    name: "BooksQuery",
    description: "Books",
    fields: [{ name: "list", type: "[String!]!", args: [{ name: "first", type: "Int" }] }],
  };
  registry.define(namespace);
  registry.define(structuredClone(namespace));
  assert.equal(registry.definitions.length, 1);
  assert.throws(
    () =>
      registry.define({ kind: "object", name: "BooksQuery", fields: [{ name: "x", type: "Int" }] }),
    /different type named "BooksQuery"/,
  );
  // Conversions then avoid the defined name.
  assert.equal(
    output(
      { type: "object", title: "BooksQuery", properties: { a: { type: "string" } } },
      "X",
      registry,
    )
      .type,
    "BooksQuery2!",
  );
  validSDL(registry);
});

Deno.test("define: refuses invalid names, references and reserved names", () => {
  const registry = new GraphQLTypeRegistry();
  const bad: unknown[] = [
    { kind: "object", name: "has space", fields: [{ name: "a", type: "Int" }] },
    { kind: "object", name: "__Meta", fields: [{ name: "a", type: "Int" }] },
    { kind: "object", name: "Empty", fields: [] },
    { kind: "object", name: "BadField", fields: [{ name: "a-b", type: "Int" }] },
    { kind: "object", name: "BadType", fields: [{ name: "a", type: "[Int" }] },
    {
      kind: "object",
      name: "Twice",
      fields: [{ name: "a", type: "Int" }, { name: "a", type: "Int" }],
    },
    {
      kind: "input",
      name: "ArgIn",
      fields: [{ name: "a", type: "Int", args: [{ name: "b", type: "Int" }] }],
    },
    { kind: "enum", name: "E", values: ["true"] },
    { kind: "enum", name: "E", values: [] },
    { kind: "union", name: "U", members: ["A-B"] },
    { kind: "scalar", name: "String" },
    { kind: "object", name: "JSON", fields: [{ name: "a", type: "Int" }] },
    { kind: "interface", name: "I" },
  ];
  for (const definition of bad) {
    assert.throws(
      () => registry.define(definition as NamedTypeDefinition),
      Error,
      JSON.stringify(definition),
    );
  }
  assert.deepEqual(registry.definitions, []);
  registry.define({ kind: "scalar", name: "JSON" });
  assert.equal(output({}, "X", registry).type, "JSON");
  assert.deepEqual(registry.definitions, [{ kind: "scalar", name: "JSON" }]);
});

Deno.test("definitions: a frozen snapshot in first-use order", () => {
  const registry = new GraphQLTypeRegistry();
  output(zodOut(z.object({ a: z.object({ b: z.iso.datetime() }), c: z.any() })), "Top", registry);
  const snapshot = registry.definitions;
  assert.deepEqual(snapshot.map((d) => d.name), ["Top", "TopA", DATE_TIME_SCALAR, JSON_SCALAR]);
  assert.ok(Object.isFrozen(snapshot[0]));
  assert.ok(Object.isFrozen(fieldsOf(snapshot[0])));
  (snapshot as NamedTypeDefinition[]).pop();
  assert.equal(registry.definitions.length, 4);
  assert.equal(toGraphQL(new GraphQLTypeRegistry()), "");
});

Deno.test("large mixed case: one registry of many schemas prints valid, deterministic SDL", () => {
  interface Comment {
    text: string;
    replies: Comment[];
  }
  const Comment: z.ZodType<Comment> = z.object({
    text: z.string(),
    get replies() {
      return z.array(Comment);
    },
  }).meta({ id: "Comment", description: 'A comment, with """quotes"""' });
  const Author = z.object({ name: z.string(), born: z.iso.datetime().optional() }).meta({
    title: "Author",
  });
  const Book = z.object({
    id: z.string(),
    title: z.string().describe("Title\nsecond line"),
    status: z.enum(["DRAFT", "PUBLISHED"]),
    format: z.enum(["e-book", "print"]),
    pages: z.int32().nullable(),
    price: z.number().optional(),
    authors: z.array(Author),
    meta: z.record(z.string(), z.unknown()),
    dims: z.tuple([z.number(), z.number()]),
    comments: z.array(Comment),
    "related-ids": z.array(z.string()).optional(),
    extra: z.any(),
  }).meta({ title: "Book" });
  const Result = z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), book: Book }),
    z.object({ ok: z.literal(false), error: z.string() }),
  ]);
  const build = () => {
    const registry = new GraphQLTypeRegistry();
    registry.define({
      kind: "object",
      name: "BooksQuery",
      fields: [{ name: "count", type: "Int!" }],
    });
    const results = [
      toGraphQLType(zodOut(Book), { direction: "output", name: "BooksReadResult", registry }),
      toGraphQLType(zodOut(z.array(Book)), {
        direction: "output",
        name: "BooksListResult",
        registry,
      }),
      toGraphQLType(zodOut(Result), { direction: "output", name: "BooksAddResult", registry }),
      toGraphQLType(zodIn(Book), { direction: "input", name: "BooksAddInput", registry }),
      toGraphQLType(zodOut(Comment), { direction: "output", name: "C", registry }),
      toGraphQLType(
        zodOut(z.object({ a: z.string() }).meta({ title: "Book" })),
        { direction: "output", name: "X", registry },
      ),
      toGraphQLType(undefined, { direction: "output", name: "Untyped", registry, required: false }),
    ];
    const args = argumentsOf(zodIn(z.object({ book: Book, note: z.string().optional() })), {
      name: "BooksUpdateInput",
      registry,
    });
    return { registry, results, args };
  };
  const { registry, results, args } = build();
  assert.deepEqual(results, [
    "Book!",
    "[Book!]!",
    "BooksAddResult!",
    "BookInput!",
    "Comment!",
    "Book2!",
    "JSON",
  ]);
  assert.deepEqual(args, [{ name: "book", type: "BookInput!" }, { name: "note", type: "String" }]);
  const sdl = validSDL(registry);
  assert.equal(sdl, toGraphQL(build().registry));
  const schema = buildSchema(`${sdl}\ntype Query { _: Int }`);
  const book = schema.getType("Book") as GraphQLObjectType;
  assert.deepEqual(Object.keys(book.getFields()), [
    "id",
    "title",
    "status",
    "format",
    "pages",
    "price",
    "authors",
    "meta",
    "dims",
    "comments",
    "relatedIds",
    "extra",
  ]);
  assert.equal(String(book.getFields().status.type), "BookStatus!");
  assert.equal(String(book.getFields().format.type), "String!");
  assert.equal(String(book.getFields().pages.type), "Int");
  assert.equal(String(book.getFields().authors.type), "[Author!]!");
  assert.equal(String(book.getFields().meta.type), "JSON!");
  assert.equal(String(book.getFields().dims.type), "JSON!");
  assert.equal(String(book.getFields().comments.type), "[Comment!]!");
  assert.equal(String(book.getFields().extra.type), "JSON");
  assert.equal(book.getFields().title.description, "Title\nsecond line");
  assert.equal(schema.getType("Comment")?.description, 'A comment, with """quotes"""');
  assert.ok(isUnionType(schema.getType("BooksAddResult")));
  assert.equal(
    registry.resolveUnion("BooksAddResult", { ok: false, error: "x" }),
    "BooksAddResult2",
  );
  assert.equal(registry.resolveUnion("BooksAddResult", { ok: true, book: {} }), "BooksAddResult1");
  assert.ok(isInputObjectType(schema.getType("BookInput")));
  assert.ok(isInputObjectType(schema.getType("AuthorInput")));
  assert.ok(isInputObjectType(schema.getType("CommentInput")));
  assert.ok(isObjectType(schema.getType("BooksQuery")));
  assert.equal(new Set(names(registry)).size, names(registry).length);
});
