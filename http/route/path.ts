/**
 * Paths on the wire: splitting a request URL without building a URL object (a
 * hot path), decoding captures once, and encoding static names the one way the
 * routers and the client agree on.
 *
 * Internal: not a public subpath. Used by the HTTP server (dispatch,
 * createFetch), the HTTP client and GraphQL over HTTP.
 *
 * @module
 */

import { HttpError } from "../../tree/http_error.ts";

/** The raw pathname and query string of a request URL, without parsing a URL object. */
export function splitUrl(url: string): { path: string; query: string } {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return { path: "/", query: "" };
  const hash = url.indexOf("#", start);
  const end = hash === -1 ? url.length : hash;
  const mark = url.indexOf("?", start);
  if (mark === -1 || mark > end) return { path: url.slice(start, end), query: "" };
  return { path: url.slice(start, mark), query: url.slice(mark + 1, end) };
}

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
