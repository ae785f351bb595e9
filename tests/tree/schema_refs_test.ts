// mapRefs (tree/schema_refs.ts), the one walker that rewrites a schema's
// references: it knows keyword positions, so a property named `default`,
// `enum`, `const` or `$ref` is a schema whose references move, while the
// values of those keywords are data; unchanged parts are not copied.
import assert from "node:assert/strict";
import { mapRefs } from "../../tree/schema_refs.ts";

const moved = (ref: string) => `#/moved${ref.slice(1)}`;

Deno.test("mapRefs: properties named like data keywords are schemas; the keywords' values are data", () => {
  const schema = {
    type: "object",
    properties: {
      default: { $ref: "#" },
      enum: { type: "array", items: { $ref: "#/$defs/Leaf" } },
      const: { anyOf: [{ $ref: "#" }, { type: "null" }] },
      $ref: { $ref: "#/$defs/Leaf" },
      examples: { $ref: "#" },
    },
    default: { $ref: "#/data" },
    enum: [{ $ref: "#/data" }],
    const: { $ref: "#/data" },
    examples: [{ $ref: "#/data" }],
    example: { $ref: "#/data" },
    $defs: { Leaf: { properties: { default: { $ref: "#/$defs/Leaf" } } } },
  };
  assert.deepEqual(mapRefs(schema, moved), {
    type: "object",
    properties: {
      default: { $ref: "#/moved" },
      enum: { type: "array", items: { $ref: "#/moved/$defs/Leaf" } },
      const: { anyOf: [{ $ref: "#/moved" }, { type: "null" }] },
      $ref: { $ref: "#/moved/$defs/Leaf" },
      examples: { $ref: "#/moved" },
    },
    default: { $ref: "#/data" },
    enum: [{ $ref: "#/data" }],
    const: { $ref: "#/data" },
    examples: [{ $ref: "#/data" }],
    example: { $ref: "#/data" },
    $defs: { Leaf: { properties: { default: { $ref: "#/moved/$defs/Leaf" } } } },
  });
});

Deno.test("mapRefs: every schema position of drafts 2020-12 and 7 is walked", () => {
  const ref = { $ref: "#/x" };
  const schema = {
    prefixItems: [ref],
    items: ref,
    additionalItems: ref,
    contains: ref,
    additionalProperties: ref,
    patternProperties: { "^a": ref },
    propertyNames: ref,
    dependentSchemas: { a: ref },
    dependencies: { a: ref, b: ["c"] },
    not: ref,
    if: ref,
    then: ref,
    else: ref,
    allOf: [ref],
    anyOf: [ref],
    oneOf: [ref],
    unevaluatedItems: ref,
    unevaluatedProperties: ref,
    contentSchema: ref,
    definitions: { A: ref },
  };
  const text = JSON.stringify(mapRefs(schema, moved));
  assert.equal(text.includes('"#/x"'), false, text);
  assert.equal(text.match(/#\/moved\/x/g)?.length, 20);
  assert.deepEqual(
    (mapRefs({ items: [ref, { type: "string" }] }, moved) as { items: unknown[] }).items,
    [{ $ref: "#/moved/x" }, { type: "string" }],
    "draft 7's list of items",
  );
});

Deno.test("mapRefs: parts without a rewritten reference are the originals; names stay own data", () => {
  const plain = { type: "object", properties: { id: { type: "string" } } };
  assert.equal(mapRefs(plain, moved), plain);
  const schema = { properties: { id: plain, next: { $ref: "#" } }, required: ["id"] };
  const out = mapRefs(schema, moved) as typeof schema;
  assert.notEqual(out, schema);
  assert.equal(out.properties.id, plain);
  assert.equal(out.required, schema.required);
  const hostile = JSON.parse('{"properties":{"__proto__":{"$ref":"#"}}}');
  const safe = mapRefs(hostile, moved) as { properties: Record<string, unknown> };
  assert.equal(Object.getPrototypeOf(safe.properties), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(safe.properties, "__proto__")?.value, {
    $ref: "#/moved",
  });
});
