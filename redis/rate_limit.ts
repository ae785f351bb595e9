/**
 * `redisRateLimiter()`: a rate limit that holds across every instance of an
 * app, on the Redis they share: `limit` requests per `windowMs` per key,
 * `limit` of them at once at most (the generic cell rate algorithm, GCRA: the
 * same behaviour as a token bucket of `limit` refilled over `windowMs`).
 *
 * - One round trip per request: a Lua script reads and moves the key's
 *   theoretical arrival time (TAT) atomically, so concurrent requests on any
 *   number of instances never allow more than the limit.
 * - Time is Redis's (`TIME`), not the instances': their clocks may disagree.
 * - One key per client, `<prefix>ratelimit:<name>:<client key>`, expiring when
 *   its quota is whole again. A client key over 100 characters (a client may
 *   choose it: a header) is replaced by its SHA-256, so that no client can make
 *   Redis keep big keys.
 * - When Redis cannot be asked (down, restarting, slower than `timeoutMs`),
 *   the request is allowed by default (fail open: an outage of Redis is not an
 *   outage of the API) and the error goes to `onError`;
 *   `onUnavailable: "refuse"` refuses it instead, and servers answer `503`
 *   with `Retry-After: 1` (fail closed).
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, rateLimit } from "@ramify/api/http";
 * import { connectRedis, redisRateLimiter } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * const handler = createFetch(api({ ping: op(() => "pong") }), {
 *   policies: [rateLimit({
 *     limiter: redisRateLimiter(redis, { limit: 100, windowMs: 60_000 }),
 *     key: (request) => request.headers.get("authorization") ?? "anonymous",
 *   })],
 * });
 * ```
 *
 * @module
 */

import type { RateDecision, RateLimiter, RatePolicy } from "../web/rate_limit.ts";
import type { Redis } from "./connection.ts";
import { answered } from "./_answered.ts";
import { sha256 } from "../tree/digest.ts";

/**
 * Options of {@linkcode redisRateLimiter}.
 *
 * @example
 * ```ts
 * import type { RedisRateLimiterOptions } from "@ramify/api/redis";
 *
 * const perMinute: RedisRateLimiterOptions = { limit: 100, windowMs: 60_000 };
 * const strict: RedisRateLimiterOptions = { limit: 5, windowMs: 1_000, onUnavailable: "refuse" };
 * ```
 */
export interface RedisRateLimiterOptions {
  /** Requests a key may make per window, and at once. A whole number, at least 1. */
  readonly limit: number;
  /** The window, in milliseconds: a key earns back one request every `windowMs / limit`. */
  readonly windowMs: number;
  /**
   * The policy's name: in the Redis keys (limiters of other names count
   * apart) and in the `RateLimit-Policy` and `RateLimit` fields. Letters,
   * digits, `_`, `.` and `-`. Default `"default"`.
   */
  readonly name?: string;
  /**
   * What a request gets while Redis cannot be asked: `"allow"` (the default:
   * fail open, the request goes on unlimited) or `"refuse"` (fail closed: a
   * `503` with `Retry-After: 1`).
   */
  readonly onUnavailable?: "allow" | "refuse";
  /** Milliseconds Redis may take to answer before it counts as unavailable. Default 1000. */
  readonly timeoutMs?: number;
  /** Observes each failure to ask Redis (the request then goes as `onUnavailable` says). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

// GCRA on whole microseconds (exact in Lua's doubles up to 2^53, centuries of
// TIME): KEYS[1] the client's TAT; ARGV[1] the emission interval, ARGV[2] the
// limit. Answers {allowed, wait, remaining, reset} in microseconds.
const SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = interval * tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0)
if tat < now then tat = now end
local next = tat + interval
if next - now > tolerance then
  return {0, next - tolerance - now, 0, tat - now}
end
redis.call('SET', KEYS[1], string.format('%d', next), 'PX', math.ceil((next - now) / 1000))
local remaining = math.floor((tolerance - (next - now)) / interval)
local wait = 0
if remaining == 0 then wait = next + interval - tolerance - now end
return {1, wait, remaining, next - now}
`;

/**
 * A rate limiter on Redis, shared by every instance of the app (see the
 * module documentation for the algorithm, the keys and the failure modes).
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisRateLimiter } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: "redis://127.0.0.1:6379", app: "bookstore" });
 * const limiter = redisRateLimiter(redis, { limit: 2, windowMs: 1_000 });
 * console.log(await limiter.take("alice"), await limiter.take("alice")); // undefined undefined
 * console.log(await limiter.take("alice")); // about 500: the milliseconds to wait
 * console.log(await limiter.decide("bob")); // { allowed: true, remaining: 1, ... }
 * ```
 *
 * @throws {RangeError} for a limit that is not a whole number from 1, a window under 1 ms or
 * shorter than a microsecond per request, a timeout that is not positive, or a name with other
 * characters.
 */
export function redisRateLimiter(
  redis: Redis,
  opts: RedisRateLimiterOptions,
): Required<RateLimiter> {
  const { limit, windowMs } = opts;
  const name = opts.name ?? "default";
  const timeoutMs = opts.timeoutMs ?? 1000;
  const intervalUs = Math.round(windowMs * 1000 / limit);
  if (!Number.isInteger(limit) || limit < 1 || !(windowMs >= 1) || !(intervalUs >= 1)) {
    throw new RangeError(
      "redisRateLimiter: limit must be a whole number from 1, and windowMs at least 1 and 1 µs per request",
    );
  }
  if (!/^[\w.-]{1,64}$/.test(name)) {
    throw new RangeError("redisRateLimiter: name must be 1 to 64 letters, digits, _, . or -");
  }
  if (!(timeoutMs > 0)) throw new RangeError("redisRateLimiter: timeoutMs must be above 0");
  const policy: RatePolicy = {
    name,
    quota: limit,
    windowSeconds: Math.max(1, Math.ceil(windowMs / 1000)),
  };
  const base = `${redis.prefix}ratelimit:${name}:`;
  const args = [String(intervalUs), String(limit)];
  const onError = opts.onError ?? (() => {});
  const unavailable: RateDecision = opts.onUnavailable === "refuse"
    ? { allowed: false, waitMs: 1000, policy, unavailable: true }
    : { allowed: true, waitMs: 0, policy };
  const ms = (us: number) => Math.ceil(us / 1000);
  const decide = async (key: string): Promise<RateDecision> => {
    try {
      const reply = await answered(
        redis.script<number[]>(SCRIPT, [base + await keyOf(key)], args),
        timeoutMs,
      );
      const [allowed, waitUs, remaining, resetUs] = reply.map(Number);
      return {
        allowed: allowed === 1,
        waitMs: ms(waitUs),
        remaining,
        resetMs: ms(resetUs),
        policy,
      };
    } catch (error) {
      onError(error);
      return unavailable;
    }
  };
  return {
    async take(key) {
      const decision = await decide(key);
      return decision.allowed ? undefined : decision.waitMs;
    },
    decide,
  };
}

/** The key as given, or its SHA-256 when long; tagged so that neither can pass for the other. */
async function keyOf(key: string): Promise<string> {
  if (key.length <= 100) return `=${key}`;
  return `#${await sha256(key)}`;
}
