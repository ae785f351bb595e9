/**
 * What the transports (graphql/transport/) run of a server built by
 * `createGraphQLServer`, past its public methods: its execution without the
 * promise its public `execute` always gives (a plan that answers at once
 * answers at once, and GraphQL over HTTP makes its Response in the same
 * turn), and its executor's `subscribe`, which the WebSocket transport runs
 * and masks itself. Keyed by the server, so a server made some other way (an
 * object with the same methods) runs through its own `execute`, and its
 * subscriptions through graphql-js. (Its own types, not `server.ts`'s, which
 * imports this module.)
 *
 * Internal: not a public subpath.
 *
 * @module
 */

import type { DocumentNode, ExecutionResult } from "graphql";
import type { HandlerContext } from "../../tree/node.ts";
import type { Executor } from "./_executor.ts";

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

/** Starts a subscription on a validated document: the executor's results, unmasked. */
export type DirectSubscribe = Executor["subscribe"];

const directs = new WeakMap<object, { execute: DirectExecute; subscribe: DirectSubscribe }>();

/** Registers the direct execution and the subscriptions of a server (`createGraphQLServer` does). */
export function setDirect(
  server: object,
  execute: DirectExecute,
  subscribe: DirectSubscribe,
): void {
  directs.set(server, { execute, subscribe });
}

/** The direct execution of a server, else its `execute`. */
export function directOf(
  server: { execute(request: DirectRequest): Promise<ExecutionResult> },
): DirectExecute {
  return directs.get(server)?.execute ?? ((request) => server.execute(request));
}

/** The subscriptions of a server `createGraphQLServer` built; `undefined` for any other. */
export function subscriptionsOf(server: object): DirectSubscribe | undefined {
  return directs.get(server)?.subscribe;
}
