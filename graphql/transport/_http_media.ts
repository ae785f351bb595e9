// GraphQL over HTTP's response media types, and the negotiation of one from
// a request's Accept header.

export const GRAPHQL_RESPONSE_JSON = "application/graphql-response+json";
export const APPLICATION_JSON = "application/json";

/** The response media type chosen for a request, with its headers. */
export interface Media {
  /** Whether it is `application/graphql-response+json` (status codes follow the outcome). */
  readonly strict: boolean;
  /** Content-Type (and `Vary: Accept` for GET), to spread into other headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The same, made once: see {@linkcode mediaResponse}. Never handed out (a Response copies it). */
  readonly prebuilt: Headers;
}

const STRICT_TYPE = `${GRAPHQL_RESPONSE_JSON}; charset=utf-8`;
const LEGACY_TYPE = `${APPLICATION_JSON}; charset=utf-8`;

// A GET's answer may be stored by a cache, so it varies by Accept; a POST's is
// never stored for reuse (RFC 9111), so it carries the Content-Type alone,
// which also lets Deno answer from its fast path for one header.
const FOR_GET = { strict: media(STRICT_TYPE, true), legacy: media(LEGACY_TYPE, true) };
const FOR_POST = { strict: media(STRICT_TYPE, false), legacy: media(LEGACY_TYPE, false) };

function media(type: string, vary: boolean): Media {
  const headers: Record<string, string> = vary
    ? { "content-type": type, vary: "accept" }
    : { "content-type": type };
  return { strict: type === STRICT_TYPE, headers, prebuilt: new Headers(headers) };
}

/**
 * A response of `media`, `200` unless `status` says otherwise. Given a
 * `Headers`, Deno copies its checked list; a record is checked name by name,
 * and a header added afterwards throws away the response Deno.serve had
 * prepared: served, this costs a small request about a third less than either
 * (instructions, `bench/graphql_serve_count.ts`).
 */
export function mediaResponse(body: string, media: Media, status = 200): Response {
  return new Response(body, { status, headers: media.prebuilt });
}

/**
 * Chooses the response media type from an `Accept` header (RFC 9110): each of
 * ours takes the `q` of the most specific range that matches it; the higher `q`
 * wins, then the more specific match, then the one listed first, then
 * `application/json`. The headers are those of an answer to `method`'s
 * request. Memoized: clients send few distinct headers.
 */
export function acceptNegotiator(): (
  accept: string | null,
  method: "GET" | "POST",
) => Media | undefined {
  const memo = new Map<string, boolean | null>();
  return (accept, method) => {
    const of = method === "GET" ? FOR_GET : FOR_POST;
    if (accept === null || accept === "") return of.legacy;
    let strict = memo.get(accept);
    if (strict === undefined) {
      strict = prefersStrict(accept);
      if (memo.size >= 256) memo.clear();
      memo.set(accept, strict);
    }
    return strict === null ? undefined : strict ? of.strict : of.legacy;
  };
}

interface Match {
  readonly q: number;
  readonly specificity: number;
  readonly index: number;
}

/** Whether `accept` prefers the strict type (`null`: it takes neither). */
function prefersStrict(accept: string): boolean | null {
  let strict: Match | undefined;
  let legacy: Match | undefined;
  const ranges = accept.split(",");
  for (let index = 0; index < ranges.length; index++) {
    const parts = ranges[index].split(";");
    const range = parts[0].trim().toLowerCase();
    let q = 1;
    let usable = true;
    for (let i = 1; i < parts.length; i++) {
      const eq = parts[i].indexOf("=");
      if (eq === -1) continue;
      const name = parts[i].slice(0, eq).trim().toLowerCase();
      const value = unquote(parts[i].slice(eq + 1).trim());
      if (name === "q") {
        q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : -1;
      } else if (name === "charset") {
        usable = isUtf8(value);
      }
    }
    if (!usable || q < 0) continue;
    strict = better(strict, range, GRAPHQL_RESPONSE_JSON, q, index);
    legacy = better(legacy, range, APPLICATION_JSON, q, index);
  }
  const strictQ = strict?.q ?? 0;
  const legacyQ = legacy?.q ?? 0;
  if (strictQ === 0 && legacyQ === 0) return null;
  if (strictQ !== legacyQ) return strictQ > legacyQ;
  if (strict!.specificity !== legacy!.specificity) {
    return strict!.specificity > legacy!.specificity;
  }
  return strict!.index < legacy!.index;
}

/** The match of `type` against `range`, kept when more specific than the one so far. */
function better(
  current: Match | undefined,
  range: string,
  type: string,
  q: number,
  index: number,
): Match | undefined {
  const specificity = range === type ? 3 : range === "application/*" ? 2 : range === "*/*" ? 1 : 0;
  if (specificity === 0 || (current !== undefined && current.specificity >= specificity)) {
    return current;
  }
  return { q, specificity, index };
}

/** A parameter value without its quotes. */
export function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/** Whether a charset names UTF-8. */
export function isUtf8(charset: string): boolean {
  const lower = charset.toLowerCase();
  return lower === "utf-8" || lower === "utf8";
}
