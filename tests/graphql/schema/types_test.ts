import assert from "node:assert/strict";
import {
  argumentsOf,
  DATE_TIME_SCALAR,
  GraphQLTypeRegistry,
  JSON_SCALAR,
  type NamedTypeDefinition,
  scalarImplementations,
  toGraphQL,
  toGraphQLType,
} from "@ramify/api/graphql";
import { type JsonSchema, toJsonSchema } from "@ramify/api/tree";
import {
  buildSchema,
  graphql,
  GraphQLObjectType,
  type GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isObjectType,
  isUnionType,
  parseValue,
  validateSchema,
  valueFromAST,
} from "graphql";
import { z } from "zod";

/** The registry's SDL, after proving it builds and validates next to a dummy Query. */
function validSDL(registry: GraphQLTypeRegistry): string {
  const sdl = toGraphQL(registry);
  const schema = buildSchema(`${sdl}\n\ntype Query { _: Int }`);
  assert.deepEqual(validateSchema(schema).map((error) => error.message), []);
  return sdl;
}

function built(registry: GraphQLTypeRegistry): GraphQLSchema {
  return buildSchema(`${validSDL(registry)}\n\ntype Query { _: Int }`);
}

function output(
  schema: JsonSchema | undefined,
  name = "Result",
  registry = new GraphQLTypeRegistry(),
) {
  return { type: toGraphQLType(schema, { direction: "output", name, registry }), registry };
}

function input(
  schema: JsonSchema | undefined,
  name = "ArgsInput",
  registry = new GraphQLTypeRegistry(),
) {
  return { type: toGraphQLType(schema, { direction: "input", name, registry }), registry };
}

const zodOut = (schema: z.ZodType) => toJsonSchema(schema, "output")!;
const zodIn = (schema: z.ZodType) => toJsonSchema(schema, "input")!;

/** A scalar's reading of a GraphQL literal. */
function literal(scalar: GraphQLScalarType, source: string, variables?: Record<string, unknown>) {
  return scalar.parseLiteral(parseValue(source), variables);
}

function fieldsOf(definition: NamedTypeDefinition) {
  assert.ok(definition.kind === "object" || definition.kind === "input");
  return definition.fields;
}

function names(registry: GraphQLTypeRegistry): string[] {
  return registry.definitions.map((definition) => definition.name);
}

function definition(registry: GraphQLTypeRegistry, name: string): NamedTypeDefinition {
  const found = registry.definitions.find((d) => d.name === name);
  assert.ok(found, `no type ${name} in ${names(registry).join(", ")}`);
  return found;
}

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
    "input RowInput {\n  a: String!\n  b: String\n  c: String\n  d: String\n  e: String\n}",
  );
});

Deno.test("unions: output anyOf of objects is a union of Hint1, Hint2 ...", () => {
  const Result = z.union([
    z.object({ id: z.string(), title: z.string() }),
    z.object({ error: z.string() }),
  ]);
  const { type, registry } = output(zodOut(Result), "BooksReadResult");
  assert.equal(type, "BooksReadResult!");
  assert.deepEqual(definition(registry, "BooksReadResult"), {
    kind: "union",
    name: "BooksReadResult",
    members: ["BooksReadResult1", "BooksReadResult2"],
  });
  const schema = built(registry);
  assert.ok(isUnionType(schema.getType("BooksReadResult")));
  assert.ok(isObjectType(schema.getType("BooksReadResult2")));
  assert.equal(registry.resolveUnion("BooksReadResult", { error: "nope" }), "BooksReadResult2");
  assert.equal(
    registry.resolveUnion("BooksReadResult", { id: "1", title: "Dune" }),
    "BooksReadResult1",
  );
  assert.equal(registry.resolveUnion("BooksReadResult", { id: "1" }), undefined);
});

