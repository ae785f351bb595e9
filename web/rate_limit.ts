/**
 * Rate limiting, once for every surface: a {@linkcode RateLimiter} decides per
 * key (a client's address, a token), and the policy {@linkcode rateLimit},
 * given to any server (`serve`, `createFetch`, `createHttpGraphQLServer`,
 * `createWsHandler`, `createMcpHandler`), answers `429 Too Many Requests`
 * with `Retry-After`, in the surface's format, when it says no. A limiter that
 * tells its quota ({@linkcode RateLimiter.decide}) also has every response
 * carry the IETF `RateLimit-Policy` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers), allowed or refused.
 * {@linkcode tokenBucket} is an in-memory limiter for one process;
 * `redisRateLimiter` (`@ramify/api/redis`) holds across instances.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, rateLimit, tokenBucket } from "@ramify/api/http";
 *
 * const handler = createFetch(api({ ping: op(() => "pong") }), {
 *   policies: [rateLimit({
 *     limiter: tokenBucket({ capacity: 20, refillPerSecond: 5 }),
 *     key: (request) => request.headers.get("authorization") ?? "anonymous",
 *   })],
 * });
 * const response = await handler(new Request("http://x/ping"));
 * console.log(response.headers.get("ratelimit")); // "default";r=19;t=1
 * ```
 *
 * @module
 */

import { type Policy, withHeaders } from "./edge.ts";

/**
 * A rate limit as a request policy: each request takes one from the limiter
 * (one call) before its surface sees it; refused, it gets `429` (or `503`
 * when the limiter cannot decide) with `Retry-After`, written as its surface
 * writes refusals, and its body is left unread. Every answer carries the
 * limiter's `RateLimit-Policy` and `RateLimit` fields when it tells them.
 * Given to `serve()`, one limit counts every surface's requests.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, rateLimit, tokenBucket } from "@ramify/api/http";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   policies: [rateLimit({ limiter: tokenBucket({ capacity: 1, refillPerSecond: 1 }) })],
 * });
 * await handler(new Request("http://localhost/ping"));
 * const second = await handler(new Request("http://localhost/ping"));
 * console.log(second.status, second.headers.get("retry-after")); // 429 "1"
 * ```
 */
export function rateLimit(limit: RateLimit): Policy {
  if (typeof limit?.limiter?.take !== "function") {
    throw new TypeError(
      "rateLimit: expected { limiter, key? }, with a limiter such as tokenBucket()",
    );
  }
  return {
    name: "rateLimit",
    apply: (next, surface) => async (request) => {
      const verdict = await rateLimited(limit, request);
      const { refused, headers } = verdict;
      if (refused === undefined) return withRateHeaders(await next(request), verdict);
      // Unread: a body still arriving is not waited for (Node would hold it).
      await request.body?.cancel().catch(() => {});
      return surface.refuse({ ...refused, headers });
    },
  };
}

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
  /**
   * Takes one request for `key`, as `take` does, telling the quota too. When
   * present, servers call it instead of `take` (one call per request) and
   * answer with the `RateLimit-Policy` and `RateLimit` fields.
   */
  decide?(key: string): RateDecision | Promise<RateDecision>;
}

/**
 * A quota: `quota` requests per `windowSeconds`, named (the policy's name in
 * the `RateLimit-Policy` and `RateLimit` fields).
 *
 * @example
 * ```ts
 * import type { RatePolicy } from "@ramify/api/http";
 *
 * const perMinute: RatePolicy = { name: "default", quota: 100, windowSeconds: 60 };
 * ```
 */
