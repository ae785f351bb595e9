// Parts of an OpenAPI document that many operations hold alike (a string
// capture, a tag, a result, a request body, a problem answer), made once and
// shared: documents are frozen, so sharing is safe, and ten thousand
// operations then hold a few dozen of these objects, not tens of thousands,
// which the garbage collector and the freezing walk both feel.

import type { JsonSchema } from "../../tree/schema.ts";

/** The reference to the RFC 9457 problem component. */
export const PROBLEM_REF = { $ref: "#/components/schemas/Problem" } as const;
/** No names. */
export const NONE: ReadonlySet<string> = new Set();
/** Any JSON value: the result schema of a leaf without an output schema. */
export const ANY: JsonSchema = {};
/** The 204 of a leaf without an output schema. */
export const NOTHING_RETURNED = {
  description: "Done; no content (the handler returned nothing)",
} as const;

/** Past this many, a memory starts again (names come from trees, which can be large). */
const MAX_SHARED = 10_000;
const STRING_CAPTURES = new Map<string, Readonly<Record<string, unknown>>>();
const GROUPS = new Map<string, readonly string[]>();
const PROBLEMS = new Map<string, Readonly<Record<string, unknown>>>();
const RESULTS = new WeakMap<JsonSchema, Map<string, Readonly<Record<string, unknown>>>>();
const BODIES = new WeakMap<JsonSchema, Map<string, Readonly<Record<string, unknown>>>>();

function shared<T>(memory: Map<string, T>, key: string, make: () => T): T {
  let value = memory.get(key);
  if (value === undefined) {
    if (memory.size >= MAX_SHARED) memory.clear();
    memory.set(key, value = make());
  }
  return value;
}

function bySchema<T>(memory: WeakMap<JsonSchema, Map<string, T>>, schema: JsonSchema) {
  let byKey = memory.get(schema);
  if (byKey === undefined) memory.set(schema, byKey = new Map());
  return byKey;
}

/** A path parameter without a schema of its own: a string. */
export function stringCapture(name: string): Record<string, unknown> {
  return shared(STRING_CAPTURES, name, () => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

/** The default tags: the first path segment, unless it is a capture. */
export function groupOf(path: string): readonly string[] | undefined {
  const end = path.indexOf("/", 1);
  const group = path.slice(1, end === -1 ? undefined : end);
  return group === "" || group.startsWith("{") ? undefined : shared(GROUPS, group, () => [group]);
}

/** A JSON result without response headers. */
export function jsonResult(description: string, schema: JsonSchema): Record<string, unknown> {
  return shared(bySchema(RESULTS, schema), description, () => ({
    description,
    content: { "application/json": { schema } },
  }));
}

/** A request body of one media type. */
export function sharedBody(
  schema: JsonSchema,
  media: string,
  required: boolean,
): Record<string, unknown> {
  return shared(bySchema(BODIES, schema), `${required} ${media}`, () => ({
    required,
    content: { [media]: { schema } },
  }));
}

/** A problem answer: shared when it has no headers of its own. */
export function problem(
  description: string,
  headers?: Record<string, unknown>,
): Readonly<Record<string, unknown>> {
  if (headers === undefined) {
    return shared(PROBLEMS, description, () => ({
      description,
      content: { "application/problem+json": { schema: PROBLEM_REF } },
    }));
  }
  return { description, headers, content: { "application/problem+json": { schema: PROBLEM_REF } } };
}

/** An operation's responses by status, while they are being written. */
export type Responses = Map<string, unknown>;

/**
 * The responses objects of one document: operations whose responses are the
 * same objects at the same statuses share one (most do: the shared results
 * and problems above), in status order.
 */
export class ResponseTables {
  readonly #ids = new Map<unknown, number>();
  readonly #tables = new Map<string, Record<string, unknown>>();

  /** The responses object of these responses. */
  of(responses: Responses): Record<string, unknown> {
    // Code-unit order: numeric statuses ascending, then `4XX`, `default`.
    const statuses = [...responses.keys()].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
    let key = "";
    for (const status of statuses) {
      const response = responses.get(status);
      let id = this.#ids.get(response);
      if (id === undefined) this.#ids.set(response, id = this.#ids.size);
      key += `${status} ${id} `;
    }
    let table = this.#tables.get(key);
    if (table === undefined) {
      table = {};
      for (const status of statuses) table[status] = responses.get(status);
      this.#tables.set(key, table);
    }
    return table;
  }
}
