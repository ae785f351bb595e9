/**
 * The client's side of long-running leaves (tag `longRunning`): the server
 * answers a call `202 Accepted` with the `Location` of the task's status
 * resource. By default a client call awaits the result (it polls
 * `{Location}/result` with backoff until the task ends, and resolves or
 * rejects as the call would have); `{ async: true }` gives a
 * {@linkcode TaskHandle} at once instead.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createClient, createFetch } from "@ramify/api/http";
 *
 * const tree = api({ reindex: op(() => ({ indexed: 3 }), { tags: { longRunning: true } }) });
 * const client = createClient(tree, { fetch: createFetch(tree) });
 * console.log(await client.reindex()); // { indexed: 3 }
 * const task = await client.reindex({}, { async: true });
 * console.log((await task.result()).indexed); // 3
 * ```
 *
 * @module
 */

import type { ClientPromise } from "./client_types.ts";

/**
 * Where a task stands, as its status resource says.
 *
 * @example
 * ```ts
 * import type { TaskState } from "@ramify/api/client";
 *
 * const done = (state: TaskState) => ["completed", "failed", "cancelled"].includes(state.status);
 * ```
 */
export interface TaskState {
  /** The task's id (absent for a call the server answered at once). */
  readonly id?: string;
  /** Where it stands. */
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** The operation's label. */
  readonly operation?: string;
  /** When it started and last changed (date-time strings). */
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** The last progress its handler reported. */
  readonly progress?: { readonly done: number; readonly total?: number; readonly message?: string };
  /** Its handler's latest log lines. */
  readonly logs: readonly {
    readonly at: string;
    readonly level: string;
    readonly message: string;
    readonly data?: unknown;
  }[];
  /** What its handler asks, while `input_required`. */
  readonly question?: { readonly message: string; readonly schema: Record<string, unknown> };
  /** The problem (RFC 9457), once `failed` or `cancelled`. */
  readonly error?: {
    readonly status: number;
    readonly title: string;
    readonly detail?: string;
    readonly code?: string;
  };
}

/**
 * A long-running call's handle, from a call with `{ async: true }`.
 *
 * @example
 * ```ts
 * import type { TaskHandle } from "@ramify/api/client";
 *
 * async function report(task: TaskHandle<{ indexed: number }, Record<never, never>>) {
 *   console.log((await task.status()).progress?.done);
 *   return (await task.result()).indexed;
 * }
 * ```
 */
export interface TaskHandle<T, D> {
  /** The task's id; undefined when the server answered the call at once (no task). */
  readonly id: string | undefined;
  /** Its status resource's URL; undefined likewise. */
  readonly location: string | undefined;
  /** Where it stands now. */
  status(): Promise<TaskState>;
  /**
   * Its result once it ends (polling with backoff): resolves or rejects with
   * a `ClientError` as the call itself would have.
   */
  result(): ClientPromise<T, D>;
  /** Cancels it (its handler's signal aborts); where it stands after. */
  cancel(): Promise<TaskState>;
}