Deno.test("unions: titled members and a titled union; nullable union", () => {
  const Cat = z.object({ kind: z.literal("cat"), meows: z.boolean() }).meta({ title: "Cat" });
  const Dog = z.object({ kind: z.literal("dog"), barks: z.boolean() }).meta({ title: "Dog" });
  const Pet = z.discriminatedUnion("kind", [Cat, Dog]).meta({ title: "Pet", description: "A pet" });
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(Pet), "Hint", registry).type, "Pet!");
  assert.equal(output(zodOut(Pet.nullable()), "Hint", registry).type, "Pet");
  assert.deepEqual(names(registry), ["Pet", "Cat", "Dog"]);
  assert.equal(definition(registry, "Pet").description, "A pet");
  assert.equal(registry.resolveUnion("Pet", { kind: "dog", barks: true }), "Dog");
  assert.equal(registry.resolveUnion("Pet", { kind: "cat", meows: false }), "Cat");
  assert.equal(registry.resolveUnion("Pet", { kind: "cow", barks: true }), undefined);
  validSDL(registry);
});

Deno.test("unions: resolveUnion matches consts and single-value enums, honours __typename", () => {
  const registry = new GraphQLTypeRegistry();
  output(
    {
      anyOf: [
        {
          type: "object",
          title: "Circle",
          properties: { shape: { enum: ["circle"] }, r: { type: "number" } },
          required: ["shape"],
        },
        {
          type: "object",
          title: "Square",
          properties: { shape: { const: "square" }, side: { type: "number" } },
          required: ["shape"],
        },
      ],
    },
    "Shape",
    registry,
  );
  assert.equal(registry.resolveUnion("Shape", { shape: "circle" }), "Circle");
  assert.equal(registry.resolveUnion("Shape", { shape: "square", side: 1 }), "Square");
  assert.equal(registry.resolveUnion("Shape", { shape: "circle", __typename: "Square" }), "Square");
  assert.equal(registry.resolveUnion("Shape", { __typename: "Triangle" }), undefined);
  assert.equal(registry.resolveUnion("Shape", null), undefined);
  assert.equal(registry.resolveUnion("Shape", "circle"), undefined);
  assert.equal(registry.resolveUnion("Nope", { shape: "circle" }), undefined);
  validSDL(registry);
});

Deno.test("unions: input direction, mixed variants and scalar variants are no unions", () => {
  const registry = new GraphQLTypeRegistry();
  const objects = zodIn(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]));
  assert.equal(input(objects, "In", registry).type, "JSON!");
  assert.equal(
    output(zodOut(z.union([z.object({ a: z.string() }), z.string()])), "Mixed", registry).type,
    "JSON!",
  );
  assert.equal(
    output(zodOut(z.union([z.literal("a"), z.literal("b")])), "Lit", registry).type,
    "String!",
  );
  assert.equal(
    output({ anyOf: [{ type: "integer" }, { type: "number" }] }, "N", registry).type,
    "Float!",
  );
  assert.equal(
    output({ anyOf: [{ type: "string", format: "date-time" }, { type: "string" }] }, "D", registry)
      .type,
    "String!",
  );
  assert.equal(
    output({ anyOf: [{ type: "string" }, { type: "boolean" }, { type: "null" }] }, "SB", registry)
      .type,
    "JSON",
  );
  assert.equal(output({ anyOf: [{ type: "null" }] }, "Nil", registry).type, "JSON");
  assert.equal(output({ anyOf: [{}, { type: "string" }] }, "Any", registry).type, "JSON");
  assert.deepEqual(names(registry), [JSON_SCALAR]);
  validSDL(registry);
});

Deno.test("unions: one object variant (besides null) is that object; equal members collapse", () => {
  const registry = new GraphQLTypeRegistry();
  const object = { type: "object", properties: { a: { type: "string" } } };
  assert.equal(output({ anyOf: [object, { type: "null" }] }, "Maybe", registry).type, "Maybe");
  assert.equal(output({ anyOf: [object, { ...object }] }, "Same", registry).type, "Maybe!");
  assert.deepEqual(names(registry), ["Maybe"]);
  validSDL(registry);
});

Deno.test("refs: $defs from zod ids name the type; shared refs give one type", () => {
  const Author = z.object({ name: z.string() }).meta({ id: "Author" });
  const Book = z.object({ author: Author, editor: Author.optional() });
  const { registry } = output(zodOut(Book), "Book");
  assert.equal(
    validSDL(registry),
    "type Book {\n  author: Author!\n  editor: Author\n}\n\ntype Author {\n  name: String!\n}",
  );
  const inRegistry = new GraphQLTypeRegistry();
  input(zodIn(Book), "BookInput", inRegistry);
  assert.deepEqual(names(inRegistry), ["BookInput", "AuthorInput"]);
  validSDL(inRegistry);
});

