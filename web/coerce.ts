/**
 * Query strings (and form fields) carry only strings. With an input schema, each
 * top-level property's JSON Schema type says how to read them, so that
 * `?page=2&tags=a&tags=b` reaches validation as `{ page: 2, tags: ["a", "b"] }`.
 * The plan is the leaf's one reading of its schema for text (tree/string_plan.ts,
 * which the command line's flags read too); here, values that do not read
 * cleanly are left as they are, for validation to report.
 *
 * Internal: not a public subpath. Used by the HTTP server's dispatch and the
 * OpenAPI document, which must read the query alike.
 *
 * @module
 */

import { setOwn } from "../tree/plain_data.ts";
import type { StringField, StringPlan } from "../tree/string_plan.ts";
import { checkDepth } from "./request.ts";

/** The fields strings are read into: those of another type than text. */
export type CoercionPlan = StringPlan;

/**
 * The part of a leaf's string plan (the catalogue's `strings`) that turns
 * text into other values, or `undefined` when every field takes text as it is.
 */
export function coercionPlan(strings: StringPlan | undefined): CoercionPlan | undefined {
  if (strings === undefined) return undefined;
  const plan = new Map<string, StringField>();
  for (const [name, field] of strings) if (readsText(field)) plan.set(name, field);
  return plan.size === 0 ? undefined : plan;
}

function readsText(field: StringField): boolean {
  return field.type === "array" || (field.type !== "string" && field.type !== "any" &&
    field.type !== "file");
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function coerce(value: unknown, field: StringField, maxDepth: number): unknown {
  if (field.type === "array") {
    const items = Array.isArray(value) ? value : [value];
    return field.items === undefined
      ? items
      : items.map((item) => coerce(item, field.items!, maxDepth));
  }
  if (typeof value !== "string") return value;
  switch (field.type) {
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
    const field = plan.get(key);
    setOwn(coerced, key, field === undefined ? values[key] : coerce(values[key], field, maxDepth));
  }
  return coerced;
}
