// JSON Schema to GraphQL, how a schema reads: objects, names, enums, arrays,
// scalars and nullability. SDL validity is checked by graphql-js `buildSchema`.
import assert from "node:assert/strict";
import {
  DATE_TIME_SCALAR,
  GraphQLTypeRegistry,
  JSON_SCALAR,
  toGraphQL,
  toGraphQLType,
} from "@ramify/api/graphql";
import type { JsonSchema } from "@ramify/api/tree/catalogue";
import { buildSchema, isEnumType, isInputObjectType, validateSchema } from "graphql";
import { z } from "zod";
import {
  built,
  definition,
  fieldsOf,
  input,
  names,
  output,
  validSDL,
  zodIn,
  zodOut,
} from "./types_support.ts";

Deno.test("objects: zod output object becomes an object type named by its title", () => {
  const Book = z.object({
    id: z.string(),
    title: z.string(),
    subtitle: z.string().optional(),
    published: z.boolean(),
  }).meta({ title: "Book" });
  const { type, registry } = output(zodOut(Book), "BooksReadResult");
  assert.equal(type, "Book!");
  assert.equal(
    validSDL(registry),
    "type Book {\n  id: String!\n  title: String!\n  subtitle: String\n  published: Boolean!\n}",
  );
});

Deno.test("objects: hand-written schema without title is named by the hint", () => {
  const { type, registry } = output({
    type: "object",
    properties: { count: { type: "integer" }, items: { type: "array", items: { type: "string" } } },
    required: ["count"],
  }, "BooksListResult");
  assert.equal(type, "BooksListResult!");
  assert.equal(
    validSDL(registry),
    "type BooksListResult {\n  count: Int!\n  items: [String!]\n}",
  );
});

Deno.test("objects: nested objects are named after their parent and property", () => {
  const { registry } = output({
    type: "object",
    properties: {
      author: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      "first-edition": { type: "object", properties: { year: { type: "integer" } } },
    },
  }, "Book");
  assert.deepEqual(names(registry), ["Book", "BookAuthor", "BookFirstEdition"]);
  assert.deepEqual(definition(registry, "Book"), {
    kind: "object",
    name: "Book",
    fields: [
      { name: "author", type: "BookAuthor", optional: true },
      { name: "firstEdition", type: "BookFirstEdition", key: "first-edition", optional: true },
    ],
  });
  validSDL(registry);
});

Deno.test("objects: a field that may be absent but never null is marked optional", () => {
  const { registry } = output({
    type: "object",
    properties: {
      required: { type: "string" },
      absent: { type: "string" },
      nullable: { type: ["string", "null"] },
    },
    required: ["required", "nullable"],
  }, "Thing");
  assert.deepEqual(definition(registry, "Thing"), {
    kind: "object",
    name: "Thing",
    fields: [
      { name: "required", type: "String!" },
      { name: "absent", type: "String", optional: true },
      { name: "nullable", type: "String" },
    ],
  });
});

Deno.test("objects: input direction gives input types whose names end in Input", () => {
  const Book = z.object({ title: z.string(), author: z.object({ name: z.string() }) }).meta({
    title: "Book",
  });
  const registry = new GraphQLTypeRegistry();
  assert.equal(input(zodIn(Book), "BooksAddInput", registry).type, "BookInput!");
  assert.equal(
    input(zodIn(z.object({ note: z.string() })), "BooksAddInput", registry).type,
    "BooksAddInput!",
  );
  assert.equal(input(zodIn(z.object({ note: z.number() })), "Notes", registry).type, "NotesInput!");
  assert.deepEqual(names(registry), [
    "BookInput",
    "BookAuthorInput",
    "BooksAddInput",
    "NotesInput",
  ]);
  const schema = built(registry);
  assert.ok(isInputObjectType(schema.getType("BookInput")));
  assert.ok(isInputObjectType(schema.getType("BookAuthorInput")));
});

Deno.test("objects: without properties they are JSON (records, {}, open objects)", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(z.record(z.string(), z.number())), "R", registry).type, "JSON!");
  assert.equal(output(zodOut(z.object({})), "E", registry).type, "JSON!");
  assert.equal(output({ type: "object" }, "O", registry).type, "JSON!");
  assert.equal(input({ type: "object", properties: {} }, "I", registry).type, "JSON!");
  assert.equal(
    output({ type: "object", properties: { gone: false } }, "F", registry).type,
    "JSON!",
  );
  assert.deepEqual(names(registry), [JSON_SCALAR]);
  validSDL(registry);
});