Deno.test("refs: recursive zod schema through the root ($ref: #)", () => {
  interface Category {
    name: string;
    children: Category[];
  }
  const Category: z.ZodType<Category> = z.object({
    name: z.string(),
    get children() {
      return z.array(Category);
    },
  });
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(zodOut(Category), "Category", registry).type, "Category!");
  assert.equal(
    validSDL(registry),
    "type Category {\n  name: String!\n  children: [Category!]!\n}",
  );
  assert.equal(input(zodIn(Category), "CategoryInput", registry).type, "CategoryInput!");
  assert.ok(
    validSDL(registry).includes(
      "input CategoryInput {\n  name: String!\n  children: [CategoryInput!]!\n}",
    ),
  );
});

Deno.test("refs: recursion through $defs, including zod's unnamed __schema ids", () => {
  interface Tree {
    value: number;
    kids?: Tree[];
  }
  const Tree: z.ZodType<Tree> = z.object({
    value: z.number(),
    get kids() {
      return z.array(Tree).optional();
    },
  });
  const schema = zodOut(z.object({ left: Tree, right: Tree }));
  assert.ok(JSON.stringify(schema).includes("__schema0"));
  const { registry } = output(schema, "Pair");
  assert.equal(
    validSDL(registry),
    "type Pair {\n  left: PairLeft!\n  right: PairLeft!\n}\n\n" +
      "type PairLeft {\n  value: Float!\n  kids: [PairLeft!]\n}",
  );
});

Deno.test("refs: mutual recursion and a self-reference that is a non-null input field", () => {
  const schema: JsonSchema = {
    $ref: "#/$defs/Person",
    $defs: {
      Person: {
        type: "object",
        properties: { name: { type: "string" }, employer: { $ref: "#/$defs/Company" } },
        required: ["name", "employer"],
      },
      Company: {
        type: "object",
        properties: {
          boss: { $ref: "#/$defs/Person" },
          staff: { type: "array", items: { $ref: "#/$defs/Person" } },
        },
        required: ["boss", "staff"],
      },
    },
  };
  const registry = new GraphQLTypeRegistry();
  assert.equal(output(schema, "X", registry).type, "Person!");
  assert.equal(input(schema, "X", registry).type, "PersonInput!");
  const sdl = validSDL(registry);
  assert.ok(sdl.includes("type Person {\n  name: String!\n  employer: Company!\n}"));
  assert.ok(sdl.includes("type Company {\n  boss: Person!\n  staff: [Person!]!\n}"));
  // An input can't reach itself through non-null fields: the closing field is nullable.
  assert.ok(sdl.includes("input PersonInput {\n  name: String!\n  employer: CompanyInput!\n}"));
  assert.ok(sdl.includes("input CompanyInput {\n  boss: PersonInput\n  staff: [PersonInput!]!\n}"));
});

Deno.test("refs: direct non-null self-reference of an input is made nullable", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { next: { $ref: "#" }, value: { type: "string" } },
    required: ["next", "value"],
  };
  const registry = new GraphQLTypeRegistry();
  assert.equal(input(schema, "Link", registry).type, "LinkInput!");
  assert.equal(output(schema, "Link", registry).type, "Link!");
  assert.equal(
    validSDL(registry),
    "input LinkInput {\n  next: LinkInput\n  value: String!\n}\n\n" +
      "type Link {\n  next: Link!\n  value: String!\n}",
  );
});

Deno.test("refs: unknown, remote and looping refs are JSON; JSON pointers resolve", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(output({ $ref: "#/$defs/Missing" }, "R", registry).type, "JSON");
  assert.equal(output({ $ref: "https://example.com/schema.json" }, "R", registry).type, "JSON");
  assert.equal(
    output(
      { $ref: "#/$defs/A", $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } } },
      "R",
      registry,
    )
      .type,
    "JSON",
  );
  assert.equal(
    output({ type: "array", items: { $ref: "#" } }, "R", registry).type,
    "[JSON]!",
  );
  assert.equal(
    output(
      {
        $ref: "#/definitions/a~1b/properties/x%20y",
        definitions: { "a/b": { properties: { "x y": { type: "integer" } } } },
      },
      "R",
      registry,
    ).type,
    "Int!",
  );
  assert.equal(
    output(
      { $ref: "#/$defs/list/1", $defs: { list: [{ type: "string" }, { type: "boolean" }] } },
      "R",
      registry,
    )
      .type,
    "Boolean!",
  );
  validSDL(registry);
});

