/**
 * Running a prepared call on behalf of a caller: the one place that combines
 * the caller's signal with the leaf's deadline (`timeoutMs`, the same option
 * on every server), and turns an abort into what it means: `Cancelled` when
 * the caller went away, `TimedOut` when the deadline passed. Every surface
 * calls leaves through here and renders what `classify` makes of a failure.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall, runCall } from "@ramify/api/tree/catalogue";
 *
 * const slow = createCall(op((_input, ctx) =>
 *   new Promise((_resolve, reject) => ctx.signal?.addEventListener("abort", () => reject(ctx.signal?.reason)))
 * ));
 * try {
 *   await runCall(slow, {}, {}, 10);
 * } catch (error) {
 *   console.log((error as Error).name); // "TimedOut"
 * }
 * ```
 *
 * @module
 */

import type { LeafCall } from "./call.ts";
import { extended } from "./context.ts";
import { Cancelled, classify, type Failure, TimedOut } from "./failure.ts";
import type { HandlerContext } from "./node.ts";

/** Calls this process has run. */
let runs = 0;

/**
 * How many calls this process has run: the architecture test holds every
 * surface to one per call (engine/engine.ts's `engineCounts`). Internal, not
 * exported by any subpath.
 *
 * @example
 * ```ts
 * import { timesRun } from "./run.ts";
 *
 * console.log(timesRun() >= 0); // true
 * ```
 */
export function timesRun(): number {
  return runs;
}

/**
 * Calls `call` with `input` and `context` (whose `signal` is the caller's),
 * within `timeoutMs` when given: the handler then sees a signal that aborts on
 * either. A value given at once is returned at once (no promise); a failure
 * is thrown or rejected as `classify` expects.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall, runCall } from "@ramify/api/tree/catalogue";
 *
 * console.log(await runCall(createCall(op(() => "pong")), {}, {})); // "pong"
 * ```
 */
export function runCall(
  call: LeafCall,
  input: unknown,
  context: HandlerContext,
  timeoutMs?: number,
): unknown {
  runs++;
  if (timeoutMs === undefined || timeoutMs === Infinity) {
    let result: unknown;
    try {
      result = call(input, context);
    } catch (error) {
      throw meaningOf(error, context);
    }
    return result instanceof Promise
      ? result.catch((error) => {
        throw meaningOf(error, context);
      })
      : result;
  }
  return within(call, input, context, timeoutMs);
}

function within(
  call: LeafCall,
  input: unknown,
  context: HandlerContext,
  ms: number,
): Promise<unknown> {
  const deadline = new AbortController();
  const caller = context.signal;
  const signal = caller === undefined
    ? deadline.signal
    : AbortSignal.any([caller, deadline.signal]);
  const timed = extended(context, { signal });
  return new Promise((resolve, reject) => {
    let settled = false;
    // A timer of its own: a handler stuck waiting on its signal must still see the deadline.
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      deadline.abort(new DOMException("The operation timed out", "TimeoutError"));
      reject(new TimedOut(ms));
    }, ms);
    Promise.resolve().then(() => call(input, timed)).then(
      (value) => {
        clearTimeout(timer);
        if (!settled) resolve(value);
        settled = true;
      },
      (error) => {
        clearTimeout(timer);
        if (!settled) reject(meaningOf(error, context));
        settled = true;
      },
    );
  });
}

/**
 * What a failure of a call made for `context` is: `classify` of the thrown
 * value, an abort counted as the caller's cancellation when the caller's
 * signal is aborted. Surfaces use it for failures `runCall` did not see (a
 * stream's items, which fail after the call has returned).
 *
 * @example
 * ```ts
 * import { failureOf } from "@ramify/api/tree/catalogue";
 *
 * const gone = AbortSignal.abort();
 * console.log(failureOf(new DOMException("gone", "AbortError"), { signal: gone }).kind); // "cancelled"
 * console.log(failureOf(new DOMException("cut", "AbortError"), {}).kind); // "fault"
 * ```
 */
export function failureOf(error: unknown, context: HandlerContext = {}): Failure {
  return classify(meaningOf(error, context));
}

/** An abort while the caller's signal is aborted is the caller's cancellation; anything else stays. */
function meaningOf(error: unknown, context: HandlerContext): unknown {
  const signal = context.signal;
  if (signal?.aborted !== true) return error;
  // The abort itself, or whatever the caller aborted with (`signal.throwIfAborted()`).
  return isAbort(error) || error === signal.reason ? new Cancelled(error) : error;
}

/** A signal's abort (`AbortError`, `TimeoutError`), as runtimes and `fetch` throw it. */
function isAbort(error: unknown): boolean {
  return error instanceof DOMException &&
    (error.name === "AbortError" || error.name === "TimeoutError");
}
