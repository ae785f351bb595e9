/**
 * Paths on the wire: decoding captures once, and encoding static names the one
 * way the routers and the client agree on.
 *
 * Internal: not a public subpath. Used by the HTTP server (createRouter,
 * createFetch), the request reader and the HTTP client.
 *
 * @module
 */

import { HttpError } from "../tree/http_error.ts";

/** Percent-decodes a capture once; malformed encoding is the client's error. */
export function decodeCapture(raw: string): string {
  if (raw.indexOf("%") === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, "The path holds malformed percent-encoding");
  }
}

// pchar (RFC 3986) allows sub-delims, ":" and "@" unencoded; encodeURIComponent
// escapes them, so they are restored to keep paths readable and canonical.
const PCHAR_ESCAPES = /%(?:24|26|2B|2C|3A|3B|3D|40)/g;

/** A segment value in its canonical wire form. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(PCHAR_ESCAPES, decodeURIComponent);
}
