/**
 * `createGraphQLClient(tree, { transport })`: a client shaped like the tree, as
 * the HTTP client is, that speaks GraphQL. `client.books.list()` runs the query
 * `books { list }`, `client.books.add(...)` the mutation `booksAdd`,
 * `client.books.bookId("1").read()` passes the capture as an argument, and a
 * streaming leaf gives an async iterable of its events. Documents come from
 * `buildDocument`, over the same projection the server uses.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import {
 *   createGraphQLClient,
 *   createGraphQLServer,
 *   serverTransport,
 * } from "@ramify/api/graphql";
 *
 * const tree = api({ books: api({ list: op(() => [{ id: "1" }]) }) });
 * const client = createGraphQLClient(tree, {
 *   transport: serverTransport(createGraphQLServer(tree)),
 * });
 * console.log(await client.books.list()); // [{ id: "1" }]
 * ```
 *
 * @module
 */

import type { GraphQLFormattedError } from "graphql";
import type { Node } from "../../tree/node.ts";
import type { CallOptions } from "../../http/client/extension.ts";
import type { Client } from "../../http/client/client_types.ts";
import { isPlainObject, setOwn } from "../../tree/object.ts";
import { datePathsOf } from "../../tree/schema.ts";
import { reviveDates } from "../../tree/dates.ts";
import { type Captures, materialize, shapeOf } from "../../http/client/shape.ts";
import {
  type GraphQLLeafField,
  projectGraphQL,
  type ProjectGraphQLOptions,
} from "../schema/projection.ts";
import { buildDocument, type BuildDocumentOptions, type BuiltDocument } from "./document.ts";
import type { NamedTypeDefinition } from "../schema/types.ts";

/**
 * One operation as a transport sends it.
 *
 * @example
 * ```ts
 * import type { GraphQLOperation } from "@ramify/api/graphql";
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
 * import type { GraphQLResponse } from "@ramify/api/graphql";
 *
 * const response: GraphQLResponse = { data: { ping: "pong" } };
 * ```
 */
export interface GraphQLResponse {
  /** The result, possibly partial. */
  readonly data?: Readonly<Record<string, unknown>> | null;
  /** What went wrong. */
  readonly errors?: readonly GraphQLFormattedError[];
}

/**
 * How the client reaches a server: one method for queries and mutations, one
 * for subscriptions.
 *
 * @example
 * ```ts
 * import type { GraphQLTransport } from "@ramify/api/graphql";
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
 * import { GraphQLClientError } from "@ramify/api/graphql";
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
 * Options of {@linkcode createGraphQLClient}.
 *
 * @example
 * ```ts
 * import { httpTransport, type GraphQLClientOptions } from "@ramify/api/graphql";
 *
 * const opts: GraphQLClientOptions = {
 *   transport: httpTransport({ url: "http://localhost:8000/graphql" }),
 * };
 * ```
 */
export interface GraphQLClientOptions extends ProjectGraphQLOptions, BuildDocumentOptions {
  /** How to reach the server. */
  readonly transport: GraphQLTransport;
}

/**
 * The GraphQL client of a tree. Its type is the HTTP client's (`Client<T>`):
 * the same tree gives the same calls, whichever protocol carries them.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLClient, httpTransport } from "@ramify/api/graphql";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const client = createGraphQLClient(tree, {
 *   transport: httpTransport({ url: "http://localhost:8000/graphql" }),
 * });
 * // await client.ping() → "pong"
 * ```
 */
export function createGraphQLClient<T extends Node>(
  tree: T,
  opts: GraphQLClientOptions,
): Client<T> {
  const projection = projectGraphQL(tree, opts);
  const types = new Map(projection.types.definitions.map((d) => [d.name, d]));
  const context: Context = { transport: opts.transport, types };
  const shape = shapeOf<Leaf>(projection.fields.map((field) => ({
    steps: field.steps,
    payload: { field, document: buildDocument(projection, field, opts) },
  })));
  return materialize(
    shape,
    [],
    ({ field, document }, captures, input, options) =>
      run(field, document, captures, input, options, context),
  ) as Client<T>;
}

interface Context {
  readonly transport: GraphQLTransport;
  readonly types: ReadonlyMap<string, NamedTypeDefinition>;
}

interface Leaf {
  readonly field: GraphQLLeafField;
  readonly document: BuiltDocument;
}

async function run(
  field: GraphQLLeafField,
  document: BuiltDocument,
  captures: Captures,
  input: Record<string, unknown>,
  options: CallOptions,
  context: Context,
): Promise<unknown> {
  const operation: GraphQLOperation = {
    query: document.query,
    operationName: document.operationName,
    variables: variablesOf(field, captures, input, context),
  };
  if (field.kind === "subscription") {
    return events(context.transport.subscribe(operation, options), field, document, context);
  }
  const response = await context.transport.request(operation, options);
  return resultOf(response, field, document, context);
}

/** The variables: the input under GraphQL names, or as one `input` JSON, plus captures. */
function variablesOf(
  field: GraphQLLeafField,
  captures: Captures,
  input: Record<string, unknown>,
  context: Context,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  if (field.jsonInput) {
    setOwn(variables, "input", input);
  } else {
    for (const arg of field.args) {
      const value = input[arg.key ?? arg.name];
      if (value !== undefined) {
        setOwn(variables, arg.name, renamed(value, arg.type, context.types, "toGraphQL"));
      }
    }
  }
  for (const [name, value] of captures) setOwn(variables, name, value);
  return variables;
}

function resultOf(
  response: GraphQLResponse,
  field: GraphQLLeafField,
  document: BuiltDocument,
  context: Context,
): unknown {
  if (response.errors !== undefined && response.errors.length > 0) {
    throw new GraphQLClientError(
      response.errors,
      response.data,
      Object.keys(field.node.meta.errors ?? {}),
    );
  }
  let value: unknown = response.data;
  for (const key of document.path) {
    value = isPlainObject(value) ? value[key] : undefined;
  }
  if (field.voidResult) return undefined;
  const result = renamed(value, field.type, context.types, "fromGraphQL");
  // Dates travel as date-time strings; the output schema promises `Date`s.
  const output = field.node.meta?.output;
  return output === undefined ? result : reviveDates(result, datePathsOf(output, "output"));
}

async function* events(
  source: AsyncIterable<GraphQLResponse>,
  field: GraphQLLeafField,
  document: BuiltDocument,
  context: Context,
): AsyncGenerator<unknown> {
  for await (const response of source) yield resultOf(response, field, document, context);
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
  types: ReadonlyMap<string, NamedTypeDefinition>,
  direction: "toGraphQL" | "fromGraphQL",
): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, typeRef, types, direction));
  if (!isPlainObject(value)) return value;
  let definition = types.get(typeRef.replace(/[[\]!]/g, ""));
  if (definition?.kind === "union" && typeof value.__typename === "string") {
    definition = types.get(value.__typename);
  }
  const fields = definition?.kind === "object" || definition?.kind === "input"
    ? definition.fields
    : [];
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
