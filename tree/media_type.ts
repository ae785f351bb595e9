/**
 * Media types compared one way on every surface: by their essence, the
 * `type/subtype` in lower case, parameters (`;charset=utf-8`) and spaces
 * aside, as the WHATWG MIME Sniffing standard defines it. A runtime may add a
 * charset to a text part (Bun sends `text/plain;charset=utf-8` where Deno and
 * Node send `text/plain`), and a header may be written in any case: neither
 * changes what the bytes are.
 *
 * Internal: not a public subpath.
 *
 * @example
 * ```ts
 * import { mediaTypeEssence } from "./media_type.ts";
 *
 * console.log(mediaTypeEssence("Text/Plain; charset=UTF-8")); // "text/plain"
 * console.log(mediaTypeEssence("text/plain;charset=utf-8") === mediaTypeEssence("TEXT/plain")); // true
 * ```
 *
 * @module
 */

/**
 * A media type's essence: `type/subtype` in lower case, without parameters
 * or surrounding spaces; `""` for none. The common spelling, already an
 * essence, costs one scan.
 *
 * @example
 * ```ts
 * import { mediaTypeEssence } from "./media_type.ts";
 *
 * console.log(mediaTypeEssence(" Application/JSON ; charset=utf-8")); // "application/json"
 * console.log(mediaTypeEssence(null)); // ""
 * ```
 */
export function mediaTypeEssence(type: string | null | undefined): string {
  if (type === null || type === undefined) return "";
  if (ESSENCE.test(type)) return type;
  const semicolon = type.indexOf(";");
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase();
}

/** Already an essence: lower case, no parameters, no spaces. */
const ESSENCE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;
