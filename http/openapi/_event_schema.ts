// The schema of one item of a streaming leaf, as `x-event-schema` holds it.
// OpenAPI 3.1 has no keyword for the items of `text/event-stream` (3.2 adds
// `itemSchema`), and tools walk no extension: a component referenced from one
// alone is reported unused (Redocly's `no-unused-components`). So the item
// schema stays whole there and adds nothing to `components`; its own `$defs`
// (a recursive schema has them) stay with it, and its references to them
// point into the document where it sits, as OpenAPI resolves every `$ref`.

import type { JsonSchema } from "../../tree/schema.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { mapRefs } from "../../tree/schema_refs.ts";

const DEFS = "#/$defs/";

/** A JSON Pointer to `tokens`, as a URI fragment (RFC 6901, sections 4 and 6). */
function fragmentOf(tokens: readonly string[]): string {
  return "#" +
    tokens.map((token) =>
      "/" + encodeURIComponent(token.replaceAll("~", "~0").replaceAll("/", "~1"))
    ).join("");
}

/**
 * The JSON Schema of a stream's items for `x-event-schema`, given where it will
 * sit in the document (`at`, the pointer's tokens): the library's schema less
 * its `$schema` (the document's dialect says 2020-12), its local references
 * made to point below `at`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const at = ["paths", "/ticks", "get", "responses", "200", "content", "text/event-stream", "x-event-schema"];
 * assert.deepEqual(eventSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "number" }, at), {
 *   type: "number",
 * });
 * const tree = eventSchema({ type: "array", items: { $ref: "#" } }, at);
 * assert.equal(
 *   (tree.items as { $ref: string }).$ref,
 *   "#/paths/~1ticks/get/responses/200/content/text~1event-stream/x-event-schema",
 * );
 * ```
 */
export function eventSchema(raw: JsonSchema, at: readonly string[]): JsonSchema {
  const { $schema: _dialect, ...schema } = raw;
  const base = fragmentOf(at);
  return mapRefs(
    hoisted(schema),
    (ref) => ref.startsWith("#") ? base + ref.slice(1) : ref,
  ) as JsonSchema;
}

/**
 * A root that only refers to one of its own `$defs` (`{ $ref: "#/$defs/X",
 * $defs }`, as zod writes a named recursive schema) made that definition
 * itself, its references written `#`: so no reference sits beside the
 * definitions it needs (tools that replace each reference by its target, in
 * order, would lose them).
 */
function hoisted(schema: JsonSchema): JsonSchema {
  const { $ref: ref, $defs: defs, ...rest } = schema;
  const key = typeof ref === "string" && ref.startsWith(DEFS) ? ref.slice(DEFS.length) : undefined;
  if (key === undefined || Object.keys(rest).length > 0 || !isPlainObject(defs)) return schema;
  const own = decodeURIComponent(key).replaceAll("~1", "/").replaceAll("~0", "~");
  const body = defs[own];
  if (!Object.hasOwn(defs, own) || !isPlainObject(body)) return schema;
  const others = Object.fromEntries(Object.entries(defs).filter(([name]) => name !== own));
  const whole = { ...body, ...(Object.keys(others).length === 0 ? {} : { $defs: others }) };
  return mapRefs(whole, (to) => to === ref ? "#" : to) as JsonSchema;
}
