/**
 * The GraphQL client's runtime over a manifest: `createGraphQLClientFromManifest<typeof
 * tree>(manifest, { transport })` from `@ramify/api/graphql/client` takes the
 * tree only as a type, so a browser bundle holds this runtime, a transport and
 * the manifest's plain data (documents, argument and field names), nothing of
 * the server and not the `graphql` package.
 *
 * @example
 * ```ts
 * import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
 * import { api, op } from "@ramify/api/tree";
 * import { createHttpGraphQLServer, toGraphQLClientManifest } from "@ramify/api/graphql";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const client = createGraphQLClientFromManifest<typeof tree>(toGraphQLClientManifest(tree), {
 *   transport: httpTransport({ url: "http://localhost/graphql", fetch: createHttpGraphQLServer(tree) }),
 * });
 * console.log(await client.ping()); // "pong"
 * ```
 *
 * @module
 */

import type { GraphQLFormattedError } from "graphql";
import type { Node } from "../../tree/node.ts";
import type { GapNotice } from "../../tree/stream_events.ts";
import type { CallOptions } from "../../client/extension.ts";
import type { Client } from "../../client/client_types.ts";
import { isPlainObject, setOwn } from "../../tree/plain_data.ts";
import { reviveDates } from "../../tree/dates.ts";
import { type Captures, materialize, shapeOf } from "../../client/shape.ts";
import { type GraphQLTask, taskAnswer } from "./_tasks.ts";
import {
  checkedGraphQLManifest,
  type GraphQLClientManifest,
  type GraphQLManifestOperation,
  type GraphQLManifestType,
} from "./manifest.ts";

/**
 * One operation as a transport sends it.
 *
 * @example
 * ```ts
 * import type { GraphQLOperation } from "@ramify/api/graphql/client";
 *
 * const operation: GraphQLOperation = {
 *   query: "query BooksList { books { list } }",
 *   operationName: "BooksList",
 *   variables: {},
 * };
 * ```
 */
export interface GraphQLOperation {
  /** The document text. */
  readonly query: string;
  /** The operation's name. */
  readonly operationName: string;
  /** The variables. */
  readonly variables: Readonly<Record<string, unknown>>;
}

/**
 * What a server answers: data, errors, or both.
 *
 * @example
 * ```ts
 * import type { GraphQLResponse } from "@ramify/api/graphql/client";
 *
 * const response: GraphQLResponse = { data: { ping: "pong" } };
 * ```
 */
export interface GraphQLResponse {
  /** The result, possibly partial. */
  readonly data?: Readonly<Record<string, unknown>> | null;
  /** What went wrong. */
  readonly errors?: readonly GraphQLFormattedError[];
  /** What else the server says: a subscription event's position as `eventId`. */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/**
 * How the client reaches a server: one method for queries and mutations, one
 * for subscriptions.
 *
 * @example
 * ```ts
 * import type { GraphQLTransport } from "@ramify/api/graphql/client";
 *
 * const offline: GraphQLTransport = {
 *   request: () => Promise.reject(new TypeError("offline")),
 *   subscribe: () => ({
 *     [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new TypeError("offline")) }),
 *   }),
 * };
 * ```
 */
export interface GraphQLTransport {
  /** Sends a query or mutation. */
  request(operation: GraphQLOperation, options?: CallOptions): Promise<GraphQLResponse>;
  /** Starts a subscription; leaving the iteration ends it. */
  subscribe(operation: GraphQLOperation, options?: CallOptions): AsyncIterable<GraphQLResponse>;
}

/**
 * A response with errors: the errors, and the partial data there was.
 *
 * @example
 * ```ts
 * import { GraphQLClientError } from "@ramify/api/graphql/client";
 *
 * const error = new GraphQLClientError([{ message: "Unexpected error." }], null);
 * console.log(error.message); // "Unexpected error."
 * ```
 */
export class GraphQLClientError extends Error {
  /** The errors as the server sent them. */
  readonly errors: readonly GraphQLFormattedError[];
  /** The partial data, if any. */
  readonly data: Readonly<Record<string, unknown>> | null | undefined;
  /**
   * The code of an error the leaf declares (`meta.errors`), from the first
   * error's `extensions.code`; `undefined` for any other error.
   */
  readonly code: string | undefined;
  /** The declared error's data (`extensions.data`); `undefined` for any other error. */
  readonly details: unknown;

