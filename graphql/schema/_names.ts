// Private naming helpers of the GraphQL type conversion: what a GraphQL name
// may be, and how JSON Schema titles and property names become one.

/** A GraphQL name's characters, as a pattern to build others from. */
export const NAME_PATTERN = "[_A-Za-z][_0-9A-Za-z]*";
const NAME = new RegExp(`^${NAME_PATTERN}$`);
const ALNUM = /^[A-Za-z0-9]+$/;

/** Whether a string is a GraphQL name a type system may define (not `__`-reserved). */
export function isGraphQLName(name: string): boolean {
  return NAME.test(name) && !name.startsWith("__");
}

/** Whether a string may be a GraphQL enum value (a name, but not `true`, `false`, `null`). */
export function isEnumValueName(value: string): boolean {
  return isGraphQLName(value) && value !== "true" && value !== "false" && value !== "null";
}

function parts(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((part) => part.length > 0);
}

/** `text` with its first character upper-cased. */
export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A field or argument name: a valid name is kept; otherwise the camelCase of
 * its ASCII letter-and-digit runs, prefixed with `_` when that still is no name
 * (`first-name` is `firstName`, `2fa` is `_2fa`, `` is `_`).
 */
export function fieldName(raw: string): string {
  if (isGraphQLName(raw)) return raw;
  // The runs are ASCII: a letter upper-cased, then lowered, is that letter lowered.
  const pascal = parts(raw).map(upperFirst).join("");
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return isGraphQLName(camel) ? camel : `_${camel}`;
}

/**
 * A type name: the PascalCase of the text's ASCII letter-and-digit runs, `_`
 * prefixed when it starts with a digit; `""` when there is nothing to use.
 */
export function typeName(raw: string): string {
  // One run already (the usual hint, like `BooksAddInput`): no splitting.
  if (ALNUM.test(raw)) {
    const upper = upperFirst(raw);
    return isGraphQLName(upper) ? upper : `_${upper}`;
  }
  const pascal = parts(raw).map(upperFirst).join("");
  if (pascal === "") return "";
  return isGraphQLName(pascal) ? pascal : `_${pascal}`;
}

/** `base`, or `base2`, `base3`, ... : the first that `taken` refuses. */
export function freeName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2;; n++) {
    const candidate = `${base}${n}`;
    if (!taken(candidate)) return candidate;
  }
}
