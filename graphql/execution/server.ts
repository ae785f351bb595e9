/**
 * `createGraphQLServer(tree, opts?)`: the executable schema of a tree with
 * `execute` and `subscribe`, parsed and validated documents cached, safe
 * limits on what one document may ask (depth, aliases, fields, tokens, the
 * estimated cost), a deadline for each leaf call (`timeoutMs`), and the
 * executor that runs each document (`executor`: its compiled plans, or
 * graphql-js's own). Transports (`createHttpGraphQLServer`, the WebSocket
 * handlers) are built on it: build it once and give it to each of them.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * console.log((await server.execute({ query: "{ ping }" })).data); // { ping: "pong" }
 * ```
 *
 * @module
 */

import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from "graphql";
import { checkLimits, type Limits } from "./_limits.ts";
import { compiledExecutor } from "./_compiled.ts";
import { type ExecutionCounts, type Executor, graphqlJsExecutor } from "./_executor.ts";
import { BYTES_PER_CHAR, DocumentCache } from "./_cache.ts";
import { hideSuggestions, maskExecution } from "./results.ts";
import { Cancelled } from "../../tree/failure.ts";
import { assertImplemented } from "../../tree/contract.ts";
import type { HandlerContext, Node } from "../../tree/node.ts";
import { projectGraphQL, type ProjectGraphQLResult } from "../schema/projection.ts";
import { printProjection } from "../schema/sdl.ts";
import { toSchema } from "../schema/executable.ts";
import type { CreateResolverOptions } from "../schema/resolvers.ts";
import { clientError, observer } from "../schema/errors.ts";
import { withEventId } from "../schema/stream_events.ts";
import { setDirect } from "./direct.ts";
import { checkOptions, knownKeys } from "../../tree/options.ts";
import { checkExecutor, GRAPHQL_SERVER_OPTIONS } from "./server_options.ts";
import {
  type TrustedDocuments,
  trustedDocumentsOf,
  type TrustedDocumentsOptions,
} from "./trusted.ts";

export type { TrustedDocumentsOptions } from "./trusted.ts";

/**
 * What a GraphQL server has done: how its queries and mutations ran (by a
 * compiled plan, or by graphql-js `execute`: with `executor: "graphql-js"`
 * every one, else what the compiler does not cover), counted since it was
 * built, and what its document cache holds now. Read live.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * await server.execute({ query: "{ ping }" });
 * console.log(server.stats.compiled, server.stats.fallback); // 1 0
 * console.log(server.stats.documents); // 1
 * ```
 */
export interface GraphQLServerStats {
  /** Operations run by their compiled plan. */
  readonly compiled: number;
  /** Operations run by graphql-js `execute`. */
  readonly fallback: number;
  /** Documents in the cache (each with its plans). */
  readonly documents: number;
  /** Their estimated memory, in bytes: what `documentCacheBytes` bounds. */
  readonly documentBytes: number;
}

/**
 * Limits on one document. Each has a safe default.
 *
 * @example
 * ```ts
 * import type { GraphQLLimits } from "@ramify/api/graphql";
 *
 * const limits: GraphQLLimits = { maxDepth: 8, maxAliases: 10 };
 * ```
 */
export interface GraphQLLimits {
  /** The deepest selection nesting. Default 15. */
  readonly maxDepth?: number;
  /** The most aliased fields. Default 30. */
  readonly maxAliases?: number;
  /** The most selections (fields and fragment spreads), fragments expanded. Default 1,000. */
  readonly maxFields?: number;
  /** The most lexical tokens in a document. Default 10,000. */
  readonly maxTokens?: number;
  /**
   * The most fields an operation may resolve, estimated before it runs: each
   * field counts once per object it is selected on, and a list multiplies what
   * is inside it by its size (a literal `first`/`last`/`limit`/`pageSize`/
   * `take`/`count` argument, else `listSize`). Default 10,000.
   */
  readonly maxCost?: number;
  /** The size the cost estimate gives a list without a size argument. Default 10. */
  readonly listSize?: number;
}

/**
 * Options of {@linkcode createGraphQLServer}.
 *
 * @example
 * ```ts
 * import type { GraphQLServerOptions } from "@ramify/api/graphql";
 *
 * const opts: GraphQLServerOptions = {
 *   introspection: false,
 *   limits: { maxDepth: 10 },
 *   timeoutMs: 10_000,
 *   executor: "compiled",
 * };
 * ```
 */
export interface GraphQLServerOptions extends CreateResolverOptions {
  /** Allow `__schema` and `__type`. Default `true`. */
  readonly introspection?: boolean;
  /** Document limits. */
  readonly limits?: GraphQLLimits;
  /**
   * How many parsed and validated documents to keep, each with its compiled
   * execution plans. Default 1,000.
   */
  readonly documentCacheSize?: number;
  /**
   * The memory the document cache may hold, in bytes, estimated as 64 bytes
   * per character of document text. The estimate is low for small documents
   * (a parsed document and its plans cost about 230 bytes a character): for
   * those the count bound holds first. Default 32 MiB.
   */
  readonly documentCacheBytes?: number;
  /**
   * The documents this server runs, by id: anything else is refused with
   * `PERSISTED_QUERY_ONLY` (see {@linkcode TrustedDocumentsOptions}). Default:
   * any document.
   */
  readonly trustedDocuments?: TrustedDocumentsOptions;
  /**
   * What runs validated documents: `"compiled"` runs each document's plan,
   * compiled once and cached with it, and leaves to graphql-js what the
   * compiler does not cover (subscriptions among them); `"graphql-js"` runs
   * graphql-js's own `execute` and `subscribe` for every operation. Both give
   * the same results; the compiled one is the faster. Default `"compiled"`.
   */
  readonly executor?: "compiled" | "graphql-js";
}