  /**
   * Makes the error from a response's errors and data.
   *
   * @param errors the response's errors (at least one)
   * @param data the response's partial data
   * @param declared the error codes the leaf declares
   */
  constructor(
    errors: readonly GraphQLFormattedError[],
    data: Readonly<Record<string, unknown>> | null | undefined,
    declared: readonly string[] = [],
  ) {
    super(errors.map((e) => e.message).join("; ") || "GraphQL error");
    this.name = "GraphQLClientError";
    this.errors = errors;
    this.data = data;
    const code = errors[0]?.extensions?.code;
    const isDeclared = typeof code === "string" && declared.includes(code);
    this.code = isDeclared ? code : undefined;
    this.details = isDeclared ? errors[0]?.extensions?.data : undefined;
  }
}

/**
 * Options of the manifest's GraphQL client.
 *
 * @example
 * ```ts
 * import { httpTransport, type GraphQLTransportOptions } from "@ramify/api/graphql/client";
 *
 * const opts: GraphQLTransportOptions = { transport: httpTransport({ url: "/graphql" }) };
 * ```
 */
export interface GraphQLTransportOptions {
  /** How to reach the server. */
  readonly transport: GraphQLTransport;
}

/**
 * The typed GraphQL client of a manifest; give the tree's type to type it,
 * as `createGraphQLClient(tree)` is typed.
 *
 * @example
 * ```ts
 * import {
 *   createGraphQLClientFromManifest,
 *   type GraphQLClientManifest,
 *   httpTransport,
 * } from "@ramify/api/graphql/client";
 *
 * const manifest: GraphQLClientManifest = { manifest: 1, operations: [], types: [] };
 * const client = createGraphQLClientFromManifest(manifest, { transport: httpTransport({ url: "/graphql" }) });
 * ```
 *
 * @throws {TypeError} when the manifest is not one.
 */
export function createGraphQLClientFromManifest<T extends Node = Node>(
  manifest: GraphQLClientManifest,
  opts: GraphQLTransportOptions,
): Client<T> {
  const checked = checkedGraphQLManifest(manifest);
  const types = new Map(checked.types.map((type) => [type.name, type]));
  const context: Context = { transport: opts.transport, types };
  const shape = shapeOf<GraphQLManifestOperation>(checked.operations.map((field) => ({
    steps: field.steps,
    payload: field,
  })));
  return materialize(
    shape,
    [],
    (field, captures, input, options) => run(field, captures, input, options, context),
    (field) =>
      field.invalidates === undefined
        ? { tags: KIND_TAGS[field.kind] }
        : { tags: KIND_TAGS[field.kind], invalidates: field.invalidates },
  ) as Client<T>;
}

// What the query utils need of a field: a query reads, a subscription streams.
const KIND_TAGS = {
  query: { readOnly: true },
  mutation: {},
  subscription: { readOnly: true, streaming: true },
} as const;

interface Context {
  readonly transport: GraphQLTransport;
  readonly types: ReadonlyMap<string, GraphQLManifestType>;
}

async function run(
  field: GraphQLManifestOperation,
  captures: Captures,
  input: Record<string, unknown>,
  options: CallOptions,
  context: Context,
): Promise<unknown> {
  const operation: GraphQLOperation = {
    query: field.query,
    operationName: field.operationName,
    variables: variablesOf(field, captures, input, context),
  };
  if (field.kind === "subscription") {
    return events(context.transport.subscribe(operation, options), field, context, options);
  }
  if (field.longRunning === true) return await started(field, operation, options, context);
  const response = await context.transport.request(operation, options);
  return resultOf(response, field, context);
}

/**
 * A long-running field's call: its `Task` read whatever `voidResult` says,
 * then its handle or its result (`undefined` for a void leaf's). The start
 * goes without the call's signal, so that an abort at any moment finds the
 * task's id and cancels it.
 */
async function started(
  field: GraphQLManifestOperation,
  operation: GraphQLOperation,
  options: CallOptions,
  context: Context,
): Promise<unknown> {
  const { signal: _signal, ...unsignalled } = options;
  const response = await context.transport.request(operation, unsignalled);
  return await taskAnswer(valueOf(response, field) as GraphQLTask, options, {
    async send(document, variables) {
      const { query, operationName } = document;
      // With the call's headers: a server may know the task's owner by one.
      const read = await context.transport.request(
        { query, operationName, variables },
        unsignalled,
      );
      if (read.errors !== undefined && read.errors.length > 0) {
        throw new GraphQLClientError(read.errors, read.data);
      }
      return read.data?.[document.field] as GraphQLTask;
    },
    // The failure as the call's own error would be: its code and status in
    // `extensions`, and a declared error's data in `extensions.data`.
    fail: ({ status, code, message, data }) =>
      new GraphQLClientError(
        [{ message, extensions: data === null ? { code, status } : { code, status, data } }],
        null,
        field.errors,
      ),
    revive: (value) => revived(field, value),
  });
}

/** The variables: the input under GraphQL names, plus captures. */
function variablesOf(
  field: GraphQLManifestOperation,
  captures: Captures,
  input: Record<string, unknown>,
  context: Context,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) {
    if (arg.spread === true) {
      setOwn(variables, arg.name, withoutCaptures(input, captures));
      continue;
    }
    const value = input[arg.key ?? arg.name];
    if (value !== undefined) {
      setOwn(variables, arg.name, renamed(value, arg.type, context.types, "toGraphQL"));
    }
  }
  for (const [name, value] of captures) setOwn(variables, name, value);
  return variables;
}

