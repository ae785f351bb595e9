/**
 * Local references in a JSON Schema (`$ref: "#/$defs/Page"`), resolved one way
 * for everything that reads a schema: the string coercion of queries, forms
 * and flags, GraphQL types, the generated clients, mock values and the input
 * shape check. A reference is a JSON pointer within the root schema being
 * read (RFC 6901, percent-decoded as a URI fragment); a reference to another
 * document resolves to nothing.
 *
 * `mapRefs` rewrites every reference of a schema by where it stands (a
 * schema moved in a document): the OpenAPI event schema and MCP's structured
 * output schema.
 *
 * Internal: not a public subpath.
 *
 * @example
 * ```ts
 * import { followRefs } from "./schema_refs.ts";
 *
 * const root = { properties: { page: { $ref: "#/$defs/Page" } }, $defs: { Page: { type: "integer" } } };
 * console.log(followRefs(root.properties.page, root)); // { type: "integer" }
 * ```
 *
 * @module
 */

import { setOwn } from "./plain_data.ts";

/** How many references in a row are followed before a chain counts as a loop. */
const MAX_HOPS = 64;

/**
 * What a local reference names within `root`, and its key when the target is
 * a `$defs` (or `definitions`) entry, which names it; `undefined` for a
 * reference that names nothing there (another document, a missing key, a
 * malformed pointer).
 *
 * @example
 * ```ts
 * import { resolveRef } from "./schema_refs.ts";
 *
 * const root = { $defs: { "a/b": { type: "string" } } };
 * console.log(resolveRef("#/$defs/a~1b", root)); // { schema: { type: "string" }, key: "a/b" }
 * console.log(resolveRef("other.json#/x", root)); // undefined
 * ```
 */
export function resolveRef(
  ref: string,
  root: unknown,
): { readonly schema: unknown; readonly key: string | undefined } | undefined {
  if (ref === "#") return { schema: root, key: undefined };
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  let parent = "";
  let last = "";
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) {
      current = current[Number(segment)];
    } else if (isSchemaObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
    parent = last;
    last = segment;
  }
  if (current === undefined) return undefined;
  const isDef = parent === "$defs" || parent === "definitions";
  return { schema: current, key: isDef ? last : undefined };
}

/**
 * A schema with its references followed until one has none: the schema
 * itself when it is no reference, `undefined` when a reference names nothing
 * or the chain loops.
 *
 * @example
 * ```ts
 * import { followRefs } from "./schema_refs.ts";
 *
 * const root = { $defs: { A: { $ref: "#/$defs/B" }, B: { type: "number" }, C: { $ref: "#/$defs/C" } } };
 * console.log(followRefs({ $ref: "#/$defs/A" }, root)); // { type: "number" }
 * console.log(followRefs({ $ref: "#/$defs/C" }, root)); // undefined
 * ```
 */
export function followRefs(schema: unknown, root: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops <= MAX_HOPS; hops++) {
    if (!isSchemaObject(current) || typeof current.$ref !== "string") return current;
    current = resolveRef(current.$ref, root)?.schema;
  }
  return undefined;
}

/** Keywords whose value is one schema (drafts 2020-12 and 7). */
const ONE_SCHEMA = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
/** Keywords whose value is a list of schemas (`items` of draft 7 too). */
const SCHEMA_LIST = new Set(["prefixItems", "allOf", "anyOf", "oneOf", "items"]);
/**
 * Keywords whose value maps names to schemas: a name is any word, a keyword's
 * (`default`, `enum`, `$ref`) too, and never read as one. Draft 7's
 * `dependencies` maps names to a schema or to a list of names.
 */
const SCHEMA_MAP = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "dependencies",
]);

/**
 * `schema` with each reference (`$ref`, a string at a schema's own level)
 * written `fn(ref)`, walking only where schemas stand: the values of `const`,
 * `enum`, `default`, `examples` and every other keyword are data, left as
 * they are, and the keys of `properties` (and `$defs`, `patternProperties`,
 * ...) are names. A part holding no rewritten reference is the original part,
 * not a copy.
 *
 * @example
 * ```ts
 * import { mapRefs } from "./schema_refs.ts";
 *
 * const schema = {
 *   properties: { default: { $ref: "#/$defs/Page" }, id: { type: "string" } },
 *   default: { $ref: "#/not/a/reference" },
 *   $defs: { Page: { type: "integer" } },
 * };
 * const moved = mapRefs(schema, (ref) => `#/components/x${ref.slice(1)}`) as typeof schema;
 * console.log(moved.properties.default.$ref); // "#/components/x/$defs/Page"
 * console.log(moved.default.$ref); // "#/not/a/reference": data
 * console.log(moved.properties.id === schema.properties.id); // true: unchanged, not copied
 * ```
 */
export function mapRefs(schema: unknown, fn: (ref: string) => string): unknown {
  if (!isSchemaObject(schema)) return schema;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(schema)) {
    let next = value;
    if (key === "$ref") {
      if (typeof value === "string") next = fn(value);
    } else if (SCHEMA_MAP.has(key) && isSchemaObject(value)) {
      next = changed(value, (member) => mapRefs(member, fn));
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      const mapped = value.map((member) => mapRefs(member, fn));
      if (mapped.some((member, at) => member !== value[at])) next = mapped;
    } else if (ONE_SCHEMA.has(key)) {
      next = mapRefs(value, fn);
    }
    if (next === value && out === undefined) continue;
    out ??= copyBefore(schema, key);
    setOwn(out, key, next);
  }
  return out ?? schema;
}

/** A map with each value through `fn`; the original map when none changed. */
function changed(
  members: Readonly<Record<string, unknown>>,
  fn: (member: unknown) => unknown,
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | undefined;
  for (const [name, member] of Object.entries(members)) {
    const next = fn(member);
    if (next === member && out === undefined) continue;
    out ??= copyBefore(members, name);
    setOwn(out, name, next);
  }
  return out ?? members;
}

/** A copy of an object's own entries up to (not including) `key`. */
function copyBefore(
  object: Readonly<Record<string, unknown>>,
  key: string,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    if (name === key) break;
    setOwn(copy, name, value);
  }
  return copy;
}

function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