/**
 * One GraphQL request.
 *
 * @example
 * ```ts
 * import type { GraphQLRequest } from "@ramify/api/graphql";
 *
 * const request: GraphQLRequest = {
 *   query: "query Book($id: ID!) { books { read(bookId: $id) { title } } }",
 *   variables: { id: "1" },
 * };
 * ```
 */
export interface GraphQLRequest {
  /** The document text. */
  readonly query: string;
  /** Variable values. */
  readonly variables?: Readonly<Record<string, unknown>> | null;
  /** Which operation of the document to run. */
  readonly operationName?: string | null;
  /** What handlers receive as their context (the request, a signal, your values). */
  readonly context?: HandlerContext;
  /** The document `prepare(query)` gave, when the caller has it: saves a second lookup. */
  readonly document?: DocumentNode;
}

/**
 * A parsed and validated document, or why it is not one.
 *
 * @example
 * ```ts
 * import type { PreparedDocument } from "@ramify/api/graphql";
 *
 * const ok = (prepared: PreparedDocument) => "document" in prepared;
 * ```
 */
export type PreparedDocument =
  | { readonly document: DocumentNode }
  | { readonly errors: readonly GraphQLError[] };

/**
 * A GraphQL server over a tree.
 *
 * @example
 * ```ts
 * import type { GraphQLServer } from "@ramify/api/graphql";
 *
 * const run = (server: GraphQLServer) => server.execute({ query: "{ __typename }" });
 * ```
 */
export interface GraphQLServer {
  /** The executable schema. */
  readonly schema: GraphQLSchema;
  /** Its SDL. */
  readonly sdl: string;
  /** The projection it was built from. */
  readonly projection: ProjectGraphQLResult;
  /** Whether `__schema` and `__type` may be asked (and errors may suggest names). */
  readonly introspection: boolean;
  /** The document limits in force, defaults filled in. */
  readonly limits: Readonly<Required<GraphQLLimits>>;
  /**
   * Parses and validates a document (cached), limits included; with trusted
   * documents, a text the list does not hold is refused (and not cached).
   */
  prepare(query: string): PreparedDocument;
  /** The text of the trusted document `id` names; `undefined` when none does or there is no list. */
  trustedDocument(id: string): string | undefined;
  /**
   * The error a client sees for a thrown value, as the resolvers render one:
   * the failure the tree classifies it as (`extensions.code`, `status`,
   * `issues`, `data`), or a fault, reported to `onError` and masked unless
   * the `errors` mapping exposes it. Transports render what fails outside the
   * resolvers with it (a context function's refusal); `context` is the
   * caller's, whose aborted signal makes an abort a cancellation.
   */
  errorOf(error: unknown, context?: HandlerContext): GraphQLError;
  /**
   * How queries and mutations ran: `compiled` by the document's cached plan,
   * `fallback` by graphql-js `execute` (every one with `executor:
   * "graphql-js"`, else what the compiler does not cover: an operation that
   * cannot be chosen, introspection, ...); and what the document cache holds.
   * Read live.
   */
  readonly stats: GraphQLServerStats;
  /** Runs a query or mutation. */
  execute(request: GraphQLRequest): Promise<ExecutionResult>;
  /** Starts a subscription: a stream of results, or one result with errors. */
  subscribe(request: GraphQLRequest): Promise<AsyncIterable<ExecutionResult> | ExecutionResult>;
}

/**
 * The GraphQL server of a tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({ books: api({ add: op(() => ({ id: "1" })) }) }), {
 *   limits: { maxDepth: 10 },
 * });
 * const result = await server.execute({ query: "mutation { booksAdd }" });
 * console.log(result.data); // { booksAdd: { id: "1" } }
 * ```
 */
export function createGraphQLServer(tree: Node, opts: GraphQLServerOptions = {}): GraphQLServer {
  checkOptions("createGraphQLServer", opts, SERVER_OPTIONS);
  checkExecutor(opts.executor, "createGraphQLServer");
  assertImplemented(tree, "createGraphQLServer");
  const projection = projectGraphQL(tree, opts);
  return serveProjection(projection, opts, trustedDocumentsOf(opts, "createGraphQLServer"));
}

/** The options list, checked against the type: a key added to one and not the other fails here. */
const SERVER_OPTIONS = knownKeys<GraphQLServerOptions>()(GRAPHQL_SERVER_OPTIONS);

