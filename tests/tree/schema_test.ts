import assert from "node:assert/strict";
import { type InputOf, op, type OutputOf } from "@ramify/api/tree";
import {
  hasJsonSchema,
  inputJsonSchema,
  isStandardSchema,
  outputJsonSchema,
  toJsonSchema,
  validateInput,
} from "@ramify/api/tree/catalogue";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import { assertType, type Equal } from "../support/types.ts";

const BookInput = z.object({ title: z.string(), pages: z.number().int().optional() });

Deno.test("validateInput: gives the schema's output value", async () => {
  const leaf = op(({ title }) => title, { input: BookInput });
  assert.deepEqual(await validateInput(leaf, { title: "Dune", pages: 3 }), {
    ok: true,
    value: { title: "Dune", pages: 3 },
  });
  const coerce = z.object({ n: z.coerce.number() });
  assert.deepEqual(await validateInput(coerce, { n: "2" }), { ok: true, value: { n: 2 } });
});

Deno.test("validateInput: gives issues with plain key paths", async () => {
  const leaf = op(({ title }) => title, { input: BookInput });
  const result = await validateInput(leaf, { title: 1, pages: 1.5 });
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(result.issues.map((issue) => issue.path), [["title"], ["pages"]]);
  assert.ok(result.issues.every((issue) => typeof issue.message === "string"));
});

Deno.test("validateInput: passes any value without a schema", async () => {
  const leaf = op((input: { a: number }) => input.a);
  assert.deepEqual(await validateInput(leaf, { a: "x" }), { ok: true, value: { a: "x" } });
});

Deno.test("validateInput: works with an async schema and PathSegment paths", async () => {
  const schema: StandardSchemaV1<unknown, string> = {
    "~standard": {
      version: 1,
      vendor: "hand",
      validate: (value) =>
        Promise.resolve(
          typeof value === "string"
            ? { value }
            : { issues: [{ message: "not a string", path: [{ key: "a" }, 0] }] },
        ),
    },
  };
  assert.deepEqual(await validateInput(schema, "x"), { ok: true, value: "x" });
  assert.deepEqual(await validateInput(schema, 1), {
    ok: false,
    issues: [{ message: "not a string", path: ["a", 0] }],
  });
  assert.equal(hasJsonSchema(schema), false);
  assert.equal(toJsonSchema(schema, "input"), undefined);
});

Deno.test("isStandardSchema: recognises schemas, refuses look-alikes", () => {
  assert.ok(isStandardSchema(z.string()));
  assert.ok(!isStandardSchema({ "~standard": { version: 2, validate() {} } }));
  assert.ok(!isStandardSchema({ "~standard": { version: 1 } }));
  assert.ok(!isStandardSchema(null));
  assert.ok(!isStandardSchema("string"));
});

Deno.test("JSON Schema: input and output sides, draft 2020-12, cached", () => {
  const leaf = op(({ title }) => ({ id: "1", title }), {
    input: BookInput,
    output: z.object({ id: z.string(), title: z.string() }),
  });
  const input = inputJsonSchema(leaf)!;
  assert.equal(input.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(input.required, ["title"]);
  assert.deepEqual(Object.keys(input.properties as object), ["title", "pages"]);
  assert.equal(inputJsonSchema(leaf), input, "cached per schema");
  assert.deepEqual(outputJsonSchema(leaf)!.required, ["id", "title"]);
  assert.equal(inputJsonSchema(op(() => 1)), undefined);
  assert.equal(outputJsonSchema(op(() => 1)), undefined);
});

Deno.test("JSON Schema: the two sides differ where the schema transforms", () => {
  const schema = z.object({ at: z.string().transform((s) => s.length) });
  assert.equal(
    (toJsonSchema(schema, "input")!.properties as Record<string, { type?: string }>).at.type,
    "string",
  );
  assert.throws(() => toJsonSchema(schema, "output"), /output schema \(zod\) cannot be expressed/);
});

// ---- Type tests: checked by `deno check` / `deno test`, never run for values.

Deno.test("types: a schema types the handler's parameter and the caller's input", () => {
  const add = op((input) => {
    assertType<Equal<typeof input, { title: string; pages?: number | undefined }>>(true);
    // @ts-expect-error no such key in the schema
    input.author;
    // @ts-expect-error title is a string
    const n: number = input.title;
    return { id: "1", title: input.title, n };
  }, { input: BookInput });
  assertType<Equal<InputOf<typeof add>, { title: string; pages?: number | undefined }>>(true);
  assertType<Equal<OutputOf<typeof add>, { id: string; title: string; n: number }>>(true);
});

Deno.test("types: a transforming schema gives callers its input type, handlers its output", () => {
  const leaf = op((input) => {
    assertType<Equal<typeof input, { n: number }>>(true);
    return input.n;
  }, { input: z.object({ n: z.string().transform(Number) }) });
  assertType<Equal<InputOf<typeof leaf>, { n: string }>>(true);
});

Deno.test("types: without a schema the handler keeps its own annotation", async () => {
  const read = op(({ id }: { id: string }) => Promise.resolve({ id, found: true }));
  assertType<Equal<InputOf<typeof read>, { id: string }>>(true);
  assertType<Equal<OutputOf<typeof read>, { id: string; found: boolean }>>(true);
  // @ts-expect-error id must be a string
  await read.handler({ id: 1 }, {});
  // @ts-expect-error the annotation must agree with the schema
  op(({ id }: { id: number }) => id, { input: z.object({ id: z.string() }) });
});

Deno.test("types: an unannotated, schema-less handler gets an open object, not any", () => {
  const leaf = op((input) => {
    assertType<Equal<typeof input, Record<string, unknown>>>(true);
    // @ts-expect-error values are unknown, not any
    const s: string = input.anything;
    return s;
  });
  assertType<Equal<InputOf<typeof leaf>, Record<string, unknown>>>(true);
});

Deno.test("types: verb bundles and moves do not disturb schema inference", async () => {
  const { http } = await import("@ramify/api/http/verbs");
  const leaf = op((input) => input.title, http.put, { input: BookInput }, http.moveTo(".."));
  assertType<Equal<InputOf<typeof leaf>, { title: string; pages?: number | undefined }>>(true);
  assertType<Equal<OutputOf<typeof leaf>, string>>(true);
});
