// Variants (`anyOf`, `oneOf`) that add no type of their own to the one their
// holder names: the holder's type is then the GraphQL type.

import { isSchemaObject } from "./_refs.ts";

/** Keywords that give a variant a type of its own, beyond what its holder says. */
const TYPING = [
  "type",
  "$ref",
  "const",
  "enum",
  "anyOf",
  "oneOf",
  "allOf",
  "properties",
  "items",
  "prefixItems",
];

/**
 * Whether variants only narrow the one scalar type their holder names, as
 * zod's `.mime()` with several media types does (a binary string whose
 * `contentMediaType` is any of them): the holder's type is then the type, so
 * such a file is `File!`, not `JSON`.
 *
 * @example
 * ```ts
 * import { narrowsScalar } from "./_variants.ts";
 *
 * const media = [{ contentMediaType: "image/png" }, { contentMediaType: "text/plain" }];
 * console.log(narrowsScalar(["string"], media)); // true
 * console.log(narrowsScalar(undefined, [{ type: "string" }, { type: "number" }])); // false
 * ```
 */
export function narrowsScalar(
  types: readonly string[] | undefined,
  variants: readonly unknown[],
): boolean {
  const concrete = types?.filter((type) => type !== "null");
  if (concrete === undefined || concrete.length !== 1) return false;
  if (concrete[0] === "object" || concrete[0] === "array") return false;
  return variants.every((variant) =>
    isSchemaObject(variant) && TYPING.every((keyword) => !Object.hasOwn(variant, keyword))
  );
}
