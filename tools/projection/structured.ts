// MCP's structured content, one shape for every output schema and both
// protocol eras. A tool's outputSchema must describe an object, so the schema
// a leaf declares is read by its resolved type: an object (through a `$ref`,
// as `.meta({ id })` gives one, or a union of objects) is advertised as it is,
// `type: "object"` said at the root; anything else (a number, a list, a
// nullable object) is advertised as `{ result: <schema> }` and its value is
// sent as `{ result: <value> }`. The root then says "object" to every client,
// so the SDK's own 2025 wrapping (by the root's `type` alone) never applies,
// and a 2026-07-28 client, which gets the schema as it is, sees the same.

import type { JsonSchema } from "../../tree/schema.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { followRefs, mapRefs } from "../../tree/schema_refs.ts";

/** The advertised schemas whose values travel as `{ result }`. */
const wrapping = new WeakSet<JsonSchema>();

/**
 * The outputSchema a tool advertises for a leaf's output JSON Schema.
 *
 * @example
 * ```ts
 * import { structuredSchema } from "./structured.ts";
 *
 * const named = { $ref: "#/$defs/Point", $defs: { Point: { type: "object" } } };
 * console.log(structuredSchema(named).type); // "object"
 * console.log(structuredSchema({ type: "number" }).properties); // { result: { type: "number" } }
 * ```
 */
export function structuredSchema(output: JsonSchema): JsonSchema {
  if (describesObjectOnly(output, output, new Set())) {
    return output.type === "object" ? output : { ...output, type: "object" };
  }
  const { $schema, $defs, ...rest } = output;
  const wrapped: JsonSchema = {
    ...($schema === undefined ? {} : { $schema }),
    type: "object",
    properties: { result: mapRefs(rest, movedRef) },
    required: ["result"],
    ...($defs === undefined ? {} : { $defs }),
  };
  wrapping.add(wrapped);
  return wrapped;
}

/**
 * A result's structured content under the schema its tool advertised.
 *
 * @example
 * ```ts
 * import { structuredContentOf, structuredSchema } from "./structured.ts";
 *
 * console.log(structuredContentOf(3, structuredSchema({ type: "number" }))); // { result: 3 }
 * console.log(structuredContentOf({ x: 1 }, structuredSchema({ type: "object" }))); // { x: 1 }
 * ```
 */
export function structuredContentOf(value: unknown, advertised: JsonSchema): unknown {
  return wrapping.has(advertised) ? { result: value } : value;
}

/** Whether every value a schema accepts is an object (`null` is none). */
function describesObjectOnly(schema: unknown, root: JsonSchema, seen: Set<unknown>): boolean {
  const target = followRefs(schema, root);
  if (!isPlainObject(target)) return false;
  // A schema that holds itself adds nothing but what its other parts say.
  if (seen.has(target)) return true;
  seen.add(target);
  if (target.type !== undefined) {
    const types = Array.isArray(target.type) ? target.type : [target.type];
    return types.length > 0 && types.every((type) => type === "object");
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = target[key];
    if (Array.isArray(members)) {
      return members.length > 0 &&
        members.every((member) => describesObjectOnly(member, root, seen));
    }
  }
  const all = target.allOf;
  return Array.isArray(all) && all.some((member) => describesObjectOnly(member, root, seen));
}

/**
 * A reference of a schema moved to `properties.result`: one to the root (`#`)
 * or below it follows it there; one into `$defs`, which stay at the root, is
 * kept. `mapRefs` copies only the parts holding one: most schemas hold none,
 * and copying every output schema made the tools list pay for each leaf.
 */
function movedRef(ref: string): string {
  if (ref.startsWith("#/$defs/") || (ref !== "#" && !ref.startsWith("#/"))) return ref;
  return `#/properties/result${ref.slice(1)}`;
}
