// Resource URIs: `<scheme>://<path>`, the path the HTTP surface serves the
// leaf at, each capture an RFC 6570 level-1 variable (`{bookId}`) standing
// for exactly one path segment. Reading a URI binds each captured segment,
// percent-decoded once, and refuses what could traverse or flood a handler:
// a query or fragment, malformed percent-encoding, an empty, `.` or `..`
// segment, an encoded `/` or `\`, control characters, and a URI over
// MAX_URI_LENGTH characters.

/** A path segment: static text, or a capture. */
export type Segment = { readonly text: string } | { readonly capture: string };

/** The longest URI read or completed: past it, refused before anything is matched. */
export const MAX_URI_LENGTH = 2048;

/** A URI refused for its shape, not for naming nothing: the caller's mistake (-32602). */
export class UriRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UriRefused";
  }
}

/** The segments of an HTTP path template (`/books/{bookId}`); `/` has none. */
export function segmentsOf(path: string): Segment[] {
  return path.split("/").filter((part) => part !== "").map((part) =>
    part.startsWith("{") && part.endsWith("}") ? { capture: part.slice(1, -1) } : { text: part }
  );
}

/** The URI (template) text: static segments percent-encoded, captures as `{name}`. */
export function uriText(scheme: string, segments: readonly Segment[]): string {
  return `${scheme}://${
    segments.map((segment) =>
      "text" in segment ? encodeURIComponent(segment.text) : `{${varName(segment.capture)}}`
    ).join("/")
  }`;
}

/** RFC 6570 varchars are ALPHA, DIGIT, `_` and pct-encoded octets; `.` only between them. */
function varName(name: string): string {
  return Array.from(new TextEncoder().encode(name), (byte) => {
    const char = String.fromCharCode(byte);
    return /[A-Za-z0-9_]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }).join("");
}

/**
 * The raw segments of a URI of this scheme, or undefined for a URI of another
 * scheme (which names no resource here). Throws UriRefused for a shape no
 * resource URI has.
 */
export function splitUri(uri: string, scheme: string): string[] | undefined {
  if (uri.length > MAX_URI_LENGTH) {
    throw new UriRefused(`A resource URI is at most ${MAX_URI_LENGTH} characters`);
  }
  const prefix = `${scheme}://`;
  // A scheme is case-insensitive (RFC 3986 3.1).
  if (uri.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return undefined;
  const path = uri.slice(prefix.length);
  if (/[?#]/.test(path)) throw new UriRefused("A resource URI takes no query or fragment");
  return path === "" ? [] : path.split("/");
}

/**
 * The captures a URI's segments bind in a template, or undefined when they do
 * not fit it. Throws UriRefused for a captured segment that could traverse.
 */
export function bind(
  segments: readonly Segment[],
  raw: readonly string[],
): Record<string, string> | undefined {
  if (raw.length !== segments.length) return undefined;
  const bound: Record<string, string> = {};
  for (const [at, segment] of segments.entries()) {
    const value = decoded(raw[at]);
    if ("text" in segment) {
      if (value !== segment.text) return undefined;
      continue;
    }
    const refused = refusal(value);
    if (refused !== undefined) {
      throw new UriRefused(`The URI's ${JSON.stringify(segment.capture)} ${refused}`);
    }
    bound[segment.capture] = value;
  }
  return bound;
}

function decoded(raw: string): string {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new UriRefused("The resource URI holds malformed percent-encoding");
  }
}

/** Why a capture's value is refused, or undefined when it is fine. */
function refusal(value: string): string | undefined {
  if (value === "") return "is empty";
  if (value === "." || value === "..") return "is a relative path segment";
  if (/[/\\]/.test(value)) return "holds a slash";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return "holds a control character";
  return undefined;
}

/**
 * Orders templates so that the more specific wins: at the first position
 * where they differ, static text before a capture.
 */
export function bySpecificity(a: readonly Segment[], b: readonly Segment[]): number {
  for (let at = 0; at < Math.min(a.length, b.length); at++) {
    const staticA = "text" in a[at];
    if (staticA !== "text" in b[at]) return staticA ? -1 : 1;
  }
  return 0;
}
