/**
 * `createGraphQLServer(tree, opts?)`: the executable schema of a tree with
 * `execute` and `subscribe`, parsed and validated documents cached, and safe
 * limits on what one document may ask (depth, aliases, fields, tokens).
 * Transports (`createHttpGraphQLServer`, the WebSocket handlers) are built on it.
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
  execute,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  parse,
  type SelectionSetNode,
  subscribe,
  validate,
} from "graphql";
import type { HandlerContext, Node } from "../../tree/node.ts";
import { projectGraphQL, type ProjectGraphQLResult } from "../schema/projection.ts";
import { printProjection } from "../schema/sdl.ts";
import { toSchema } from "../schema/executable.ts";
import type { CreateResolverOptions } from "../schema/resolvers.ts";

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
}

/**
 * Options of {@linkcode createGraphQLServer}.
 *
 * @example
 * ```ts
 * import type { GraphQLServerOptions } from "@ramify/api/graphql";
 *
 * const opts: GraphQLServerOptions = { introspection: false, limits: { maxDepth: 10 } };
 * ```
 */
export interface GraphQLServerOptions extends CreateResolverOptions {
  /** Allow `__schema` and `__type`. Default `true`. */
  readonly introspection?: boolean;
  /** Document limits. */
  readonly limits?: GraphQLLimits;
  /** How many parsed and validated documents to keep. Default 1,000. */
  readonly documentCacheSize?: number;
  /** The most document text the cache holds, in characters. Default 4 MiB worth. */
  readonly documentCacheChars?: number;
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
  /** Parses and validates a document (cached), limits included. */
  prepare(query: string): PreparedDocument;
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
  const projection = projectGraphQL(tree, opts);
  const schema = toSchema(projection, opts);
  const sdl = printProjection(projection);
  const limits = {
    maxDepth: opts.limits?.maxDepth ?? 15,
    maxAliases: opts.limits?.maxAliases ?? 30,
    maxFields: opts.limits?.maxFields ?? 1_000,
    maxTokens: opts.limits?.maxTokens ?? 10_000,
  };
  const introspection = opts.introspection ?? true;
  const cacheSize = opts.documentCacheSize ?? 1_000;
  const cacheChars = opts.documentCacheChars ?? 4 * 1024 * 1024;
  const cache = new Map<string, PreparedDocument>();
  let cachedChars = 0;

  const prepare = (query: string): PreparedDocument => {
    const cached = cache.get(query);
    if (cached !== undefined) {
      // Least recently used goes first: re-insert on every hit.
      cache.delete(query);
      cache.set(query, cached);
      return cached;
    }
    const prepared = prepareUncached(schema, query, limits, introspection);
    // Bounded by count and by text, so large documents cannot fill the memory.
    if (query.length <= cacheChars) {
      cache.set(query, prepared);
      cachedChars += query.length;
      while (cache.size > cacheSize || cachedChars > cacheChars) {
        const oldest = cache.keys().next().value!;
        cache.delete(oldest);
        cachedChars -= oldest.length;
      }
    }
    return prepared;
  };

  const args = (request: GraphQLRequest, document: DocumentNode) => ({
    schema,
    document,
    variableValues: request.variables ?? undefined,
    operationName: request.operationName ?? undefined,
    contextValue: request.context ?? {},
  });

  return {
    schema,
    sdl,
    projection,
    prepare,
    async execute(request) {
      const prepared = request.document === undefined
        ? prepare(request.query)
        : { document: request.document };
      if ("errors" in prepared) return { errors: prepared.errors };
      return await execute(args(request, prepared.document));
    },
    async subscribe(request) {
      const prepared = request.document === undefined
        ? prepare(request.query)
        : { document: request.document };
      if ("errors" in prepared) return { errors: prepared.errors };
      return await subscribe(args(request, prepared.document));
    },
  };
}

function prepareUncached(
  schema: GraphQLSchema,
  query: string,
  limits: Required<GraphQLLimits>,
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
  if (errors.length > 0) return { errors };
  const limitErrors = checkLimits(document, limits, introspection);
  return limitErrors.length > 0 ? { errors: limitErrors } : { document };
}

/**
 * Depth, aliases and field count of every operation, fragments expanded (the
 * validation above has already refused fragment cycles), and introspection.
 */
function checkLimits(
  document: DocumentNode,
  limits: Required<GraphQLLimits>,
  introspection: boolean,
): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const errors: GraphQLError[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    let fields = 0;
    let aliases = 0;
    let deepest = 0;
    let introspects = false;
    const visit = (set: SelectionSetNode, depth: number) => {
      deepest = Math.max(deepest, depth);
      if (depth > limits.maxDepth || fields > limits.maxFields) return;
      for (const selection of set.selections) {
        // Every selection counts, spreads too: fragments that only spread each
        // other must not expand without bound.
        fields++;
        if (selection.kind === Kind.FIELD) {
          if (selection.alias !== undefined) aliases++;
          const name = selection.name.value;
          if (name === "__schema" || name === "__type") introspects = true;
          if (selection.selectionSet) visit(selection.selectionSet, depth + 1);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          visit(selection.selectionSet, depth);
        } else {
          const fragment = fragments.get(selection.name.value);
          if (fragment !== undefined) visit(fragment.selectionSet, depth);
        }
      }
    };
    visit(definition.selectionSet, 1);
    const name = definition.name?.value ?? "the operation";
    if (deepest > limits.maxDepth) {
      errors.push(
        new GraphQLError(`${name} nests deeper than ${limits.maxDepth} levels`, {
          nodes: definition,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        }),
      );
    }
    if (aliases > limits.maxAliases) {
      errors.push(
        new GraphQLError(`${name} has more than ${limits.maxAliases} aliases`, {
          nodes: definition,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        }),
      );
    }
    if (fields > limits.maxFields) {
      errors.push(
        new GraphQLError(`${name} makes more than ${limits.maxFields} selections`, {
          nodes: definition,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        }),
      );
    }
    if (introspects && !introspection) {
      errors.push(
        new GraphQLError("Introspection is disabled", {
          nodes: definition,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        }),
      );
    }
  }
  return errors;
}