Deno.test("objects: extra keys of a loose object are dropped, its properties kept", () => {
  const { type, registry } = output(zodOut(z.looseObject({ a: z.string() })), "Loose");
  assert.equal(type, "Loose!");
  assert.equal(validSDL(registry), "type Loose {\n  a: String!\n}");
});

Deno.test("names: invalid field names become camelCase, else _-prefixed, and keep their key", () => {
  const { registry } = output({
    type: "object",
    properties: {
      "first-name": { type: "string" },
      "2fa": { type: "boolean" },
      "": { type: "string" },
      "__typename": { type: "string" },
      "x-request-id": { type: "string" },
      "valid_name": { type: "string" },
      "über cool": { type: "string" },
    },
  }, "Odd");
  const fields = fieldsOf(definition(registry, "Odd"));
  assert.deepEqual(fields.map((field) => [field.name, field.key]), [
    ["firstName", "first-name"],
    ["_2fa", "2fa"],
    ["_", ""],
    ["typename", "__typename"],
    ["xRequestId", "x-request-id"],
    ["valid_name", undefined],
    ["berCool", "über cool"],
  ]);
  validSDL(registry);
});

Deno.test("names: fields that sanitise to one name are numbered", () => {
  const { registry } = output({
    type: "object",
    properties: { "a-b": { type: "string" }, aB: { type: "integer" }, "a b": { type: "number" } },
  }, "Clash");
  assert.equal(
    validSDL(registry),
    "type Clash {\n  aB: String\n  aB2: Int\n  aB3: Float\n}",
  );
});

Deno.test("names: titles become PascalCase GraphQL names; hints are sanitised too", () => {
  const registry = new GraphQLTypeRegistry();
  const object = (title: string) => ({
    type: "object",
    title,
    properties: { v: { type: "string" } },
  });
  assert.equal(output(object("my book!"), "X", registry).type, "MyBook!");
  assert.equal(output(object("3d model"), "X", registry).type, "_3dModel!");
  assert.equal(output(object("__Type"), "X", registry).type, "Type!");
  assert.equal(output(object("???"), "Fallback", registry).type, "Fallback!");
  assert.equal(
    output({ type: "object", properties: { w: { type: "string" } } }, "books-list result", registry)
      .type,
    "BooksListResult!",
  );
  validSDL(registry);
});

Deno.test("names: built-in scalars, JSON, DateTime and root type names are never taken", () => {
  const registry = new GraphQLTypeRegistry();
  const object = (title: string) => ({
    type: "object",
    title,
    properties: { [title.toLowerCase()]: { type: "string" } },
  });
  for (const title of ["String", "Int", "JSON", "DateTime", "Query", "Mutation", "Subscription"]) {
    assert.equal(output(object(title), "X", registry).type, `${title}2!`);
  }
  const schema = buildSchema(`${toGraphQL(registry)}\ntype Query { _: Int }`);
  assert.deepEqual(validateSchema(schema), []);
});

Deno.test("enums: string enums of GraphQL names become enum types", () => {
  const registry = new GraphQLTypeRegistry();
  const Book = z.object({
    status: z.enum(["DRAFT", "PUBLISHED"]),
    kind: z.enum(["paperback", "hardcover"]).meta({ title: "Binding", description: "Cover" }),
  });
  output(zodOut(Book), "Book", registry);
  assert.deepEqual(definition(registry, "BookStatus"), {
    kind: "enum",
    name: "BookStatus",
    values: ["DRAFT", "PUBLISHED"],
  });
  assert.deepEqual(definition(registry, "Binding"), {
    kind: "enum",
    name: "Binding",
    values: ["paperback", "hardcover"],
    description: "Cover",
  });
  assert.equal(
    output({ type: "string", enum: ["A", "B", null] }, "Letter", registry).type,
    "Letter",
  );
  const schema = built(registry);
  assert.ok(isEnumType(schema.getType("BookStatus")));
});

Deno.test("enums: values that are no GraphQL enum values give String", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(z.enum(["a-b", "c"])), "E", registry).type, "String!");
  assert.equal(output({ enum: ["true", "false"] }, "E", registry).type, "String!");
  assert.equal(output({ enum: ["null", "x"] }, "E", registry).type, "String!");
  assert.equal(output({ enum: ["1st"] }, "E", registry).type, "String!");
  assert.equal(output({ enum: ["__a"] }, "E", registry).type, "String!");
  assert.deepEqual(names(registry), []);
});

