/**
 * Rate limiting, once for every surface: a {@linkcode RateLimiter} decides per
 * key (a client's address, a token), and each server given one (`createFetch`,
 * `createHttpGraphQLServer`, `createMcpHandler`) answers `429 Too Many
 * Requests` with `Retry-After` when it says no. {@linkcode tokenBucket} is an
 * in-memory limiter for one process.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, tokenBucket } from "@ramify/api/http";
 *
 * const handler = createFetch(api({ ping: op(() => "pong") }), {
 *   rateLimit: {
 *     limiter: tokenBucket({ capacity: 20, refillPerSecond: 5 }),
 *     key: (request) => request.headers.get("authorization") ?? "anonymous",
 *   },
 * });
 * ```
 *
 * @module
 */

/**
 * Decides whether a key may make one more request.
 *
 * @example
 * ```ts
 * import type { RateLimiter } from "@ramify/api/http";
 *
 * const never: RateLimiter = { take: () => 60_000 };
 * ```
 */
export interface RateLimiter {
  /** Takes one request for `key`: `undefined` when allowed, else the milliseconds to wait. */
  take(key: string): number | undefined | Promise<number | undefined>;
}

/**
 * A server's rate limit: the limiter, and which key a request counts against.
 *
 * @example
 * ```ts
 * import { type RateLimit, tokenBucket } from "@ramify/api/http";
 *
 * const limit: RateLimit = { limiter: tokenBucket({ capacity: 10, refillPerSecond: 1 }) };
 * ```
 */
export interface RateLimit {
  readonly limiter: RateLimiter;
  /**
   * The key a request counts against. Default: one key for every request (a
   * limit on the whole server). A `Request` does not carry the client's
   * address: key by a token, or by `x-forwarded-for` behind a proxy you trust.
   */
  readonly key?: (request: Request) => string;
}

/**
 * Options of {@linkcode tokenBucket}.
 *
 * @example
 * ```ts
 * import type { TokenBucketOptions } from "@ramify/api/http";
 *
 * const opts: TokenBucketOptions = { capacity: 100, refillPerSecond: 10 };
 * ```
 */
export interface TokenBucketOptions {
  /** Requests a key may make at once, a burst. */
  readonly capacity: number;
  /** Requests a key earns back each second. */
  readonly refillPerSecond: number;
  /** Keys remembered at most; past it the least recently seen are forgotten. Default 10,000. */
  readonly maxKeys?: number;
  /** A millisecond clock (injectable for tests). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * An in-memory token bucket per key: `capacity` requests at once, refilled at
 * `refillPerSecond`.
 *
 * @example
 * ```ts
 * import { tokenBucket } from "@ramify/api/http";
 *
 * const limiter = tokenBucket({ capacity: 2, refillPerSecond: 1 });
 * console.log(limiter.take("a"), limiter.take("a"), limiter.take("a") !== undefined); // undefined undefined true
 * ```
 */
export function tokenBucket(opts: TokenBucketOptions): RateLimiter {
  const { capacity, refillPerSecond } = opts;
  if (!(capacity >= 1) || !(refillPerSecond > 0)) {
    throw new RangeError("tokenBucket: capacity must be at least 1 and refillPerSecond above 0");
  }
  const maxKeys = opts.maxKeys ?? 10_000;
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: capacity, at: time };
      bucket.tokens = Math.min(
        capacity,
        bucket.tokens + (time - bucket.at) / 1000 * refillPerSecond,
      );
      bucket.at = time;
      // Most recently seen last: the first key is the one to forget.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.ceil((1 - bucket.tokens) / refillPerSecond * 1000);
    },
  };
}

/**
 * The milliseconds a request must wait, or `undefined` when it may go on.
 * Servers call it only when they have a limit: a request pays nothing otherwise.
 */
export function rateLimited(
  limit: RateLimit,
  request: Request,
): number | undefined | Promise<number | undefined> {
  return limit.limiter.take(limit.key?.(request) ?? "*");
}

/** `Retry-After` in whole seconds, at least 1. */
export function retryAfter(waitMs: number): string {
  return String(Math.max(1, Math.ceil(waitMs / 1000)));
}