/**
 * The GraphQL server of a tree's projection and its checked trusted documents
 * (`createGraphQLServer` once the tree and options are checked): the HTTP
 * transport checks them when it is made and builds the server on its first
 * request.
 */
export function serveProjection(
  projection: ProjectGraphQLResult,
  opts: GraphQLServerOptions,
  trusted: TrustedDocuments | undefined,
): GraphQLServer {
  // The projection checked the tree; the schema and its SDL build on first
  // use, so a process that answers other requests first does not wait for them.
  let built: GraphQLSchema | undefined;
  const schemaOf = () => built ??= toSchema(projection, opts);
  let sdl: string | undefined;
  const limits: Limits = {
    maxDepth: opts.limits?.maxDepth ?? 15,
    maxAliases: opts.limits?.maxAliases ?? 30,
    maxFields: opts.limits?.maxFields ?? 1_000,
    maxTokens: opts.limits?.maxTokens ?? 10_000,
    maxCost: opts.limits?.maxCost ?? 10_000,
    listSize: opts.limits?.listSize ?? 10,
  };
  const introspection = opts.introspection ?? true;
  const observe = observer(opts.onError, "ramify: GraphQL execution crashed:");
  const errorOf = clientError(opts);
  const cache = new DocumentCache<PreparedDocument>(
    opts.documentCacheSize ?? 1_000,
    opts.documentCacheBytes ?? 32 * 1024 * 1024,
  );
  // Refused before the cache: texts nobody trusts never take its room.
  const prepare = (query: string): PreparedDocument =>
    trusted !== undefined && !trusted.admits(query) ? UNTRUSTED : cache.get(query) ??
      cache.add(query, prepareUncached(schemaOf(), query, limits, introspection));
  const documentOf = (request: GraphQLRequest): PreparedDocument =>
    request.document === undefined ? prepare(request.query) : { document: request.document };
  const finish = (result: ExecutionResult) => maskExecution(result, observe, introspection);
  const cancelled = (error: unknown, contextValue: HandlerContext): ExecutionResult => ({
    data: null,
    errors: [errorOf(new Cancelled(error), contextValue)],
  });
  const counts: ExecutionCounts = { compiled: 0, fallback: 0 };
  const base = { schemaOf, cancelled, counts };
  const graphqlJs = graphqlJsExecutor(base);
  const executor: Executor = opts.executor === "graphql-js"
    ? graphqlJs
    : compiledExecutor(base, graphqlJs);

  const direct = (request: GraphQLRequest): ExecutionResult | Promise<ExecutionResult> => {
    const prepared = documentOf(request);
    if ("errors" in prepared) return { errors: prepared.errors };
    const result = executor.execute(prepared.document, request, request.context ?? {});
    return result instanceof Promise ? result.then(finish) : finish(result);
  };

  const server: GraphQLServer = {
    get schema() {
      return schemaOf();
    },
    get sdl() {
      return sdl ??= printProjection(projection);
    },
    projection,
    introspection,
    limits: Object.freeze({ ...limits }),
    prepare,
    trustedDocument: (id) => trusted?.textOf(id),
    errorOf,
    stats: {
      get compiled() {
        return counts.compiled;
      },
      get fallback() {
        return counts.fallback;
      },
      get documents() {
        return cache.size;
      },
      get documentBytes() {
        return cache.chars * BYTES_PER_CHAR;
      },
    },
    // A promise `direct` gives is given as it is.
    execute: (request) => Promise.resolve(direct(request)),
    async subscribe(request) {
      const prepared = documentOf(request);
      if ("errors" in prepared) return { errors: prepared.errors };
      const contextValue = request.context ?? {};
      const result = await executor.subscribe(prepared.document, request, contextValue);
      if (!(Symbol.asyncIterator in result)) return finish(result);
      return (async function* () {
        for await (const item of result) yield withEventId(finish(item), contextValue);
      })();
    },
  };
  setDirect(server, direct, executor.subscribe);
  return server;
}

function prepareUncached(
  schema: GraphQLSchema,
  query: string,
  limits: Limits,
  introspection: boolean,
): PreparedDocument {
  let document: DocumentNode;
  let errors: readonly GraphQLError[];
  try {
    document = parse(query, { maxTokens: limits.maxTokens });
    errors = validate(schema, document);
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    // The parser and validator recurse: a document nested a few thousand levels
    // deep exhausts the stack within the token limit. The engine's own message
    // is not for clients.
    return {
      errors: [
        new GraphQLError("The document nests too deeply to be read", {
          extensions: { code: "GRAPHQL_PARSE_FAILED" },
        }),
      ],
    };
  }
  // Suggestions name schema members: with introspection off they are hidden too.
  if (errors.length > 0) return { errors: introspection ? errors : hideSuggestions(errors) };
  const limitErrors = checkLimits(schema, document, limits, introspection);
  return limitErrors.length > 0 ? { errors: limitErrors } : { document };
}

const UNTRUSTED: PreparedDocument = Object.freeze({
  errors: Object.freeze([
    new GraphQLError(
      "Only trusted documents run here: send the documentId of one (or its exact text)",
      { extensions: { code: "PERSISTED_QUERY_ONLY" } },
    ),
  ]),
});
