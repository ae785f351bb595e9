/**
 * Query strings (and form fields) carry only strings. With an input schema, each
 * top-level property's JSON Schema type says how to read them, so that
 * `?page=2&tags=a&tags=b` reaches validation as `{ page: 2, tags: ["a", "b"] }`.
 * The plan is built once per operation, with the schema's local `$ref`s
 * followed (`.meta({ id })` files a property under `$defs`); values that do
 * not read cleanly are left as they are, for validation to report.
 *
 * Internal: not a public subpath. Used by the HTTP server's dispatch and the
 * OpenAPI document, which must read the query alike.
 *
 * @module
 */

import type { JsonSchema } from "../../tree/schema.ts";
import { setOwn } from "../../tree/plain_data.ts";
import { followRefs } from "../../tree/schema_refs.ts";
import { checkDepth } from "./request.ts";

type Kind =
  | { readonly type: "number" | "integer" | "boolean" | "object" | "string" | "any" }
  | { readonly type: "array"; readonly items: Kind };

/** How to read each top-level property from strings. */
export type CoercionPlan = ReadonlyMap<string, Kind>;

/** The plan for an input JSON Schema, or `undefined` when there is nothing to coerce. */
export function coercionPlan(schema: JsonSchema | undefined): CoercionPlan | undefined {
  if (schema === undefined) return undefined;
  // A named input object is a reference to its `$defs` entry.
  const properties = (followRefs(schema, schema) as JsonSchema | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return undefined;
  const plan = new Map<string, Kind>();
  for (const [name, property] of Object.entries(properties)) {
    const kind = kindOf(property, schema, 0);
    if (kind.type !== "string" && kind.type !== "any") plan.set(name, kind);
  }
  return plan.size === 0 ? undefined : plan;
}

/** How deep arrays of arrays are read; a schema that holds itself stops here. */
const MAX_NESTING = 8;

function kindOf(schema: unknown, root: JsonSchema, depth: number): Kind {
  const resolved = followRefs(schema, root);
  if (typeof resolved !== "object" || resolved === null || depth > MAX_NESTING) {
    return { type: "any" };
  }
  const s = resolved as Record<string, unknown>;
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => t !== "null");
  if (types.length === 1) {
    const type = types[0];
    if (type === "array") return { type: "array", items: kindOf(s.items, root, depth + 1) };
    if (
      type === "number" || type === "integer" || type === "boolean" || type === "object" ||
      type === "string"
    ) return { type };
  }
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const kinds = union.filter((member) => {
      const target = followRefs(member, root);
      return !(typeof target === "object" && target !== null &&
        (target as Record<string, unknown>).type === "null");
    });
    if (kinds.length === 1) return kindOf(kinds[0], root, depth + 1);
  }
  return { type: "any" };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function coerce(value: unknown, kind: Kind, maxDepth: number): unknown {
  if (kind.type === "array") {
    const items = Array.isArray(value) ? value : [value];
    return items.map((item) => coerce(item, kind.items, maxDepth));
  }
  if (typeof value !== "string") return value;
  switch (kind.type) {
    case "number":
    case "integer":
      return NUMBER.test(value) ? Number(value) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "object": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return value;
      }
      checkDepth(parsed, maxDepth);
      return parsed;
    }
    default:
      return value;
  }
}

/** Coerces string values in place of a fresh object; keys without a plan pass unchanged. */
export function coerceStrings(
  values: Record<string, unknown>,
  plan: CoercionPlan,
  maxDepth: number,
): Record<string, unknown> {
  const coerced: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    const kind = plan.get(key);
    setOwn(coerced, key, kind === undefined ? values[key] : coerce(values[key], kind, maxDepth));
  }
  return coerced;
}
