// The compiled execution path of `createGraphQLServer`: each document's
// operations compiled once (`_plan.ts`) and kept beside the document (a weak
// map: a plan lives as long as its document, whom the document cache bounds),
// run by `_execute.ts`. Whatever no plan covers is left to graphql-js
// `execute`, counted in `stats.fallback`.

import {
  type DocumentNode,
  type ExecutionResult,
  getVariableValues,
  type GraphQLSchema,
} from "graphql";
import type { HandlerContext } from "../../tree/node.ts";
import { compileOperation, type OperationPlan, type VariableValues } from "./_plan.ts";
import { executePlan } from "./_execute.ts";

/**
 * What a GraphQL server has done: how its queries and mutations ran (by a
 * compiled plan, or by graphql-js `execute`, the fallback, for what the
 * compiler does not cover), counted since it was built, and what its document
 * cache holds now. Read live.
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
  /** Operations run by graphql-js `execute`: what the compiler does not cover. */
  readonly fallback: number;
  /** Documents in the cache (each with its plans). */
  readonly documents: number;
  /** Their estimated memory, in bytes: what `documentCacheBytes` bounds. */
  readonly documentBytes: number;
}

/** What of a request the executor reads (the server's `GraphQLRequest` has it). */
interface RequestParts {
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

/** Counts that the server alone changes. */
interface Counts {
  compiled: number;
  fallback: number;
}

const NO_PLAN = null;

/** The compiled executor of a schema; `execute` gives `undefined` when graphql-js must run it. */
export function compiledExecutor(
  schema: GraphQLSchema,
  finish: (result: ExecutionResult) => ExecutionResult,
  cancelled: (reason: unknown, context: HandlerContext) => ExecutionResult,
): {
  readonly stats: Counts;
  execute(
    document: DocumentNode,
    request: RequestParts,
    context: HandlerContext,
  ): Promise<ExecutionResult> | undefined;
} {
  const stats: Counts = { compiled: 0, fallback: 0 };
  const plans = new WeakMap<DocumentNode, Map<string, OperationPlan | typeof NO_PLAN>>();
  const planOf = (document: DocumentNode, operationName: string | undefined) => {
    let byName = plans.get(document);
    if (byName === undefined) plans.set(document, byName = new Map());
    const key = operationName ?? "";
    let plan = byName.get(key);
    if (plan === undefined) {
      plan = compileOperation(schema, document, operationName) ?? NO_PLAN;
      // Names a client makes up must not grow the map: only a found operation's plan is kept.
      if (plan !== NO_PLAN || byName.size === 0) byName.set(key, plan);
    }
    return plan;
  };
  return {
    stats,
    execute(document, request, context) {
      const plan = planOf(document, request.operationName ?? undefined);
      if (plan === NO_PLAN) return undefined;
      let variables: VariableValues | undefined;
      if (plan.variables.length > 0) {
        const coerced = getVariableValues(schema, plan.variables, request.variables ?? {}, {
          maxErrors: 50,
        });
        if (coerced.errors !== undefined) {
          stats.compiled++;
          return Promise.resolve(finish({ errors: coerced.errors }));
        }
        variables = coerced.variableValues;
      }
      const root = plan.rootFor(variables);
      if (root === undefined) return undefined;
      stats.compiled++;
      const result = executePlan(root, context, variables);
      if (!(result instanceof Promise)) return Promise.resolve(finish(result));
      // Read only now: a request's signal costs microseconds to make, and a plan
      // that answered at once has nothing left to stop.
      const signal = context.signal;
      if (signal === undefined) return result.then(finish);
      if (signal.aborted) return Promise.resolve(cancelled(signal.reason, context));
      // As graphql-js with an abort signal: a caller that goes away ends the wait at once.
      return new Promise((resolve, reject) => {
        const abort = () => resolve(cancelled(signal.reason, context));
        signal.addEventListener("abort", abort, { once: true });
        result.then((value) => {
          signal.removeEventListener("abort", abort);
          resolve(signal.aborted ? cancelled(signal.reason, context) : finish(value));
        }, (error) => {
          signal.removeEventListener("abort", abort);
          reject(error);
        });
      });
    },
  };
}