Deno.test("enums: numeric, boolean, mixed and empty enums", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output({ enum: [1, 2, 3] }, "N", registry).type, "Int!");
  assert.equal(output({ enum: [1, 2.5] }, "N", registry).type, "Float!");
  assert.equal(output({ enum: [1, 2 ** 40] }, "N", registry).type, "Float!");
  assert.equal(output({ enum: [true, false] }, "N", registry).type, "Boolean!");
  assert.equal(output({ enum: ["a", 1] }, "N", registry).type, "JSON!");
  assert.equal(output({ enum: [] }, "N", registry).type, "JSON");
  validSDL(registry);
});

Deno.test("enums: one enum serves input and output", () => {
  const registry = new GraphQLTypeRegistry();
  const Status = z.enum(["OPEN", "CLOSED"]).meta({ title: "Status" });
  output(zodOut(z.object({ status: Status })), "Order", registry);
  input(zodIn(z.object({ status: Status })), "OrderInput", registry);
  assert.deepEqual(names(registry), ["Order", "Status", "OrderInput"]);
  assert.equal(
    validSDL(registry),
    "type Order {\n  status: Status!\n}\n\nenum Status {\n  OPEN\n  CLOSED\n}\n\n" +
      "input OrderInput {\n  status: Status!\n}",
  );
});

Deno.test("arrays: lists with non-null items unless the items allow null", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(z.array(z.string())), "L", registry).type, "[String!]!");
  assert.equal(output(zodOut(z.array(z.string().nullable())), "L", registry).type, "[String]!");
  assert.equal(output(zodOut(z.array(z.array(z.number()))), "L", registry).type, "[[Float!]!]!");
  assert.equal(output({ type: "array" }, "L", registry).type, "[JSON]!");
  assert.equal(output({ type: "array", items: true }, "L", registry).type, "[JSON]!");
  assert.equal(output({ items: { type: "boolean" } }, "L", registry).type, "[Boolean!]!");
  assert.equal(
    output({ type: ["array", "null"], items: { type: "integer" } }, "L", registry).type,
    "[Int!]",
  );
  validSDL(registry);
});

Deno.test("arrays: lists of objects name the item type after the hint", () => {
  const { type, registry } = output(
    zodOut(z.array(z.object({ id: z.string() }))),
    "BooksListResult",
  );
  assert.equal(type, "[BooksListResult!]!");
  validSDL(registry);
});

Deno.test("arrays: tuples are JSON", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(z.tuple([z.string(), z.number()])), "T", registry).type, "JSON!");
  assert.equal(
    output({ type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } }, "T")
      .type,
    "JSON!",
  );
  validSDL(registry);
});

Deno.test("scalars: integer is Int unless its bounds go beyond 32 bits (safe range = none)", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output({ type: "integer" }, "I", registry).type, "Int!");
  assert.equal(output(zodOut(z.int32()), "I", registry).type, "Int!");
  assert.equal(output(zodOut(z.number().int().min(0).max(100)), "I", registry).type, "Int!");
  assert.equal(output(zodOut(z.number().int()), "I", registry).type, "Int!");
  assert.equal(output(zodOut(z.number().int().nonnegative()), "I", registry).type, "Int!");
  assert.equal(
    output({ type: "integer", maximum: Number.MAX_SAFE_INTEGER }, "I", registry).type,
    "Int!",
  );
  assert.equal(output({ type: "integer", maximum: 2 ** 40 }, "I", registry).type, "Float!");
  assert.equal(output({ type: "integer", maximum: 2147483648 }, "I", registry).type, "Float!");
  assert.equal(output({ type: "integer", minimum: -2147483649 }, "I", registry).type, "Float!");
  assert.equal(
    output({ type: "integer", exclusiveMaximum: 2147483648 }, "I", registry).type,
    "Int!",
  );
  assert.equal(
    output({ type: "integer", exclusiveMaximum: 2147483649 }, "I", registry).type,
    "Float!",
  );
  assert.equal(
    output({ type: "integer", exclusiveMinimum: -2147483649 }, "I", registry).type,
    "Int!",
  );
});