Deno.test("refs: recursive unions (a tree of variants) resolve by name", () => {
  const schema: JsonSchema = {
    $ref: "#/$defs/Node",
    $defs: {
      Node: { anyOf: [{ $ref: "#/$defs/Leaf" }, { $ref: "#/$defs/Group" }] },
      Leaf: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
      Group: {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        required: ["children"],
      },
    },
  };
  const { type, registry } = output(schema, "Tree");
  assert.equal(type, "Node!");
  assert.equal(
    validSDL(registry),
    "union Node = Leaf | Group\n\ntype Leaf {\n  value: String!\n}\n\n" +
      "type Group {\n  children: [Node!]!\n}",
  );
  assert.equal(registry.resolveUnion("Node", { children: [] }), "Group");
});

Deno.test("dedupe: one schema used twice, or an identical one, shares one type", () => {
  const registry = new GraphQLTypeRegistry();
  const Point = z.object({ x: z.number(), y: z.number() });
  assert.equal(output(zodOut(Point), "PointsGetResult", registry).type, "PointsGetResult!");
  assert.equal(output(zodOut(Point), "Other", registry).type, "PointsGetResult!");
  assert.equal(
    output(zodOut(z.object({ x: z.number(), y: z.number() })), "Another", registry).type,
    "PointsGetResult!",
  );
  assert.equal(
    output(
      {
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
        type: "object",
      },
      "Hand",
      registry,
    ).type,
    "PointsGetResult!",
  );
  assert.equal(output(zodOut(z.array(Point)), "List", registry).type, "[PointsGetResult!]!");
  assert.deepEqual(names(registry), ["PointsGetResult"]);
  validSDL(registry);
});

Deno.test("dedupe: the same title with another structure gets the next free name", () => {
  const registry = new GraphQLTypeRegistry();
  const v1 = z.object({ id: z.string() }).meta({ title: "Book" });
  const v2 = z.object({ id: z.string(), title: z.string() }).meta({ title: "Book" });
  const v3 = z.object({ id: z.number() }).meta({ title: "Book" });
  assert.equal(output(zodOut(v1), "A", registry).type, "Book!");
  assert.equal(output(zodOut(v2), "B", registry).type, "Book2!");
  assert.equal(output(zodOut(v3), "C", registry).type, "Book3!");
  assert.equal(output(zodOut(v2), "D", registry).type, "Book2!");
  // Different descriptions, nullability or field keys are different types too.
  assert.equal(
    output(zodOut(z.object({ id: z.string().optional() }).meta({ title: "Book" })), "E", registry)
      .type,
    "Book4!",
  );
  assert.equal(
    output(
      zodOut(z.object({ id: z.string() }).meta({ title: "Book", description: "Other" })),
      "F",
      registry,
    ).type,
    "Book5!",
  );
  validSDL(registry);
});

Deno.test("dedupe: untitled types that want one hint get numbered", () => {
  const registry = new GraphQLTypeRegistry();
  assert.equal(
    output({ type: "object", properties: { a: { type: "string" } } }, "R", registry).type,
    "R!",
  );
  assert.equal(
    output({ type: "object", properties: { b: { type: "string" } } }, "R", registry).type,
    "R2!",
  );
  assert.equal(output({ type: "string", enum: ["X"] }, "R", registry).type, "R3!");
  const Status = (values: string[]) => ({ type: "string", title: "Status", enum: values });
  assert.equal(output(Status(["A", "B"]), "X", registry).type, "Status!");
  assert.equal(input(Status(["A", "C"]), "X", registry).type, "Status2!");
  assert.equal(output(Status(["A", "B"]), "Y", registry).type, "Status!");
  validSDL(registry);
});

