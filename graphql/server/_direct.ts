// The execution of a server built by `createGraphQLServer` without the promise
// its public `execute` always gives: a plan that answers at once answers at
// once, and GraphQL over HTTP makes its Response in the same turn. Keyed by the
// server, so a server made some other way (an object with the same methods)
// runs through its own `execute`. (Its own types, not `server.ts`'s, which
// imports this module.)

import type { DocumentNode, ExecutionResult } from "graphql";
import type { HandlerContext } from "../../tree/node.ts";

/** What of a `GraphQLRequest` execution reads. */
export interface DirectRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
  readonly context?: HandlerContext;
  readonly document?: DocumentNode;
}

/** Runs a request: the result, or its promise. */
export type DirectExecute = (request: DirectRequest) => ExecutionResult | Promise<ExecutionResult>;

const directs = new WeakMap<object, DirectExecute>();

/** Registers the direct execution of a server (`createGraphQLServer` does). */
export function setDirect(server: object, execute: DirectExecute): void {
  directs.set(server, execute);
}

/** The direct execution of a server, else its `execute`. */
export function directOf(
  server: { execute(request: DirectRequest): Promise<ExecutionResult> },
): DirectExecute {
  return directs.get(server) ?? ((request) => server.execute(request));
}