Deno.test("scalars: number, boolean, string, const and date-time", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(z.number()), "S", registry).type, "Float!");
  assert.equal(output(zodOut(z.boolean()), "S", registry).type, "Boolean!");
  assert.equal(output(zodOut(z.string().email()), "S", registry).type, "String!");
  assert.equal(output(zodOut(z.literal("fixed")), "S", registry).type, "String!");
  assert.equal(output({ const: 3 }, "S", registry).type, "Int!");
  assert.equal(output({ const: 3.5 }, "S", registry).type, "Float!");
  assert.equal(output({ const: false }, "S", registry).type, "Boolean!");
  assert.equal(output({ const: { a: 1 } }, "S", registry).type, "JSON!");
  assert.equal(output({ const: null }, "S", registry).type, "JSON");
  assert.equal(output({ type: ["integer", "number"] }, "S", registry).type, "Float!");
  assert.deepEqual(names(registry), [JSON_SCALAR]);
  assert.equal(output(zodOut(z.iso.datetime()), "S", registry).type, "DateTime!");
  assert.equal(
    input({ type: ["string", "null"], format: "date-time" }, "S", registry).type,
    "DateTime",
  );
  assert.deepEqual(names(registry), [JSON_SCALAR, DATE_TIME_SCALAR]);
  assert.equal(
    validSDL(registry),
    '"""\nAny JSON value: an object, a list, a string, a number, a boolean or null.\n"""\n' +
      "scalar JSON\n\n" +
      '"""A date and time as an RFC 3339 string, like 2024-05-01T12:30:00Z."""\n' +
      'scalar DateTime @specifiedBy(url: "https://datatracker.ietf.org/doc/html/rfc3339")',
  );
});

Deno.test("scalars: anything else is JSON", () => {
  const registry = new GraphQLTypeRegistry();
  for (
    const schema of [
      {},
      { not: { type: "string" } },
      { type: ["string", "number"] },
      { type: "null" },
      { allOf: [{ type: "string" }, { minLength: 1 }] },
      { if: { type: "string" }, then: { minLength: 1 } },
      { type: "bigint" },
      zodOut(z.any()),
      zodOut(z.unknown()),
    ] as JsonSchema[]
  ) {
    assert.match(output(schema, "X", registry).type, /^JSON!?$/, JSON.stringify(schema));
  }
  assert.equal(output(undefined, "X", registry).type, "JSON");
  assert.equal(output(true as unknown as JsonSchema, "X", registry).type, "JSON");
  assert.equal(output({ type: ["string", "number"] }, "X", registry).type, "JSON!");
  assert.deepEqual(names(registry), [JSON_SCALAR]);
  validSDL(registry);
});

Deno.test("nullability: type arrays, null variants, nullable: true and required: false", () => {
  const registry = new GraphQLTypeRegistry();
  const cases: [JsonSchema, string][] = [
    [{ type: ["string", "null"] }, "String"],
    [{ anyOf: [{ type: "string" }, { type: "null" }] }, "String"],
    [{ oneOf: [{ type: "null" }, { type: "integer" }] }, "Int"],
    [{ type: "string", nullable: true }, "String"],
    [{ anyOf: [{ type: "boolean" }, { const: null }] }, "Boolean"],
    [zodOut(z.string().nullable()), "String"],
    [zodOut(z.object({ a: z.string() }).nullable()), "Result"],
    [{ type: "string" }, "String!"],
  ];
  for (const [schema, expected] of cases) {
    assert.equal(output(schema, "Result", registry).type, expected, JSON.stringify(schema));
  }
  assert.equal(
    toGraphQLType({ type: "string" }, {
      direction: "output",
      name: "X",
      registry,
      required: false,
    }),
    "String",
  );
  assert.equal(
    toGraphQLType({ type: "string" }, { direction: "output", name: "X", registry, required: true }),
    "String!",
  );
  validSDL(registry);
});

Deno.test("nullability: object properties are non-null only when required and not nullable", () => {
  const Row = z.object({
    a: z.string(),
    b: z.string().optional(),
    c: z.string().nullable(),
    d: z.string().nullish(),
    e: z.string().default("x"),
  });
  const outRegistry = new GraphQLTypeRegistry();
  output(zodOut(Row), "Row", outRegistry);
  assert.equal(
    validSDL(outRegistry),
    "type Row {\n  a: String!\n  b: String\n  c: String\n  d: String\n  e: String!\n}",
  );
  const inRegistry = new GraphQLTypeRegistry();
  input(zodIn(Row), "RowInput", inRegistry);
  assert.equal(
    validSDL(inRegistry),
    'input RowInput {\n  a: String!\n  b: String\n  c: String\n  d: String\n  e: String = "x"\n}',
  );
});