Deno.test("dedupe: input and output forms of one title never collide, in either order", () => {
  const Book = z.object({ title: z.string() }).meta({ title: "Book" });
  const first = new GraphQLTypeRegistry();
  input(zodIn(Book), "BooksAddInput", first);
  output(zodOut(Book), "BooksAddResult", first);
  const second = new GraphQLTypeRegistry();
  output(zodOut(Book), "BooksAddResult", second);
  input(zodIn(Book), "BooksAddInput", second);
  assert.deepEqual(names(first), ["BookInput", "Book"]);
  assert.deepEqual(names(second), ["Book", "BookInput"]);
  validSDL(first);
  validSDL(second);
  // A title already ending in Input is kept.
  const third = new GraphQLTypeRegistry();
  input(
    { type: "object", title: "NewBookInput", properties: { t: { type: "string" } } },
    "X",
    third,
  );
  assert.deepEqual(names(third), ["NewBookInput"]);
});

Deno.test("dedupe: deterministic: the same calls give the same names and SDL", () => {
  const run = () => {
    const registry = new GraphQLTypeRegistry();
    const Tag = z.object({ label: z.string() });
    output(zodOut(z.object({ tags: z.array(Tag), main: Tag })), "A", registry);
    output(zodOut(z.object({ label: z.number() })), "A", registry);
    input(zodIn(z.object({ tag: Tag, kind: z.enum(["X", "Y"]) })), "AInput", registry);
    return toGraphQL(registry);
  };
  assert.equal(run(), run());
});

Deno.test("descriptions: types, fields, enums and unions carry their descriptions", () => {
  const Book = z.object({
    title: z.string().describe("The title"),
    note: z.string().nullable().describe("A note"),
    maybe: z.string().describe("Inner").nullable(),
  }).describe("A book");
  const { registry } = output(zodOut(Book), "Book");
  assert.equal(
    validSDL(registry),
    '"""A book"""\ntype Book {\n  """The title"""\n  title: String!\n  """A note"""\n  note: String\n' +
      '  """Inner"""\n  maybe: String\n}',
  );
});

Deno.test("descriptions: awkward text survives the block string exactly", () => {
  const texts = [
    'Quotes " and "" and """ triple',
    'Ends with a quote"',
    "Ends with a backslash\\",
    "  leading spaces\n    and indented lines\n",
    "\n\nleading blank lines",
    "Tabs\tand unicode ☃ and emoji 🎉",
    "Escapes \\n stay \\u0041 literal",
    'Line one\n\n"""\nLine four',
    "a\r\nb",
    "control \u0001 char",
  ];
  const registry = new GraphQLTypeRegistry();
  texts.forEach((description, index) => {
    registry.define({
      kind: "object",
      name: `T${index}`,
      description,
      fields: [{
        name: "f",
        type: "Int",
        description,
        args: [{ name: "a", type: "Int", description }],
      }],
    });
  });
  const schema = built(registry);
  texts.forEach((description, index) => {
    const type = schema.getType(`T${index}`) as GraphQLObjectType;
    assert.equal(type.description, description, JSON.stringify(description));
    assert.equal(type.getFields().f.description, description);
    assert.equal(type.getFields().f.args[0].description, description);
  });
  const lone = new GraphQLTypeRegistry();
  lone.define({
    kind: "enum",
    name: "E",
    values: ["A"],
    description: "lone \ud800 \udc00 pair \ud83c\udf89",
  });
  assert.equal(built(lone).getType("E")?.description, "lone \ufffd \ufffd pair \ud83c\udf89");
});

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

Deno.test("JSON scalar: values pass through; literals of every kind are read", () => {
  const { JSON: json } = scalarImplementations();
  const value = { a: [1, "x", null, true], b: { c: 1.5 } };
  assert.equal(json.serialize(value), value);
  assert.equal(json.parseValue(value), value);
  assert.deepEqual(
    literal(json, '{ a: [1, "x", null, true], b: { c: 1.5 }, s: """block""" }'),
    { a: [1, "x", null, true], b: { c: 1.5 }, s: "block" },
  );
  assert.equal(literal(json, "42"), 42);
  assert.equal(literal(json, '"text"'), "text");
  assert.equal(literal(json, "null"), null);
  assert.deepEqual(
    literal(json, "{ v: $v, list: [$v, $missing], gone: $missing }", { v: { n: 1 } }),
    { v: { n: 1 }, list: [{ n: 1 }, null] },
  );
  assert.deepEqual(valueFromAST(parseValue("[1, 2]"), json), [1, 2]);
  assert.throws(() => literal(json, "{ a: ENUM_VALUE }"), /JSON cannot represent/);
});

