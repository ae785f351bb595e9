// The parameters of a GraphQL-over-HTTP request, read from a GET's query or a
// POST's JSON body within the limits; what is refused says why.

import { nestsDeeper } from "../../tree/plain_data.ts";
import { mediaTypeEssence } from "../../tree/media_type.ts";
import { formComponent, utf8Text } from "../../tree/utf8.ts";
import { readBodyBytes } from "../../web/body.ts";
import { APPLICATION_JSON, isUtf8, unquote } from "./_http_media.ts";
import { requestedId } from "../execution/trusted.ts";

/** Why a request is refused before execution: a status, a message and a code. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly code: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {}
}

/** The parameters of a well-formed GraphQL-over-HTTP request. */
export interface Params {
  /** The document text; empty when the request names a trusted document by `documentId` alone. */
  readonly query: string;
  /** The trusted document the request names, if any (see `requestedId`). */
  readonly documentId?: string;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly operationName: string | undefined;
}

/** `GET` parameters from the URL query (WHATWG form encoding); each at most once. */
export function fromSearch(search: string, maxQueryLength: number, maxDepth: number): Params {
  const given = new Map<string, string>();
  for (const part of search === "" ? [] : search.split("&")) {
    const eq = part.indexOf("=");
    // Decoded as REST decodes a query: percent-encoding that does not spell
    // UTF-8 is refused, not turned into U+FFFD on its way to a variable.
    const key = formComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? "" : formComponent(part.slice(eq + 1));
    if (key === undefined || value === undefined) {
      throw badRequest("The query holds malformed percent-encoding");
    }
    if (!SEARCH_PARAMETERS.has(key)) continue;
    if (given.has(key)) throw badRequest(`The ${key} parameter is given more than once`);
    given.set(key, value);
  }
  // A map parameter, JSON-encoded.
  const json = (name: string) => {
    const text = given.get(name);
    return text === undefined ? undefined : mapOf(parseJsonParameter(name, text), name);
  };
  let query = given.get("query");
  const named = idOf(given.get("documentId"), json("extensions"));
  if (query === undefined && named === undefined) {
    throw badRequest(
      "A GET request needs a query parameter holding the document (or a documentId)",
    );
  }
  query ??= "";
  if (query.length > maxQueryLength) throw tooLong(414, maxQueryLength);
  const variables = json("variables");
  if (variables !== undefined) checkDepth(variables, maxDepth, "variables");
  const operationName = given.get("operationName");
  return {
    query,
    ...(named === undefined ? {} : { documentId: named }),
    variables,
    operationName: operationName === "" ? undefined : operationName,
  };
}

/** The parameters a GET reads from its query; any other is ignored. */
const SEARCH_PARAMETERS = new Set([
  "query",
  "variables",
  "operationName",
  "extensions",
  "documentId",
]);

/** A document over the length limit: `414` in a GET's URL, `413` in a body. */
function tooLong(status: 413 | 414, maxQueryLength: number): Refusal {
  return new Refusal(
    status,
    `The document is longer than ${maxQueryLength} characters`,
    "PAYLOAD_TOO_LARGE",
  );
}

