// The one reading of an input schema for text (tree/string_plan.ts): what
// the HTTP query and forms and the command line's flags both read.
import assert from "node:assert/strict";
import { z } from "zod";
import { stringPlanOf } from "../../tree/string_plan.ts";
import { toJsonSchema } from "../../tree/schema.ts";
import { coerceStrings, coercionPlan } from "../../web/coerce.ts";
import { flagsOf } from "../../cli/_flags.ts";

const plan = (schema: z.ZodType) => stringPlanOf(toJsonSchema(schema, "input"));

Deno.test("string plan: each property's type, named schemas followed", () => {
  const Page = z.number().int().meta({ id: "PlanPage" });
  const read = plan(z.object({
    page: Page,
    q: z.string(),
    on: z.boolean().optional(),
    size: z.enum(["s", "m"]),
    kind: z.literal("book"),
    maybe: z.number().nullable(),
    either: z.union([z.string(), z.number()]),
    tags: z.array(z.string()),
    grid: z.array(z.array(z.number())),
    file: z.file(),
    filter: z.object({ min: z.number(), label: z.string().optional() }),
  }))!;
  const types = Object.fromEntries([...read].map(([name, field]) => [name, field.type]));
  assert.deepEqual(types, {
    page: "integer",
    q: "string",
    on: "boolean",
    size: "string",
    kind: "string",
    maybe: "number",
    either: "any",
    tags: "array",
    grid: "array",
    file: "file",
    filter: "object",
  });
  assert.equal(read.get("page")!.required, true);
  assert.equal(read.get("on")!.required, false);
  assert.deepEqual(read.get("size")!.choices, ["s", "m"]);
  assert.deepEqual(read.get("kind")!.choices, ["book"]);
  assert.equal(read.get("tags")!.items!.type, "string");
  assert.equal(read.get("grid")!.items!.items!.type, "number");
  const filter = read.get("filter")!.fields!;
  assert.deepEqual([...filter.keys()], ["min", "label"]);
  assert.deepEqual([filter.get("min")!.required, filter.get("label")!.required], [true, false]);
});

Deno.test("string plan: nothing to read without properties", () => {
  assert.equal(stringPlanOf(undefined), undefined);
  assert.equal(stringPlanOf({ type: "string" }), undefined);
  assert.equal(plan(z.object({}))?.size, 0);
});

Deno.test("string plan: a schema that holds itself is read to a bounded depth", () => {
  const root = { $ref: "#/$defs/A", $defs: { A: { type: "array", items: { $ref: "#/$defs/A" } } } };
  const read = stringPlanOf({ type: "object", properties: { a: root.$defs.A }, $defs: root.$defs });
  let field = read!.get("a");
  let depth = 0;
  while (field?.items !== undefined) [field, depth] = [field.items, depth + 1];
  assert.ok(depth > 0 && depth < 20, `stopped after ${depth}`);
});

Deno.test("string plan: the query and the flags read one plan alike", () => {
  const read = plan(z.object({ page: z.number().int().meta({ id: "FlagPage" }), q: z.string() }));
  const query = coerceStrings({ page: "2", q: "7" }, coercionPlan(read)!, 8);
  assert.deepEqual(query, { page: 2, q: "7" });
  const flags = flagsOf(read, []);
  assert.deepEqual(flags.map((flag) => [flag.name, flag.kind]), [["page", "integer"], [
    "q",
    "string",
  ]]);
  // Text-only inputs need no coercion on HTTP.
  assert.equal(coercionPlan(plan(z.object({ q: z.string(), any: z.unknown() }))), undefined);
});
