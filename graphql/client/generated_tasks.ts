/**
 * What a client module from `generateGraphQLClient` calls for a long-running
 * field (a leaf tagged `longRunning`, whose mutation answers a `Task`): it
 * sends the mutation, then hands the task to the typed client's own task code
 * (`task(id)` read with the same backoff, `cancelTask(id)`, the same
 * `TaskHandle`), so that both clients wait, fail and cancel alike. The
 * generated module imports it from `@ramify/api/graphql/client`, and gives it
 * its own transport and error class.
 *
 * @example
 * ```ts
 * import { longRunningCall } from "@ramify/api/graphql/client";
 *
 * const transport = {
 *   request: () => Promise.resolve({ data: { catalogReindex: null }, errors: [{ message: "Locked" }] }),
 * };
 * const failed = await longRunningCall({
 *   transport,
 *   operation: { query: "mutation CatalogReindex { catalogReindex { id } }", operationName: "CatalogReindex", variables: {} },
 *   path: ["catalogReindex"],
 *   voidResult: false,
 *   errors: [],
 *   error: (errors) => new Error(errors[0].message),
 * }).catch((error: Error) => error.message);
 * console.log(failed); // "Locked"
 * ```
 *
 * @module
 */

import type { GraphQLFormattedError } from "graphql";
import type { TaskHandle } from "../../http/client/client_types.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import type { GraphQLOperation, GraphQLResponse } from "./remote.ts";
import { type GraphQLTask, type GraphQLTaskIo, taskAnswer } from "./_tasks.ts";

/**
 * What a generated module gives {@linkcode longRunningCall}: how it reaches
 * the server, the mutation that starts the task, and how it makes its errors.
 *
 * @example
 * ```ts
 * import type { LongRunningCallInit } from "@ramify/api/graphql/client";
 *
 * const init: LongRunningCallInit = {
 *   transport: { request: () => Promise.resolve({ data: null }) },
 *   operation: { query: "mutation Reindex { reindex { id } }", operationName: "Reindex", variables: {} },
 *   path: ["reindex"],
 *   voidResult: false,
 *   errors: ["LOCKED"],
 *   error: (errors) => new Error(errors.map((error) => error.message).join("; ")),
 * };
 * ```
 */
export interface LongRunningCallInit {
  /** The module's transport; only `request` is used (a task is read by queries). */
  readonly transport: { request(operation: GraphQLOperation): Promise<GraphQLResponse> };
  /** The mutation that starts the task. */
  readonly operation: GraphQLOperation;
  /** Where the field's `Task` sits in the response's `data`. */
  readonly path: readonly string[];
  /** Whether the leaf's output is void: its result is then `undefined`. */
  readonly voidResult: boolean;
  /** The codes the leaf declares (`meta.errors`), so that a declared failure keeps its `code`. */
  readonly errors: readonly string[];
  /**
   * The module's own error for a response's errors, so that its `safeGraphQL`
   * and `instanceof` know it: `new GraphQLClientError(errors, data, declared)`.
   */
  readonly error: (
    errors: readonly GraphQLFormattedError[],
    data: GraphQLResponse["data"],
    declared: readonly string[],
  ) => Error;
}

/**
 * The options of a generated long-running call.
 *
 * @example
 * ```ts
 * import type { LongRunningCallOptions } from "@ramify/api/graphql/client";
 *
 * const detached: LongRunningCallOptions = { async: true };
 * const bounded: LongRunningCallOptions = { signal: AbortSignal.timeout(60_000) };
 * ```
 */
export type LongRunningCallOptions = {
  /** Stops the wait for the result, and cancels the task. */
  readonly signal?: AbortSignal;
  /** `true` resolves at once with the task's `TaskHandle` instead of its result. */
  readonly async?: boolean;
};

/**
 * Starts a long-running field's task: resolves with its result once it ends
 * (read through `task(id)` with backoff) or rejects with `init.error` of its
 * failure (`extensions` holding its `code` and `status`); with
 * `{ async: true }` resolves at once with its `TaskHandle`. An abort of
 * `options.signal` cancels the task.
 *
 * @example
 * ```ts
 * import { longRunningCall } from "@ramify/api/graphql/client";
 *
 * // A server that answers a task already done.
 * const done = { id: "t1", status: "COMPLETED", operation: "reindex", progress: null, result: { indexed: 3 }, error: null };
 * const result = await longRunningCall({
 *   transport: { request: (operation) => Promise.resolve({ data: { [operation.operationName === "Task" ? "task" : "reindex"]: done } }) },
 *   operation: { query: "mutation Reindex { reindex { id } }", operationName: "Reindex", variables: {} },
 *   path: ["reindex"],
 *   voidResult: false,
 *   errors: [],
 *   error: (errors) => new Error(errors[0].message),
 * });
 * console.log(result); // { indexed: 3 }
 * ```
 */
export async function longRunningCall(
  init: LongRunningCallInit,
  options: LongRunningCallOptions = {},
): Promise<unknown> {
  const { transport, errors, error } = init;
  const response = await transport.request(init.operation);
  if (response.errors !== undefined && response.errors.length > 0) {
    throw error(response.errors, response.data, errors);
  }
  let first: unknown = response.data;
  for (const key of init.path) first = isPlainObject(first) ? first[key] : undefined;
  // The typed client's io (graphql/client/remote.ts), with the module's error class.
  const io: GraphQLTaskIo = {
    async send(query, operationName, field, variables) {
      const read = await transport.request({ query, operationName, variables });
      if (read.errors !== undefined && read.errors.length > 0) {
        throw error(read.errors, read.data, []);
      }
      return read.data?.[field] as GraphQLTask;
    },
    fail: ({ status, code, message }) =>
      error([{ message, extensions: { code, status } }], null, errors),
    // No schemas at run time: the result is the JSON the task holds, as other results are.
    revive: (value) => init.voidResult ? undefined : value,
  };
  const signal = options.signal;
  if (options.async !== true && signal?.aborted === true) {
    // The transport takes no signal, so the start may finish after the abort:
    // its task is cancelled then, as it would have been while awaited.
    const handle = await taskAnswer(first as GraphQLTask, { async: true }, io) as TaskHandle<
      unknown,
      unknown
    >;
    await handle.cancel().catch(() => {});
    throw signal.reason;
  }
  return await taskAnswer(first as GraphQLTask, options, io);
}
