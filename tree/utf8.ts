/**
 * What every surface reads a client's bytes as: UTF-8, strictly. Bytes that
 * are not UTF-8 are refused, never turned into U+FFFD on their way to a
 * handler, so that a value arrives the same through HTTP, GraphQL and MCP (a
 * lenient read would hand one surface's handler a corrupted string that the
 * others refuse).
 *
 * @example
 * ```ts
 * import { utf8Text } from "./utf8.ts";
 *
 * console.log(utf8Text(new Uint8Array([0x68, 0x69]))); // "hi"
 * console.log(utf8Text(new Uint8Array([0xff]))); // undefined
 * ```
 *
 * @module
 */

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder();

/** Inputs up to this many bytes are tried as ASCII first: past a few dozen, the decoder costs less. */
const ASCII_MAX = 64;

/**
 * The text of UTF-8 bytes (a leading byte-order mark dropped), or `undefined`
 * when they are not UTF-8. A character U+FFFD the client sent as such is kept:
 * only bytes that do not decode are refused.
 *
 * @example
 * ```ts
 * import { utf8Text } from "./utf8.ts";
 *
 * const bytes = new TextEncoder().encode('{"name":"Zoë"}');
 * console.log(utf8Text(bytes)); // '{"name":"Zoë"}'
 * console.log(utf8Text(new Uint8Array([0x61, 0xc3]))); // undefined (a cut sequence)
 * ```
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  // A small input of ASCII alone (the common one) is its own text: a loop and
  // one `fromCharCode` cost less than a decoder's call.
  if (bytes.byteLength <= ASCII_MAX) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  // The lenient decoder is several times faster than the strict one: only a
  // text holding U+FFFD (a replaced byte, or one sent as such) needs its verdict.
  const text = lenient.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A part of a URL query or of a form body (`application/x-www-form-urlencoded`)
 * decoded: `+` is a space, and percent-encoding must spell UTF-8. `undefined`
 * when it does not, where the WHATWG form parser would put U+FFFD (or keep a
 * stray `%`): a value arrives the same through a query string as through a body.
 *
 * @example
 * ```ts
 * import { formComponent } from "./utf8.ts";
 *
 * console.log(formComponent("Zo%C3%AB+B")); // "Zoë B"
 * console.log(formComponent("%FF")); // undefined
 * ```
 */
export function formComponent(part: string): string | undefined {
  const spaced = part.indexOf("+") === -1 ? part : part.replaceAll("+", " ");
  if (spaced.indexOf("%") === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}
