// Local references within the root schema being converted: JSON pointers
// (`#/$defs/Book`), followed the way JSON Schema says, never outside it, by
// the one resolver of tree/schema_refs.ts.

import { resolveRef } from "../../tree/schema_refs.ts";

/** Whether a value is a schema object (not `true`, not a list). */
export function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A schema with `$ref`s and single-member `allOf`s followed. */
export function deref(schema: unknown, root: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < 64 && isSchemaObject(current); hops++) {
    if (typeof current.$ref === "string") {
      current = resolveRef(current.$ref, root)?.schema;
    } else if (
      current.type === undefined && Array.isArray(current.allOf) && current.allOf.length === 1
    ) {
      current = current.allOf[0];
    } else {
      return current;
    }
  }
  return undefined;
}
