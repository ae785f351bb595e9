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
 * A stream (a leaf tagged `streaming`) is not cut while it is healthy: there
 * the deadline bounds the wait for the response headers, and `idleMs`, when
 * set, the longest silence between two chunks of the stream.
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
  /**
   * For a stream: the longest gap between two chunks in milliseconds, then
   * the stream fails with a `TimeoutError` and the request is aborted. Server
   * heartbeats count as chunks. Default none.
   */
  readonly idleMs?: number;
}

/**
 * Aborts a request that takes longer than its deadline: the call's
 * `options.timeout` when set (0 turns the client's off for that call), else
 * the client's `ms`.
 *
 * The deadline is a signal, `AbortSignal.any([request.signal, AbortSignal.timeout(ms)])`,
 * handed to the next sender in a copy of the request; it keeps running while
 * the client reads the response body, so it bounds the whole exchange. For a
 * streaming leaf it stops when the headers arrive (see `idleMs`). The
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
 * import type { CallOptions } from "@ramify/api/client";
 * import { timeout } from "@ramify/api/http/extensions/timeout";
 *
 * const extension = timeout({ ms: 2_000 });
 * const slowReport: CallOptions = { timeout: 30_000 };
 * ```
 */
export function timeout(options: TimeoutOptions = {}): ClientExtension {
  checkMs(options.ms);
  checkMs(options.idleMs);
  return {
    name: "timeout",
    wrap: (next) => (request) => {
      const ms = request.options.timeout ?? options.ms;
      try {
        checkMs(ms);
      } catch (error) {
        return Promise.reject(error);
      }
      const bounded = ms !== undefined && ms !== 0 && ms !== Infinity;
      if (request.operation.tags.streaming === true) {
        return sendStream(next, request, bounded ? ms : undefined, options.idleMs);
      }
      if (!bounded) return next(request);
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

function timedOut(ms: number): DOMException {
  return new DOMException(`The request timed out after ${ms} ms`, "TimeoutError");
}

/**
 * A stream's request: the deadline ends with the headers, and the body may
 * then go quiet for at most `idleMs` at a time.
 */
async function sendStream(
  next: Send,
  request: ClientRequest,
  ms: number | undefined,
  idleMs: number | undefined,
): Promise<Response> {
  const deadline = new AbortController();
  const signal = request.signal === undefined
    ? deadline.signal
    : AbortSignal.any([request.signal, deadline.signal]);
  const timer = ms === undefined ? undefined : setTimeout(() => deadline.abort(timedOut(ms)), ms);
  let response: Response;
  try {
    response = await sendUntilAborted(next, { ...request, signal }, signal);
  } finally {
    clearTimeout(timer);
  }
  if (idleMs === undefined || idleMs === 0 || idleMs === Infinity || response.body === null) {
    return response;
  }
  return new Response(quietLimited(response.body, idleMs, deadline), response);
}

/** The body, failing with a `TimeoutError` (and aborting the request) after `idleMs` of silence. */
function quietLimited(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  deadline: AbortController,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const quiet = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(idleMs)), idleMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), quiet]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        deadline.abort(error);
        reader.cancel(error).catch(() => {});
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
