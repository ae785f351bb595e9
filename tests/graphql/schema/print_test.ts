// The SDL is printed straight from the definitions, without graphql-js's AST
// and printer: on varied trees (descriptions of every awkward kind, arguments
// printed one per line, defaults long and short, enums, unions, inputs,
// scalars with a specification URL) it is exactly what graphql-js prints for
// the same document.
import assert from "node:assert/strict";
import { buildSchema, parse, print } from "graphql";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { GraphQLTypeRegistry, toGraphQL, toSDL } from "@ramify/api/graphql";

const sameAsGraphQLJs = (sdl: string) => {
  buildSchema(sdl);
  assert.equal(sdl, print(parse(sdl)));
};

const Shape = z.union([
  z.object({ kind: z.literal("circle"), radius: z.number() }).meta({ title: "Circle" }),
  z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
]);

const tree = api({
  books: api({
    list: op(() => [], {
      tags: { readOnly: true },
      description: 'Lists books.\n\n  Indented second paragraph, "quoted", and a \\ backslash.',
      input: z.object({
        limit: z.number().int().default(10).describe("How many"),
        status: z.enum(["draft", "live"]).default("live"),
        tags: z.array(z.string()).default(["one", "two", "three", "four", "five", "six"]),
        page: z.object({
          size: z.number().default(5),
          cursor: z.string().describe('A cursor """ with triple quotes').optional(),
        }).default({ size: 5, cursor: "a rather long cursor value that makes this line long" }),
        since: z.iso.datetime().optional(),
      }),
      output: z.array(
        z.object({ title: z.string(), at: z.iso.datetime() }).meta({
          title: "Book",
          description: "   leading spaces, trailing newline\n",
        }),
      ),
    }),
    add: op(({ shape }) => shape, {
      description: "Lone surrogate \uD800 here",
      input: z.object({ title: z.string().describe("\n\nblank lines first"), shape: Shape }),
      output: Shape,
    }),
    remove: op(() => undefined, { output: z.void(), description: "Removes.\r\nWindows line end" }),
  }),
  ping: op(() => "pong", { tags: { readOnly: true } }),
  tail: op(() => "x", { description: 'ends with a quote"' }),
});

Deno.test("print: the SDL of a varied tree is what graphql-js prints", () => {
  const sdl = toSDL(tree);
  sameAsGraphQLJs(sdl);
  assert.match(sdl, /scalar DateTime @specifiedBy\(url: "/);
  assert.match(sdl, /union \w+ = Circle \| Square/);
  assert.match(sdl, /list\(\n {4}"""How many"""\n {4}limit: Int = 10\n/);
});

Deno.test("print: a tree without queries and a registry of every kind print as graphql-js does", () => {
  sameAsGraphQLJs(toSDL(api({ add: op(() => 1) })));
  const registry = new GraphQLTypeRegistry();
  registry.define({ kind: "enum", name: "Status", values: ["OPEN", "CLOSED"], description: "S" });
  registry.define({ kind: "union", name: "Either", members: ["A", "B"] });
  registry.define({ kind: "object", name: "A", fields: [{ name: "a", type: "[ Int ! ] !" }] });
  registry.define({ kind: "object", name: "B", fields: [{ name: "b", type: "Status" }] });
  registry.define({
    kind: "input",
    name: "Filter",
    fields: [{ name: "status", type: "Status", defaultValue: "OPEN", description: "x\ny" }],
  });
  const text = toGraphQL(registry);
  // Type references come out as graphql-js writes them, whatever their spacing.
  assert.match(text, /a: \[Int!\]!/);
  assert.match(text, /status: Status = OPEN/);
  assert.equal(text, print(parse(text)));
});

Deno.test("print: a type reference that is not one is refused", () => {
  const registry = new GraphQLTypeRegistry();
  assert.throws(() =>
    registry.define({ kind: "object", name: "Bad", fields: [{ name: "a", type: "[Int" }] })
  );
});
