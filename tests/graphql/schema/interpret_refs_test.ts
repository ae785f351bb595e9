// JSON Schema to GraphQL, how a schema reads: unions and `$ref`s, recursion
// included.
import assert from "node:assert/strict";
import { GraphQLTypeRegistry, JSON_SCALAR } from "@ramify/api/graphql";
import type { JsonSchema } from "@ramify/api/tree/catalogue";
import { isObjectType, isUnionType } from "graphql";
import { z } from "zod";
import {
  built,
  definition,
  input,
  names,
  output,
  validSDL,
  zodIn,
  zodOut,
} from "./types_support.ts";

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
