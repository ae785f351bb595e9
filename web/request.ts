// Reading a request into the handler's one flat input object: the raw path and
// query (split without building a URL object: a hot path), the query's values,
// the body (JSON, urlencoded, multipart) within a size limit, refused when it is
// a form another site forged (`csrf.ts`), and the merge with captures.
// Everything a client sends lands as own data properties, so no key
// (`__proto__`, `constructor`, ...) can reach a prototype.

import { flawOf, isPlainObject, nestsDeeper, setOwn } from "../tree/plain_data.ts";
import { asFile } from "../tree/bytes.ts";
import { formComponent, utf8Text } from "../tree/utf8.ts";
import { HttpError } from "./problem.ts";
import { decodeCapture } from "../route/path.ts";
import { declaredLength, mediaType, readBodyBytes, within } from "./body.ts";
import type { FormGuard } from "./csrf.ts";

/**
 * The raw pathname and query string of a request URL, without parsing a URL object.
 * A relative URL (`/health`) is read by its path: Bun gives one to a request
 * without `Host` (HTTP/1.0, a load balancer's health check).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitUrl } from "./request.ts";
 *
 * assert.deepEqual(splitUrl("http://localhost/books?page=2"), { path: "/books", query: "page=2" });
 * assert.deepEqual(splitUrl("/health"), { path: "/health", query: "" });
 * ```
 */
export function splitUrl(url: string): { path: string; query: string } {
  const start = url.charCodeAt(0) === 47 /* "/" */ ? 0 : url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return { path: "/", query: "" };
  const hash = url.indexOf("#", start);
  const end = hash === -1 ? url.length : hash;
  const mark = url.indexOf("?", start);
  if (mark === -1 || mark > end) return { path: url.slice(start, end), query: "" };
  return { path: url.slice(start, mark), query: url.slice(mark + 1, end) };
}

/** Query string to own properties; a repeated key gives an array of its values. */
export function parseQuery(query: string, maxKeys: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (query === "") return values;
  let count = 0;
  for (const part of query.split("&")) {
    if (part === "") continue;
    if (++count > maxKeys) {
      throw new HttpError(400, `The query has more than ${maxKeys} parameters`);
    }
    const eq = part.indexOf("=");
    const key = decodeQueryPart(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? "" : decodeQueryPart(part.slice(eq + 1));
    addValue(values, key, value);
  }
  return values;
}

function decodeQueryPart(part: string): string {
  const decoded = formComponent(part);
  if (decoded === undefined) {
    throw new HttpError(400, "The query holds malformed percent-encoding");
  }
  return decoded;
}

function addValue(target: Record<string, unknown>, key: string, value: unknown) {
  if (!Object.hasOwn(target, key)) {
    setOwn(target, key, value);
    return;
  }
  const existing = target[key];
  if (Array.isArray(existing)) existing.push(value);
  else setOwn(target, key, [existing, value]);
}

/** Limits on what a request body may be. */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxKeys: number;
  /** Milliseconds the whole body may take to arrive (408 after). */
  readonly timeoutMs: number;
  /** Refuses a form another site forged (403); default: none refused. */
  readonly forms?: FormGuard;
}

/** A parsed body: its values, and whether they are strings from a form (to coerce like a query). */
export interface Body {
  readonly values: Record<string, unknown>;
  readonly fromForm: boolean;
}

/**
 * Reads the body into own properties, or `undefined` when there is none.
 * 403 for a form another site forged (`limits.forms`), 413 over the size
 * limit, 415 for a type other than JSON, urlencoded or multipart, 400 for a body that does not parse into an object (or, for
 * JSON, holds U+FFFD or nests too deep).
 */
export function readBody(request: Request, limits: BodyLimits): Promise<Body | undefined> {
  // `request.body` is not read unless needed: touching it makes the runtime
  // build a stream and read the body the slow way.
  const headers = request.headers;
  const type = mediaType(headers.get("content-type"));
  const json = type === "application/json" ||
    (type.startsWith("application/") && type.endsWith("+json"));
  if (!json) unreadBody(request, limits);
  const declared = headers.get("content-length");
  if (declared === null && request.body === null) return NO_BODY;
  const length = json ? declaredLength(declared) : undefined;
  if (length !== undefined && length <= limits.maxBytes) {
    return length === 0 ? NO_BODY : readJson(request, limits);
  }
  return readBytes(request, limits, declared, type, json);
}

const NO_BODY: Promise<undefined> = Promise.resolve(undefined);

/**
 * A form another site forged is refused before its body is read, and for a
 * leaf that takes nothing (its body goes unread), since the leaf would run on
 * its arrival all the same.
 */
export function unreadBody(request: Request, limits: BodyLimits): undefined {
  const forged = limits.forms?.(request);
  if (forged !== undefined) throw forged;
  return undefined;
}

/**
 * JSON of a declared length within the limit, read by the runtime's own
 * `Request.json()`: on Deno.serve the one read that takes the body straight
 * into a string, with no buffer in between (a fifth of a small request's
 * cost). There it decodes leniently and refuses a byte-order mark; the bytes
 * read below are held to the same, so that both give the same answers.
 */
