/**
 * The `retry` client extension: sends a request again when the failure looks
 * transient (a network error, a timed-out attempt, or a status such as 503),
 * waiting an exponentially growing, fully jittered delay between attempts, or
 * what the server asked for with `Retry-After`.
 *
 * It belongs first (outermost) in the documented order, so every attempt runs
 * through the rest of the chain afresh (its own timeout, interceptors and log
 * lines):
 *
 * ```
 * extensions: [retry(), timeout(), interceptors(...), logging()]
 * ```
 *
 * Only operations safe to repeat are retried by default: those tagged
 * `readOnly` or `idempotent` in the tree, and those that take an
 * `Idempotency-Key` (`meta.http.idempotencyKey`: a POST, say), to which it
 * sends one generated key on every attempt of a call, so that the server runs
 * the call once and answers a retry with the first answer. A call whose
 * signal is aborted is never retried.
 *
 * @example
 * ```ts
 * import { retry } from "@ramify/api/http/extensions/retry";
 * import { timeout } from "@ramify/api/http/extensions/timeout";
 *
 * const extensions = [retry({ attempts: 4 }), timeout({ ms: 5_000 })];
 * ```
 *
 * @module
 */

import { delay } from "../../tree/deadline.ts";
import type { ClientExtension, ClientRequest } from "../extension.ts";

/**
 * Options of {@linkcode retry}.
 *
 * @example
 * ```ts
 * import type { RetryOptions } from "@ramify/api/http/extensions/retry";
 *
 * const options: RetryOptions = {
 *   attempts: 5,
 *   baseDelay: 200,
 *   maxDelay: 30_000,
 *   statuses: [429, 503],
 *   when: (request) => request.method !== "POST",
 * };
 * ```
 */
export interface RetryOptions {
  /** Total number of tries, the first included (a positive integer; default 3). */
  readonly attempts?: number;
  /** Milliseconds of the first backoff ceiling; it doubles per attempt (default 100). */
  readonly baseDelay?: number;
  /** Upper bound of any delay, `Retry-After` included, in milliseconds (default 10 000). */
  readonly maxDelay?: number;
  /** Response statuses worth retrying (default 408, 425, 429, 500, 502, 503, 504). */
  readonly statuses?: readonly number[];
  /**
   * Whether this request may be sent again. Replaces the default, which allows
   * operations tagged `readOnly` or `idempotent`, and those that take an
   * `Idempotency-Key` when the request carries one.
   */
  readonly when?: (request: ClientRequest) => boolean;
  /**
   * Waits `ms` milliseconds; must reject with the signal's reason when it aborts
   * (injectable for tests; default a timer).
   */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** A number in [0, 1) for the jitter (injectable for tests; default `Math.random`). */
  readonly random?: () => number;
  /** The current time in epoch milliseconds, to read a `Retry-After` date (default `Date.now`). */
  readonly now?: () => number;
}

const DEFAULT_STATUSES: readonly number[] = [408, 425, 429, 500, 502, 503, 504];

/**
 * Retries transient failures of operations safe to repeat.
 *
 * To an operation that takes an `Idempotency-Key` (the client's manifest says
 * which), a call without one of its own (in `headers`) is sent with a new key
 * (`crypto.randomUUID()`, as the draft's quoted string), the same on every
 * attempt; such a call is retried as the others, and also on a `409` with
 * `Retry-After` (the key's first request still running on the server).
 *
 * An attempt is retried when the request is allowed (`when`), attempts remain,
 * the caller has not aborted, and either the response status is one of
 * `statuses` or sending rejected with a `TypeError` (network failure) or a
 * `DOMException` named `TimeoutError` (an inner `timeout()` fired). An
 * `AbortError` is never retried. Before retry number `n` (from 1) it waits
 * `random() * min(maxDelay, baseDelay * 2 ** (n - 1))` ms ("full jitter"), or
 * the response's `Retry-After` (seconds or an HTTP date) capped by `maxDelay`.
 * The body of a response about to be retried is cancelled, releasing its
 * connection. When the attempts run out, the last response is returned (the
 * client turns it into a `ClientError`) or the last error is rethrown.
 *
 * Each attempt is sent as a fresh copy of the request (its own `Headers`), so
 * changes made by inner extensions to one attempt do not pile up in the next.
 *
 * @param options the attempts, delays, statuses and policy
 * @returns the extension
 * @throws {RangeError} when `attempts` is not a positive integer, or a delay is negative
 *
 * @example Retrying a POST that takes an idempotency key
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { createClient, createFetch } from "@ramify/api/http";
 * import { retry } from "@ramify/api/http/extensions/retry";
 *
 * const tree = api({
 *   pay: op(() => ({ paid: true }), http.post, { http: { idempotencyKey: "required" } }),
 * });
 * const client = createClient(tree, { fetch: createFetch(tree), extensions: [retry()] });
 * console.log(await client.pay()); // { paid: true }, the key sent on every attempt
 * ```
 *
 * @example Retrying no POST at all
 * ```ts
 * import { retry } from "@ramify/api/http/extensions/retry";
 *
 * const extension = retry({ attempts: 5, when: (request) => request.method !== "POST" });
 * ```
 */
