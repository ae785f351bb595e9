// The TypeScript type of a JSON value a JSON Schema describes, as one
// expression: for the generated client's declared error details, which travel
// as JSON in the tree's spelling (GraphQL never renames them).

import type { JsonSchema } from "../../tree/schema.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { resolveRef } from "../../tree/schema_refs.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PRIMITIVES: Readonly<Record<string, string>> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  null: "null",
};

/**
 * The type of the values `schema` describes; `unknown` for what it cannot say
 * (a remote reference, recursion, `not`, an empty schema).
 */
export function jsonType(schema: JsonSchema | undefined): string {
  return schema === undefined ? "unknown" : typeOf(schema, schema, new Set());
}

function typeOf(schema: unknown, root: JsonSchema, refs: Set<string>): string {
  if (!isPlainObject(schema)) return "unknown";
  const ref = schema.$ref;
  if (typeof ref === "string") {
    // A local reference's target (`#`, `#/$defs/Name`, any JSON pointer into the root).
    const target = resolveRef(ref, root)?.schema;
    // A type that holds itself would be infinite as one expression.
    if (target === undefined || refs.has(ref)) return "unknown";
    refs.add(ref);
    try {
      return typeOf(target, root, refs);
    } finally {
      refs.delete(ref);
    }
  }
  const inner = (sub: unknown) => typeOf(sub, root, refs);
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  for (const key of ["anyOf", "oneOf"] as const) {
    const variants = schema[key];
    if (Array.isArray(variants)) return union(variants.map(inner));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schema.allOf.map((member) => `(${inner(member)})`).join(" & ");
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.some((type) => typeof type !== "string")) {
    return isPlainObject(schema.properties) ? objectType(schema, inner) : "unknown";
  }
  return union(types.map((type: string) => {
    if (type === "array") return arrayType(schema, inner);
    if (type === "object") return objectType(schema, inner);
    return PRIMITIVES[type] ?? "unknown";
  }));
}

function literal(value: unknown): string {
  return ["string", "number", "boolean"].includes(typeof value) || value === null
    ? JSON.stringify(value)
    : "unknown";
}

function union(members: readonly string[]): string {
  const unique = [...new Set(members)];
  if (unique.length === 0 || unique.includes("unknown")) return "unknown";
  return unique.length === 1 ? unique[0] : unique.map((member) => `(${member})`).join(" | ");
}

function arrayType(schema: JsonSchema, inner: (sub: unknown) => string): string {
  if (Array.isArray(schema.prefixItems)) {
    return `[${schema.prefixItems.map(inner).join(", ")}]`;
  }
  return `Array<${schema.items === undefined ? "unknown" : inner(schema.items)}>`;
}

function objectType(schema: JsonSchema, inner: (sub: unknown) => string): string {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.keys(properties).map((key) =>
    `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}${required.has(key) ? "" : "?"}: ${
      inner(properties[key])
    }`
  );
  const rest = schema.additionalProperties;
  if (fields.length === 0) {
    return `Record<string, ${isPlainObject(rest) ? inner(rest) : "unknown"}>`;
  }
  return `{ ${fields.join("; ")} }`;
}
