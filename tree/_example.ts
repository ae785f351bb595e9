// A value a JSON Schema accepts, for `mock()`: the schema's own example, default
// or constant when it gives one, else the smallest value of its type that
// honours the bounds. Patterns are not solved: such a string is refused by the
// output schema, and the mock answers 500 for that leaf.
import type { JsonSchema } from "./schema.ts";
import { isPlainObject } from "./plain_data.ts";
import { resolveRef } from "./schema_refs.ts";

// Recursive schemas end here: an optional property is left out, a list empty.
const MAX_DEPTH = 8;

const FORMATS: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00.000Z",
  date: "2026-01-01",
  time: "00:00:00",
  email: "ann@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
};

/** A value `schema` accepts; `$ref`s resolve against `root`. */
export function exampleOf(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const s = schema as JsonSchema;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (typeof s.$ref === "string") return exampleOf(resolve(root, s.$ref), root, depth + 1);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = s[key];
    if (Array.isArray(members) && members.length > 0) {
      // A member other than null, when there is one: a mock should show the shape.
      const chosen = members.find((m) => (m as JsonSchema)?.type !== "null") ?? members[0];
      return exampleOf(chosen, root, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((part) => exampleOf(part, root, depth + 1));
    return parts.every(isPlainObject) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") ?? "null" : s.type;
  switch (type) {
    case "object":
      return objectOf(s, root, depth);
    case "array": {
      const count = depth >= MAX_DEPTH ? 0 : Math.max(numberAt(s.minItems) ?? 1, 0);
      if (Array.isArray(s.prefixItems)) {
        return s.prefixItems.map((item) => exampleOf(item, root, depth + 1));
      }
      return Array.from({ length: count }, () => exampleOf(s.items, root, depth + 1));
    }
    case "string":
      return stringOf(s);
    case "integer":
    case "number":
      return numberOf(s, type === "integer");
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return isPlainObject(s.properties) ? objectOf(s, root, depth) : null;
  }
}

function objectOf(s: JsonSchema, root: unknown, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const properties = isPlainObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  for (const [name, property] of Object.entries(properties)) {
    if (depth >= MAX_DEPTH && !required.has(name)) continue;
    Object.defineProperty(value, name, {
      value: exampleOf(property, root, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return value;
}

function stringOf(s: JsonSchema): string {
  const format = typeof s.format === "string" ? FORMATS[s.format] : undefined;
  if (format !== undefined) return format;
  const min = numberAt(s.minLength) ?? 0;
  const max = numberAt(s.maxLength) ?? Infinity;
  const text = "string".padEnd(min, "s");
  return text.length > max ? text.slice(0, max) : text;
}

function numberOf(s: JsonSchema, integer: boolean): number {
  const min = numberAt(s.minimum);
  const above = numberAt(s.exclusiveMinimum);
  const max = numberAt(s.maximum) ?? numberAt(s.exclusiveMaximum);
  let value = min ?? (above === undefined ? 0 : above + (integer ? 1 : 0.5));
  if (max !== undefined && value > max) value = max;
  const step = numberAt(s.multipleOf);
  if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
  return integer ? Math.ceil(value) : value;
}

function resolve(root: unknown, ref: string): unknown {
  return resolveRef(ref, root)?.schema ?? null;
}

function numberAt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