export function retry(options: RetryOptions = {}): ClientExtension {
  const attempts = options.attempts ?? 3;
  const baseDelay = options.baseDelay ?? 100;
  const maxDelay = options.maxDelay ?? 10_000;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new RangeError(`retry: attempts must be a positive integer, got ${attempts}`);
  }
  if (!(baseDelay >= 0) || !(maxDelay >= 0)) {
    throw new RangeError("retry: baseDelay and maxDelay must be non-negative");
  }
  const statuses = new Set(options.statuses ?? DEFAULT_STATUSES);
  const when = options.when ?? isSafeToRepeat;
  const sleep = options.sleep ?? delay;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  return {
    name: "retry",
    wrap: (next) => async (request) => {
      const keyed = request.operation.idempotencyKey !== undefined;
      if (keyed && !request.headers.has(KEY)) {
        request.headers.set(KEY, `"${crypto.randomUUID()}"`);
      }
      if (attempts === 1 || !when(request)) return next(request);
      for (let attempt = 1;; attempt++) {
        const last = attempt === attempts;
        let delay: number;
        try {
          // Each attempt sends headers of its own, which an inner extension may change.
          const response = await next({ ...request, headers: new Headers(request.headers) });
          if (last || aborted(request) || !retried(response, keyed)) return response;
          delay = retryAfter(response.headers.get("retry-after"), now()) ??
            backoff(attempt);
          // Nobody will read this body; cancelling frees the connection now.
          response.body?.cancel().catch(() => {});
        } catch (error) {
          if (last || aborted(request) || !isTransient(error)) throw error;
          delay = backoff(attempt);
        }
        await sleep(Math.min(delay, maxDelay), signalOf(request));
        // A sleep that ignores its signal must still not lead to another attempt.
        throwIfAborted(request);
      }
    },
  };

  function retried(response: Response, keyed: boolean): boolean {
    return statuses.has(response.status) ||
      (keyed && response.status === 409 && response.headers.has("retry-after"));
  }

  function backoff(attempt: number): number {
    return random() * Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
  }
}

/** The default policy: only what the tree says can be repeated without harm. */
function isSafeToRepeat(request: ClientRequest): boolean {
  const { tags, idempotencyKey } = request.operation;
  return tags.readOnly === true || tags.idempotent === true ||
    (idempotencyKey !== undefined && request.headers.has(KEY));
}

const KEY = "idempotency-key";

// Both signals count: the caller's, and the one the request is sent with
// (they differ when an outer extension combined the caller's with its own).
function aborted(request: ClientRequest): boolean {
  return request.options.signal?.aborted === true || request.signal?.aborted === true;
}

/** One signal that aborts with either of the request's. */
function signalOf(request: ClientRequest): AbortSignal | undefined {
  const own = request.options.signal;
  const sent = request.signal;
  if (own === undefined || sent === undefined || own === sent) return own ?? sent;
  return AbortSignal.any([own, sent]);
}

function throwIfAborted(request: ClientRequest): void {
  request.options.signal?.throwIfAborted();
  request.signal?.throwIfAborted();
}

/** A network failure, or an attempt cut short by an inner timeout. */
function isTransient(error: unknown): boolean {
  return error instanceof TypeError ||
    (error instanceof DOMException && error.name === "TimeoutError");
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined if absent or invalid. */
function retryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
