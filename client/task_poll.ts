/**
 * How the clients wait for a task: read it, and while it runs pause with
 * backoff (50 ms, doubling up to 2 s) before reading again. The one schedule
 * of the HTTP client, the GraphQL client and the generated module (which is
 * written with these values).
 *
 * @example
 * ```ts
 * import { pollTask } from "./task_poll.ts";
 *
 * let reads = 0;
 * const value = await pollTask(() => Promise.resolve(++reads < 3 ? undefined : { value: "done" }));
 * console.log(value, reads); // "done" 3
 * ```
 *
 * @module
 */

import { delay } from "../tree/deadline.ts";

/**
 * The pauses between two reads of a task, in milliseconds: the first, then
 * doubled up to the longest.
 *
 * @example
 * ```ts
 * import { TASK_POLL_MS } from "./task_poll.ts";
 *
 * console.log(TASK_POLL_MS.first, TASK_POLL_MS.longest); // 50 2000
 * ```
 */
export const TASK_POLL_MS: { readonly first: number; readonly longest: number } = {
  first: 50,
  longest: 2_000,
};

/**
 * Calls `read` until it gives the task's outcome (`{ value }`; `undefined`
 * while it runs; a failure it throws), pausing by {@linkcode TASK_POLL_MS}
 * between reads. An abort of `signal` ends the wait with its reason.
 *
 * @example
 * ```ts
 * import { pollTask } from "./task_poll.ts";
 *
 * console.log(await pollTask(() => Promise.resolve({ value: 1 }))); // 1
 * ```
 */
export async function pollTask<T>(
  read: () => Promise<{ readonly value: T } | undefined>,
  signal?: AbortSignal,
): Promise<T> {
  let pause = TASK_POLL_MS.first;
  for (;;) {
    signal?.throwIfAborted();
    const outcome = await read();
    if (outcome !== undefined) return outcome.value;
    await delay(pause, signal);
    pause = Math.min(pause * 2, TASK_POLL_MS.longest);
  }
}
