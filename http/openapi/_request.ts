// The request side of an OpenAPI operation: its query parameters and its
// body, from the input schema, or free-form for a leaf without one (captures,
// query and body merged as sent).

import type { JsonSchema } from "../../tree/schema.ts";
import type { ComponentRegistry } from "./_components.ts";
import { sharedBody } from "./_shared.ts";

export function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  const properties = schema?.properties;
  return typeof properties === "object" && properties !== null
    ? properties as Record<string, JsonSchema>
    : {};
}

/**
 * A query parameter as `createFetch` reads it (the same coercion plan decides):
 * arrays as repeated keys, objects as JSON text, everything else as a plain value.
 */
export function queryParameter(
  name: string,
  schema: JsonSchema,
  required: ReadonlySet<string>,
  read: string | undefined,
): Record<string, unknown> {
  const description = typeof schema.description === "string"
    ? { description: schema.description }
    : {};
  const base = { name, in: "query", required: required.has(name), ...description };
  if (read === "object") return { ...base, content: { "application/json": { schema } } };
  return { ...base, schema, ...(read === "array" ? { style: "form", explode: true } : {}) };
}

/**
 * The query of a leaf without an input schema: any named values, each a
 * string (a repeated key, a list of them), merged with the body and captures.
 */
export const OPEN_QUERY = {
  name: "input",
  in: "query",
  required: false,
  description: "Named inputs, merged with the path captures (and the body, for a verb with one)",
  schema: {
    type: "object",
    additionalProperties: {
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    },
  },
  style: "form",
  explode: true,
};

export function bodyOf(
  input: JsonSchema | undefined,
  open: boolean,
  params: readonly string[],
  required: ReadonlySet<string>,
  registry: ComponentRegistry,
  hint: string,
): Record<string, unknown> {
  const schema = open
    ? {
      type: "object",
      description: "Named inputs, merged with the query and the path captures (which win)",
    }
    : input === undefined
    ? { type: "object", description: "Named inputs (the input schema has no JSON Schema form)" }
    : withoutParams(input, params, registry, hint);
  // Files travel as multipart form data, which the server reads like JSON.
  const media = carriesFiles(input) ? "multipart/form-data" : "application/json";
  let needed = false;
  for (const name of required) if (!params.includes(name)) needed = true;
  return sharedBody(schema, media, needed);
}

/** Whether a top-level property (or its items) is binary: a file (`z.file()`). */
function carriesFiles(input: JsonSchema | undefined): boolean {
  const binary = (schema: unknown) =>
    (schema as JsonSchema | null | undefined)?.format === "binary";
  return Object.values(propertiesOf(input)).some((property) =>
    binary(property) || binary((property as JsonSchema | null)?.items)
  );
}

/** The body schema: the input less its path captures, named when titled. */
function withoutParams(
  schema: JsonSchema,
  params: readonly string[],
  registry: ComponentRegistry,
  hint: string,
): JsonSchema {
  if (params.length === 0) return registry.prepare(schema, { owner: hint, side: "Input" }, true);
  const properties: Record<string, unknown> = { ...propertiesOf(schema) };
  for (const name of params) delete properties[name];
  const required = (Array.isArray(schema.required) ? schema.required as string[] : [])
    .filter((name) => !params.includes(name));
  const { required: _all, title: _title, $id: _id, ...rest } = schema;
  return { ...rest, properties, ...(required.length === 0 ? {} : { required }) };
}
