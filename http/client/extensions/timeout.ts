/**
 * The `timeout` client extension: gives each request a deadline, after which it
 * rejects with a `DOMException` named `TimeoutError` (not `AbortError`, so a
 * timeout and the caller's own abort stay distinguishable).
 *
 * It sits right inside `retry()` in the documented order, so every attempt gets
 * a deadline of its own and a timed-out attempt can be retried:
 *
 * ```
 * extensions: [retry(), timeout(), interceptors(...), logging()]
 * ```
 *
 * Placed before `retry()` instead, it bounds the whole call, retries and waits
 * included.
 *
 * @example
 * ```ts
 * import { timeout } from "@ramify/api/http/extensions/timeout";
 *
 * const extensions = [timeout({ ms: 5_000 })];
 * // per call: client.books.list({}, { timeout: 500 })
 * ```
 *
 * @module
 */

import type { ClientExtension, ClientRequest, Send } from "../extension.ts";

/**
 * Options of {@linkcode timeout}.
 *
 * @example
 * ```ts
 * import type { TimeoutOptions } from "@ramify/api/http/extensions/timeout";
 *
 * const options: TimeoutOptions = { ms: 10_000 };
 * ```
 */
export interface TimeoutOptions {
  /**
   * The client's deadline per request in milliseconds. Absent, 0 or `Infinity`
   * mean none.
   */
  readonly ms?: number;
}

/**
 * Aborts a request that takes longer than its deadline: the call's
 * `options.timeout` when set (0 turns the client's off for that call), else
 * the client's `ms`.
 *
 * The deadline is a signal, `AbortSignal.any([request.signal, AbortSignal.timeout(ms)])`,
 * handed to the next sender in a copy of the request; it keeps running while
 * the client reads the response body, so it bounds the whole exchange. The
 * returned promise also rejects at the deadline even if an inner sender
 * ignores the signal (the late response's body is then cancelled). When the
 * caller aborts first, the rejection is the caller's reason.
 *
 * @param options the client's deadline
 * @returns the extension
 * @throws {RangeError} when `ms` is negative or not a number (a per-call
 * value of that kind rejects the call with the same error)
 *
 * @example A client deadline with a longer one for one call
 * ```ts
 * import type { CallOptions } from "@ramify/api/http";
 * import { timeout } from "@ramify/api/http/extensions/timeout";
 *
 * const extension = timeout({ ms: 2_000 });
 * const slowReport: CallOptions = { timeout: 30_000 };
 * ```
 */
export function timeout(options: TimeoutOptions = {}): ClientExtension {
  checkMs(options.ms);
  return {
    name: "timeout",
    wrap: (next) => (request) => {
      const ms = request.options.timeout ?? options.ms;
      try {
        checkMs(ms);
      } catch (error) {
        return Promise.reject(error);
      }
      if (ms === undefined || ms === 0 || ms === Infinity) return next(request);
      const deadline = AbortSignal.timeout(ms);
      const signal = request.signal === undefined
        ? deadline
        : AbortSignal.any([request.signal, deadline]);
      return sendUntilAborted(next, { ...request, signal }, signal);
    },
  };
}

function checkMs(ms: number | undefined): void {
  if (ms !== undefined && !(ms >= 0)) {
    throw new RangeError(`timeout: ms must be a non-negative number, got ${ms}`);
  }
}

/** Sends, settling with the signal's reason as soon as it aborts, whatever `next` does. */
function sendUntilAborted(
  next: Send,
  request: ClientRequest,
  signal: AbortSignal,
): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    next(request).then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        // Already rejected by the abort: nobody will read this body.
        if (signal.aborted) response.body?.cancel().catch(() => {});
        resolve(response);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