/** The free-form input: every own key of the call's input but the captures (which travel apart). */
function withoutCaptures(
  input: Record<string, unknown>,
  captures: Captures,
): Record<string, unknown> {
  const names = new Set(captures.map(([name]) => name));
  const sent: Record<string, unknown> = {};
  for (const key of Object.keys(input)) if (!names.has(key)) setOwn(sent, key, input[key]);
  return sent;
}

/** The field's value in a response as sent, or the response's errors thrown. */
function valueOf(response: GraphQLResponse, field: GraphQLManifestOperation): unknown {
  if (response.errors !== undefined && response.errors.length > 0) {
    throw new GraphQLClientError(response.errors, response.data, field.errors);
  }
  let value: unknown = response.data;
  for (const key of field.path) {
    value = isPlainObject(value) ? value[key] : undefined;
  }
  return value;
}

function resultOf(
  response: GraphQLResponse,
  field: GraphQLManifestOperation,
  context: Context,
): unknown {
  const value = renamed(valueOf(response, field), field.type, context.types, "fromGraphQL");
  return revived(field, value);
}

/** A result as the call gives it: none for a void leaf, else with its dates revived. */
function revived(field: GraphQLManifestOperation, value: unknown): unknown {
  if (field.voidResult) return undefined;
  // Dates travel as date-time strings; the output schema promises `Date`s.
  return field.dates.length === 0 ? value : reviveDates(value, field.dates);
}

/**
 * A subscription's values. A gap the server tells (an error with code
 * `EVENTS_MISSED`) goes to `onGap` and the stream goes on; an event's id
 * (`extensions.eventId`) to `onEventId`, as over SSE.
 */
async function* events(
  source: AsyncIterable<GraphQLResponse>,
  field: GraphQLManifestOperation,
  context: Context,
  options: CallOptions,
): AsyncGenerator<unknown> {
  for await (const response of source) {
    const gap = response.errors?.find((error) => error.extensions?.code === "EVENTS_MISSED");
    if (gap !== undefined) {
      options.onGap?.({ ...gap.extensions, message: gap.message } as GapNotice);
      continue;
    }
    const eventId = response.extensions?.eventId;
    if (typeof eventId === "string") options.onEventId?.(eventId);
    yield resultOf(response, field, context);
  }
}

/**
 * A value between its tree spelling and its GraphQL spelling: properties the
 * schema names differently from GraphQL (`first-name` / `firstName`) are
 * renamed, and the `__typename` the document asked for to tell union members
 * apart is left out of results.
 */
function renamed(
  value: unknown,
  typeRef: string,
  types: ReadonlyMap<string, GraphQLManifestType>,
  direction: "toGraphQL" | "fromGraphQL",
): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, typeRef, types, direction));
  if (!isPlainObject(value)) return value;
  let definition = types.get(typeRef.replace(/[[\]!]/g, ""));
  if (definition?.kind === "union" && typeof value.__typename === "string") {
    definition = types.get(value.__typename);
  }
  const fields = definition?.fields ?? [];
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (direction === "fromGraphQL" && key === "__typename") continue;
    const field = direction === "toGraphQL"
      ? fields.find((f) => (f.key ?? f.name) === key)
      : fields.find((f) => f.name === key);
    const target = direction === "toGraphQL" ? field?.name ?? key : field?.key ?? key;
    // GraphQL answers an absent optional property with null; the schema has none.
    if (direction === "fromGraphQL" && field?.optional === true && value[key] === null) continue;
    setOwn(
      result,
      target,
      field === undefined ? value[key] : renamed(value[key], field.type, types, direction),
    );
  }
  return result;
}
