/**
 * Local references in a JSON Schema (`$ref: "#/$defs/Page"`), resolved one way
 * for everything that reads a schema: the string coercion of queries, forms
 * and flags, GraphQL types, the generated clients, mock values and the input
 * shape check. A reference is a JSON pointer within the root schema being
 * read (RFC 6901, percent-decoded as a URI fragment); a reference to another
 * document resolves to nothing.
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

function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