function parseJsonParameter(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The ${name} parameter is not valid JSON`);
  }
}

/** `POST` parameters from the parsed JSON body. */
export function fromJson(body: unknown, maxQueryLength: number, maxDepth: number): Params {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The body must be a JSON object: { query, variables?, operationName? }");
  }
  const fields = body as Record<string, unknown>;
  const own = (key: string) => Object.hasOwn(fields, key) ? fields[key] : undefined;
  const extensions = mapOf(own("extensions"), "extensions");
  const named = idOf(own("documentId"), extensions);
  const given = own("query");
  const query = named !== undefined && (given === undefined || given === null) ? "" : given;
  if (typeof query !== "string") {
    throw badRequest(
      query === undefined || query === null
        ? "The body needs a query: the document as a string (or a documentId)"
        : "The query must be a string holding the document",
    );
  }
  if (query.length > maxQueryLength) throw tooLong(413, maxQueryLength);
  const operationName = own("operationName");
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw badRequest("The operationName must be a string");
  }
  const variables = mapOf(own("variables"), "variables");
  if (variables !== undefined) checkDepth(variables, maxDepth, "variables");
  if (extensions !== undefined) checkDepth(extensions, maxDepth, "extensions");
  return {
    query,
    ...(named === undefined ? {} : { documentId: named }),
    variables,
    operationName: typeof operationName === "string" && operationName !== ""
      ? operationName
      : undefined,
  };
}

/** A map parameter: an object, or absent (`null` is absent). */
function mapOf(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badRequest(`The ${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Bounds nesting iteratively, so a hostile value cannot exhaust the stack later on. */
function checkDepth(root: unknown, maxDepth: number, name: string): void {
  if (nestsDeeper(root, maxDepth)) {
    throw badRequest(`The ${name} nest deeper than ${maxDepth} levels`);
  }
}

/** A 400 refusal. */
export function badRequest(message: string): Refusal {
  return new Refusal(400, message, "BAD_REQUEST");
}

/**
 * The `POST` body as JSON: `application/json` in UTF-8, within the size limit.
 * `contentType` is the request's, read once by the caller.
 */
export async function readJson(
  request: Request,
  contentType: string | null,
  maxBytes: number,
  timeoutMs: number,
): Promise<unknown> {
  const unsupported = contentType === APPLICATION_JSON ? undefined : unsupportedType(contentType);
  if (unsupported !== undefined) {
    await request.body?.cancel().catch(() => {});
    throw new Refusal(415, unsupported, "UNSUPPORTED_MEDIA_TYPE", {
      "accept-post": `${APPLICATION_JSON}, multipart/form-data`,
    });
  }
  const read = await readBodyBytes(request, maxBytes, timeoutMs);
  if (!read.ok) throw bodyRefusal(read.reason, maxBytes, timeoutMs);
  return parseBody(read.bytes);
}

/** A body's bytes as JSON, strictly UTF-8; refused when empty. */
export function parseBody(body: Uint8Array | ArrayBuffer): unknown {
  const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  if (bytes.byteLength === 0) throw badRequest("The body is empty; send { query, variables? }");
  const text = utf8Text(bytes);
  if (text === undefined) throw badRequest("The body is not valid UTF-8");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The body is not valid JSON");
  }
}

/** Why a Content-Type is refused, or `undefined` for `application/json` in UTF-8. */
function unsupportedType(contentType: string | null): string | undefined {
  if (contentType === null || contentType === "") {
    return `A POST needs Content-Type: ${APPLICATION_JSON}`;
  }
  const semicolon = contentType.indexOf(";");
  const type = mediaTypeEssence(contentType);
  if (type !== APPLICATION_JSON) {
    return `Content-Type ${type} is not accepted; send ${APPLICATION_JSON} (or multipart/form-data with files)`;
  }
  if (semicolon === -1) return undefined;
  for (const parameter of contentType.slice(semicolon + 1).split(";")) {
    const eq = parameter.indexOf("=");
    if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    if (!isUtf8(unquote(parameter.slice(eq + 1).trim()))) {
      return `Only the utf-8 charset is accepted`;
    }
  }
  return undefined;
}

/** Why a body could not be read, as the status the HTTP surface gives. */
export function bodyRefusal(
  reason: "too-large" | "unreadable" | "too-slow",
  maxBytes: number,
  timeoutMs: number,
): Refusal {
  if (reason === "too-large") {
    return new Refusal(413, `The body is larger than ${maxBytes} bytes`, "PAYLOAD_TOO_LARGE");
  }
  if (reason === "too-slow") {
    return new Refusal(408, `The body did not arrive within ${timeoutMs} ms`, "REQUEST_TIMEOUT");
  }
  return badRequest("The body could not be read");
}

/** The trusted document a request names, if any; a 400 when what it sends is no id. */
function idOf(
  documentId: unknown,
  extensions: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const named = requestedId(documentId, extensions);
  if ("refused" in named) throw badRequest(named.refused);
  return named.id;
}
