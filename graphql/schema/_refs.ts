// Local references within the root schema being converted: JSON pointers
// (`#/$defs/Book`), followed the way JSON Schema says, never outside it.

function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
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

/** A local reference's target, and its key when it is a `$defs` entry (the key names it). */
export function resolveRef(
  ref: string,
  root: unknown,
): { schema: unknown; key: string | undefined } | undefined {
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