function readJson(request: Request, limits: BodyLimits): Promise<Body> {
  return within(
    request.json(),
    limits.timeoutMs,
    (value: unknown): Body => ({ values: jsonObject(value, limits), fromForm: false }),
    (error) => {
      throw unread(error instanceof SyntaxError ? "not-json" : "unreadable", limits);
    },
    () => {
      throw unread("too-slow", limits);
    },
  );
}

async function readBytes(
  request: Request,
  limits: BodyLimits,
  declared: string | null,
  type: string,
  json: boolean,
): Promise<Body | undefined> {
  const read = await readBodyBytes(request, limits.maxBytes, limits.timeoutMs, declared);
  if (!read.ok) throw unread(read.reason, limits);
  const bytes = read.bytes;
  if (bytes.byteLength === 0) return undefined;
  if (json) return { values: jsonObject(parseJson(bytes), limits), fromForm: false };
  if (type === "application/x-www-form-urlencoded") {
    return { values: parseQuery(decodeUtf8(bytes), limits.maxKeys), fromForm: true };
  }
  if (type === "multipart/form-data") {
    return { values: await parseMultipart(request, bytes, limits.maxKeys), fromForm: true };
  }
  throw new HttpError(
    415,
    type === ""
      ? "A body needs a Content-Type: application/json, application/x-www-form-urlencoded or multipart/form-data"
      : `Content-Type ${type} is not accepted; send application/json, application/x-www-form-urlencoded or multipart/form-data`,
    {
      headers: {
        "accept-post": "application/json, application/x-www-form-urlencoded, multipart/form-data",
      },
    },
  );
}

/** The error for a body that could not be read. */
function unread(
  reason: "too-large" | "too-slow" | "unreadable" | "not-json",
  limits: BodyLimits,
): HttpError {
  switch (reason) {
    case "too-large":
      return new HttpError(413, `The body is larger than ${limits.maxBytes} bytes`);
    case "too-slow":
      return new HttpError(408, `The body did not arrive within ${limits.timeoutMs} ms`);
    case "not-json":
      return new HttpError(400, "The body is not valid JSON");
    case "unreadable":
      return new HttpError(400, "The body could not be read");
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  const text = utf8Text(bytes);
  if (text === undefined) throw new HttpError(400, "The body is not valid UTF-8");
  return text;
}

// Decoded as the runtime's own JSON read does (Deno's): leniently, and with a
// byte-order mark kept, so that it fails to parse; both reads then agree.
const jsonText = new TextDecoder("utf-8", { ignoreBOM: true });

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(jsonText.decode(bytes));
  } catch {
    throw new HttpError(400, "The body is not valid JSON");
  }
}

/** The 400 for input nesting deeper than `maxDepth` levels: a body's, or MCP's arguments. */
export function tooDeep(maxDepth: number): HttpError {
  return new HttpError(400, `The input nests deeper than ${maxDepth} levels`);
}

/**
 * A parsed JSON body as the handler's input: an object, nesting no deeper
 * than the limit, holding no U+FFFD. A read that decodes leniently turns a
 * byte that is not UTF-8 into U+FFFD, and the client's own U+FFFD (sent as
 * is or escaped) cannot be told from it; so neither is taken, whichever way
 * the body was read.
 */
function jsonObject(value: unknown, limits: BodyLimits): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new HttpError(400, "The JSON body must be an object of named inputs");
  }
  const flaw = flawOf(value, limits.maxDepth, holdsReplacement);
  if (flaw === "deep") throw tooDeep(limits.maxDepth);
  if (flaw === "text") {
    throw new HttpError(
      400,
      "The body is not valid UTF-8, or holds U+FFFD, which cannot be told from a byte that is not UTF-8",
    );
  }
  return value;
}

const holdsReplacement = (text: string) => text.includes("\uFFFD");

/** Bounds nesting depth, so hostile bodies cannot exhaust the stack later. */
export function checkDepth(root: unknown, maxDepth: number): void {
  if (nestsDeeper(root, maxDepth)) throw tooDeep(maxDepth);
}

async function parseMultipart(
  request: Request,
  bytes: Uint8Array,
  maxKeys: number,
): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(bytes as BodyInit, {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new HttpError(400, "The multipart body could not be parsed");
  }
  const values: Record<string, unknown> = {};
  let count = 0;
  for (const [key, value] of form) {
    if (++count > maxKeys) throw new HttpError(400, `The form has more than ${maxKeys} fields`);
    // A file's media type by its essence, as every runtime's parser would give it.
    addValue(values, key, typeof value === "string" ? value : asFile(value));
  }
  return values;
}

/**
 * Merges the origins into one input object. Precedence, highest first: path
 * captures (`names` with their raw values, percent-decoded here), body,
 * query; a capture can never be overridden by the client.
 */
export function mergeInput(
  query: Record<string, unknown> | undefined,
  body: Record<string, unknown> | undefined,
  names: readonly string[],
  raws: readonly string[],
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (query !== undefined) {
    for (const key of Object.keys(query)) setOwn(input, key, query[key]);
  }
  if (body !== undefined) {
    for (const key of Object.keys(body)) setOwn(input, key, body[key]);
  }
  for (let i = 0; i < raws.length; i++) setOwn(input, names[i], decodeCapture(raws[i]));
  return input;
}
