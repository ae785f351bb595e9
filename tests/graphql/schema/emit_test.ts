// JSON Schema to GraphQL, how shapes become named types: structurally equal
// schemas share one type, and descriptions carry over.
import assert from "node:assert/strict";
import { GraphQLTypeRegistry, toGraphQL } from "@ramify/api/graphql";
import type { GraphQLObjectType } from "graphql";
import { z } from "zod";
import { built, input, names, output, validSDL, zodIn, zodOut } from "./types_support.ts";

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
