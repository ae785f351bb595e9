/**
 * How strings become a leaf's input values: one reading of an input JSON
 * Schema's properties for every surface that only receives text (a query
 * string and form fields over HTTP, flags on the command line). Each field
 * says what type its schema asks for, with local `$ref`s followed once (a
 * `.meta({ id })` property is filed under `$defs`), so that `?page=2` and
 * `--page 2` read the same named `Page` schema alike. What a surface then does
 * with a string that does not read (HTTP leaves it for validation to report,
 * the command line refuses it) is the surface's own manner; what the field is
 * is decided here.
 *
 * Shared by the HTTP server and its OpenAPI document (web/coerce.ts)
 * and the command line (cli/_flags.ts), through the catalogue's `strings`.
 *
 * @example
 * ```ts
 * import { stringPlanOf } from "./string_plan.ts";
 *
 * const plan = stringPlanOf({
 *   type: "object",
 *   properties: { page: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
 *   required: ["page"],
 * });
 * console.log(plan?.get("page")?.type, plan?.get("page")?.required); // "integer" true
 * console.log(plan?.get("tags")?.type, plan?.get("tags")?.items?.type); // "array" "string"
 * ```
 *
 * @module
 */

import type { JsonSchema } from "./schema.ts";
import { isPlainObject } from "./plain_data.ts";
import { followRefs } from "./schema_refs.ts";

/**
 * What one value is read as: a scalar type, `object` (JSON text), `file`
 * (bytes, `format: binary`), `array` (of `items`), or `any` (a schema of no
 * single type: the text is left for the schema to judge).
 *
 * @example
 * ```ts
 * import type { StringType } from "./string_plan.ts";
 *
 * const numeric: StringType[] = ["number", "integer"];
 * ```
 */
export type StringType =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "object"
  | "file"
  | "array"
  | "any";

/**
 * One property of an input schema as strings read it.
 *
 * @example
 * ```ts
 * import { stringPlanOf, type StringField } from "./string_plan.ts";
 *
 * const field: StringField | undefined = stringPlanOf({
 *   type: "object",
 *   properties: { size: { enum: ["s", "m"] } },
 * })?.get("size");
 * console.log(field?.type, field?.choices); // "string" ["s", "m"]
 * ```
 */
export interface StringField {
  readonly type: StringType;
  /** An array's items. */
  readonly items?: StringField;
  /** An object's own properties, read the same way (objects nested a few deep). */
  readonly fields?: StringPlan;
  /** Whether the input must hold it (and, nested, its parents must too). */
  readonly required: boolean;
  /** The only values allowed (`enum`, `const`, a union of `const`s). */
  readonly choices?: readonly unknown[];
  readonly description?: string;
  readonly default?: unknown;
}

/**
 * Each property of an input schema, in the schema's order.
 *
 * @example
 * ```ts
 * import { stringPlanOf, type StringPlan } from "./string_plan.ts";
 *
 * const plan: StringPlan = stringPlanOf({ type: "object", properties: {} }) ?? new Map();
 * console.log(plan.size); // 0
 * ```
 */
export type StringPlan = ReadonlyMap<string, StringField>;

/** How deep nested arrays and objects are read; a schema that holds itself stops here. */
const MAX_NESTING = 8;

/**
 * The plan of an input JSON Schema, or `undefined` when it has no properties.
 *
 * @example
 * ```ts
 * import { stringPlanOf } from "./string_plan.ts";
 *
 * const named = {
 *   type: "object",
 *   properties: { page: { $ref: "#/$defs/Page" } },
 *   $defs: { Page: { type: "integer" } },
 * };
 * console.log(stringPlanOf(named)?.get("page")?.type); // "integer"
 * ```
 */
export function stringPlanOf(schema: JsonSchema | undefined): StringPlan | undefined {
  if (schema === undefined) return undefined;
  const object = resolve(schema, schema);
  return isPlainObject(object.properties) ? planOf(object, schema, true, 0) : undefined;
}

function planOf(object: JsonSchema, root: JsonSchema, required: boolean, depth: number) {
  const requiredKeys = new Set(Array.isArray(object.required) ? object.required : []);
  const plan = new Map<string, StringField>();
  for (const [name, raw] of Object.entries(object.properties as Record<string, unknown>)) {
    plan.set(name, fieldOf(raw, root, required && requiredKeys.has(name), depth));
  }
  return plan;
}

function fieldOf(raw: unknown, root: JsonSchema, required: boolean, depth: number): StringField {
  const schema = resolve(raw, root);
  const type = depth > MAX_NESTING ? undefined : singleType(schema, root);
  const about = {
    required,
    ...choicesOf(schema, root),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    ...("default" in schema ? { default: schema.default } : {}),
  };
  if (type === "array") {
    return { type, items: fieldOf(schema.items ?? {}, root, false, depth + 1), ...about };
  }
  if (type === "object") {
    const fields = isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0
      ? planOf(schema, root, required, depth + 1)
      : undefined;
    return { type, ...(fields === undefined ? {} : { fields }), ...about };
  }
  if (type === "string") return { type: schema.format === "binary" ? "file" : "string", ...about };
  if (type === "number" || type === "integer" || type === "boolean") return { type, ...about };
  return { type: "any", ...about };
}

/** The one type a schema has, `null` left out; `undefined` for none or several. */
function singleType(schema: JsonSchema, root: JsonSchema): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type])
    .filter((type) => type !== undefined && type !== "null");
  if (types.length === 1) return types[0] as string;
  if (types.length > 1) return undefined;
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) {
    return "string";
  }
  if (typeof schema.const === "string") return "string";
  const members = membersOf(schema, root)?.filter((member) => member.type !== "null");
  return members?.length === 1 ? singleType(members[0], root) : undefined;
}

function choicesOf(schema: JsonSchema, root: JsonSchema): { choices?: readonly unknown[] } {
  if (Array.isArray(schema.enum)) return { choices: schema.enum };
  if ("const" in schema) return { choices: [schema.const] };
  const members = membersOf(schema, root);
  if (members !== undefined && members.length > 0 && members.every((member) => "const" in member)) {
    return { choices: members.map((member) => member.const) };
  }
  return {};
}

function membersOf(schema: JsonSchema, root: JsonSchema): JsonSchema[] | undefined {
  const members = schema.anyOf ?? schema.oneOf;
  return Array.isArray(members) ? members.map((member) => resolve(member, root)) : undefined;
}

/** Follows local `$ref`s; one that names nothing stays as it is (an empty schema: any value). */
function resolve(schema: unknown, root: JsonSchema): JsonSchema {
  const target = followRefs(schema, root);
  return isPlainObject(target) ? target as JsonSchema : {};
}
