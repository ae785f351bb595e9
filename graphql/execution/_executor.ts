// The one seam between a GraphQL server (server.ts) and what runs its
// documents: an `Executor` takes a validated document, the request's variables
// and operation name, and the handlers' context, to a result (queries and
// mutations) or a stream of results (subscriptions). Results come back as the
// engine made them; the server masks them (results.ts). Two executors stand
// behind it, chosen by the server's `executor` option: the compiled one
// (`_compiled.ts`, the default) and graphql-js's own `execute` and `subscribe`
// (here), which the compiled one falls back to and answers like.

import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  type GraphQLSchema,
  subscribe,
} from "graphql";
import type { HandlerContext } from "../../tree/node.ts";

/** What of a request an executor reads besides its document (a `GraphQLRequest` has it). */
export interface ExecutionParts {
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

/** Runs validated documents of one schema. */
export interface Executor {
  /** Runs a query or mutation: its result, or a promise of it. */
  execute(
    document: DocumentNode,
    request: ExecutionParts,
    context: HandlerContext,
  ): ExecutionResult | Promise<ExecutionResult>;
  /** Starts a subscription: a stream of results, or one result with errors. */
  subscribe(
    document: DocumentNode,
    request: ExecutionParts,
    context: HandlerContext,
  ): Promise<AsyncIterable<ExecutionResult> | ExecutionResult>;
}

/** How the server's operations ran, counted by the executors (`GraphQLServerStats`). */
export interface ExecutionCounts {
  compiled: number;
  fallback: number;
}

/** What an executor is built over: the schema (built on first use) and the server's answers. */
export interface ExecutorBase {
  readonly schemaOf: () => GraphQLSchema;
  /** The result of an operation stopped because its caller went away. */
  readonly cancelled: (reason: unknown, context: HandlerContext) => ExecutionResult;
  readonly counts: ExecutionCounts;
}

/** graphql-js's `execute` and `subscribe`, each operation counted as `fallback`. */
export function graphqlJsExecutor({ schemaOf, cancelled, counts }: ExecutorBase): Executor {
  const args = (document: DocumentNode, request: ExecutionParts, context: HandlerContext) => ({
    schema: schemaOf(),
    document,
    variableValues: request.variables ?? undefined,
    operationName: request.operationName ?? undefined,
    contextValue: context,
  });
  return {
    async execute(document, request, context) {
      counts.fallback++;
      try {
        // The caller's signal: graphql 17 stops executing when it aborts (graphql 16 ignores it).
        return await execute({ ...args(document, request, context), abortSignal: context.signal });
      } catch (error) {
        // Stopped because the caller went away: nobody waits for an answer, nothing crashed.
        if (context.signal?.aborted !== true) throw error;
        return cancelled(error, context);
      }
    },
    async subscribe(document, request, context) {
      return await subscribe(args(document, request, context));
    },
  };
}