export interface RatePolicy {
  /** Printable ASCII (in the fields, a quote or backslash is escaped). */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/**
 * One request's answer from a limiter that tells its quota.
 *
 * @example
 * ```ts
 * import type { RateDecision } from "@ramify/api/http";
 *
 * const refused: RateDecision = {
 *   allowed: false,
 *   waitMs: 1_500,
 *   remaining: 0,
 *   resetMs: 60_000,
 *   policy: { name: "default", quota: 100, windowSeconds: 60 },
 * };
 * ```
 */
export interface RateDecision {
  readonly allowed: boolean;
  /** Milliseconds until the key's next request would be allowed (0 while it has some left). */
  readonly waitMs: number;
  /** Requests the key may still make at once; absent when the limiter cannot tell (its store is away). */
  readonly remaining?: number;
  /** Milliseconds until the key's whole quota is back; absent with `remaining`. */
  readonly resetMs?: number;
  readonly policy?: RatePolicy;
  /**
   * Refused because the limiter could not decide (its store is away), not
   * because the key is over its quota: servers answer `503` rather than `429`.
   */
  readonly unavailable?: boolean;
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
   * The key a request counts against, or `undefined` for a request the limit
   * leaves alone (a balancer's health check, say). Default: one key for every
   * request (a limit on the whole server). A `Request` does not carry the
   * client's address: key by a token, or by `x-forwarded-for` behind a proxy
   * you trust.
   */
  readonly key?: (request: Request) => string | undefined;
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
 * `refillPerSecond`. Its policy is `capacity` requests per the seconds an
 * empty bucket takes to fill.
 *
 * @example
 * ```ts
 * import { tokenBucket } from "@ramify/api/http";
 *
 * const limiter = tokenBucket({ capacity: 2, refillPerSecond: 1 });
 * console.log(limiter.take("a"), limiter.take("a"), limiter.take("a") !== undefined); // undefined undefined true
 * console.log(limiter.decide("b")); // { allowed: true, waitMs: 0, remaining: 1, resetMs: 1000, policy: {...} }
 * ```
 */
export function tokenBucket(opts: TokenBucketOptions): Required<RateLimiter> {
  const { capacity, refillPerSecond } = opts;
  if (!(capacity >= 1) || !(refillPerSecond > 0)) {
    throw new RangeError("tokenBucket: capacity must be at least 1 and refillPerSecond above 0");
  }
  const maxKeys = opts.maxKeys ?? 10_000;
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const policy: RatePolicy = {
    name: "default",
    quota: Math.floor(capacity),
    windowSeconds: Math.max(1, Math.ceil(capacity / refillPerSecond)),
  };
  const msFor = (tokens: number) => Math.ceil(tokens / refillPerSecond * 1000);
  const decide = (key: string): RateDecision => {
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
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      waitMs: bucket.tokens >= 1 ? 0 : msFor(1 - bucket.tokens),
      remaining: Math.floor(bucket.tokens),
      resetMs: msFor(capacity - bucket.tokens),
      policy,
    };
  };
  return {
    take(key) {
      const decision = decide(key);
      return decision.allowed ? undefined : decision.waitMs;
    },
    decide,
  };
}

/**
 * What a server does with one request under its limit: the headers for its
 * response (whatever it is), and, when refused, the status and words of the
 * refusal, which each surface puts in its own shape.
 */
export interface RateVerdict {
  /** `RateLimit-Policy` and `RateLimit` when the limiter tells them, `Retry-After` on a refusal. */
  readonly headers: Readonly<Record<string, string>>;
  /** Absent when the request may go on. */
  readonly refused?: {
    /** 429, or 503 when the limiter could not decide. */
    readonly status: 429 | 503;
    readonly message: string;
    /** For GraphQL's `extensions.code`. */
    readonly code: "TOO_MANY_REQUESTS" | "SERVICE_UNAVAILABLE";
  };
}

/**
 * Takes one request from the limit (one call to the limiter) and says what
 * the response carries. Servers call it only when they have a limit: a
 * request pays nothing otherwise.
 */
export async function rateLimited(limit: RateLimit, request: Request): Promise<RateVerdict> {
  const key = limit.key === undefined ? "*" : limit.key(request);
  if (key === undefined) return UNLIMITED;
  const limiter = limit.limiter;
  if (limiter.decide !== undefined) return verdictOf(await limiter.decide(key));
  const waitMs = await limiter.take(key);
  return verdictOf(waitMs === undefined ? ALLOWED : { allowed: false, waitMs });
}

const ALLOWED: RateDecision = { allowed: true, waitMs: 0 };
const UNLIMITED: RateVerdict = { headers: {} };

/** The one place a decision becomes headers and a status. */
function verdictOf(decision: RateDecision): RateVerdict {
  const headers: Record<string, string> = {};
  const policy = decision.policy;
  if (policy !== undefined) {
    // A structured-field string: a quote or backslash in the name is escaped.
    const name = `"${policy.name.replace(/["\\]/g, "\\$&")}"`;
    headers["ratelimit-policy"] = `${name};q=${policy.quota};w=${policy.windowSeconds}`;
    const { remaining, resetMs } = decision;
    if (remaining !== undefined && resetMs !== undefined) {
      // With none left the quota stays 0 until the next request is allowed
      // (Retry-After, which must not come before the window ends); else the
      // window runs until the whole quota is back.
      const seconds = remaining > 0 ? Math.ceil(resetMs / 1000) : seconds1(decision.waitMs);
      headers["ratelimit"] = `${name};r=${remaining};t=${seconds}`;
    }
  }
  if (decision.allowed) return { headers };
  headers["retry-after"] = String(seconds1(decision.waitMs));
  return {
    headers,
    refused: decision.unavailable
      ? {
        status: 503,
        message: "The rate limit cannot be checked now; try again later",
        code: "SERVICE_UNAVAILABLE",
      }
      : { status: 429, message: "Too many requests; try again later", code: "TOO_MANY_REQUESTS" },
  };
}

/** Whole seconds, at least 1. */
function seconds1(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The response with the verdict's headers (a copy when its headers are immutable). */
export function withRateHeaders(response: Response, verdict: RateVerdict): Response {
  const entries = Object.entries(verdict.headers);
  return entries.length === 0 ? response : withHeaders(response, entries);
}