Deno.test("JSON scalar: a __proto__ key in a literal stays an own data property", () => {
  const { JSON: json } = scalarImplementations();
  const parsed = literal(json, "{ __proto__: { polluted: true }, ok: 1 }") as Record<
    string,
    unknown
  >;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.keys(parsed), ["__proto__", "ok"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((parsed as { polluted?: unknown }).polluted, undefined);
});

Deno.test("DateTime scalar: serialize takes Dates and RFC 3339 strings", () => {
  const { DateTime } = scalarImplementations();
  assert.equal(
    DateTime.serialize(new Date(Date.UTC(2024, 1, 29, 12, 0, 0))),
    "2024-02-29T12:00:00.000Z",
  );
  assert.equal(DateTime.serialize("2024-05-01T12:30:00+02:00"), "2024-05-01T12:30:00+02:00");
  assert.equal(DateTime.serialize("1990-12-31t23:59:60.123z"), "1990-12-31t23:59:60.123z");
  for (const bad of [new Date(Number.NaN), "2024-05-01", "yesterday", 0, null, {}]) {
    assert.throws(() => DateTime.serialize(bad), /DateTime cannot represent/, String(bad));
  }
});

Deno.test("DateTime scalar: parseValue and parseLiteral validate and give the string", () => {
  const { DateTime } = scalarImplementations();
  assert.equal(DateTime.parseValue("2024-05-01T12:30:00Z"), "2024-05-01T12:30:00Z");
  assert.equal(
    literal(DateTime, '"2000-02-29T00:00:00-05:30"'),
    "2000-02-29T00:00:00-05:30",
  );
  for (
    const bad of [
      "2023-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2024-04-31T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T12:60:00Z",
      "2024-05-01T12:00:00+24:00",
      "2024-05-01 12:00:00Z",
      "2024-05-01T12:00:00",
      new Date(),
      1714566600000,
    ]
  ) {
    assert.throws(() => DateTime.parseValue(bad), /DateTime cannot represent/, String(bad));
  }
  assert.throws(() => literal(DateTime, "1714566600"), /DateTime cannot represent/);
  assert.throws(() => literal(DateTime, '"soon"'), /DateTime cannot represent/);
  assert.equal(
    valueFromAST(parseValue('"2024-05-01T12:30:00Z"'), DateTime),
    "2024-05-01T12:30:00Z",
  );
  assert.equal(valueFromAST(parseValue('"nope"'), DateTime), undefined);
});

Deno.test("scalars: work end to end in an executed schema", async () => {
  const scalars = scalarImplementations();
  const json = scalars.JSON as GraphQLScalarType;
  const dateTime = scalars.DateTime as GraphQLScalarType;
  assert.equal(scalarImplementations().JSON, json);
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: {
        echo: { type: json, args: { v: { type: json } }, resolve: (_, args) => args.v },
        when: {
          type: dateTime,
          args: { at: { type: dateTime } },
          resolve: (_, args) => args.at ?? new Date(Date.UTC(2020, 0, 1)),
        },
        kind: { type: GraphQLString, resolve: () => "ok" },
      },
    }),
  });
  const result = await graphql({
    schema,
    source: "query ($x: JSON, $t: DateTime) { a: echo(v: { n: [1, $x] }) b: echo(v: $x) " +
      'c: when d: when(at: "2024-05-01T00:00:00Z") e: when(at: $t) kind }',
    variableValues: { x: { deep: [true] }, t: "2021-01-01T00:00:00+01:00" },
  });
  assert.deepEqual(result.errors, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    a: { n: [1, { deep: [true] }] },
    b: { deep: [true] },
    c: "2020-01-01T00:00:00.000Z",
    d: "2024-05-01T00:00:00Z",
    e: "2021-01-01T00:00:00+01:00",
    kind: "ok",
  });
  const bad = await graphql({ schema, source: '{ when(at: "tomorrow") }' });
  assert.equal(bad.errors?.length, 1);
  const badVar = await graphql({
    schema,
    source: "query ($t: DateTime) { when(at: $t) }",
    variableValues: { t: "tomorrow" },
  });
  assert.equal(badVar.errors?.length, 1);
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
