/**
 * `redisIdempotency()`: the records of `Idempotency-Key`s on the Redis every
 * instance of an app shares, so that a POST retried on another instance gets
 * the first answer and the leaf runs once across all of them.
 *
 * - One key per idempotency key, `<prefix>idem:<key>`, holding the claim's
 *   token, the request's fingerprint and, once done, the answer (status,
 *   headers, body). A claim is one Lua script: of two instances racing with a
 *   key, one runs the leaf, the other answers `409`.
 * - A running claim expires after `lockMs` (an instance that died mid-run
 *   does not hold the key for ever), a done one after `ttlMs`.
 * - When Redis cannot be asked (down, restarting, slower than `timeoutMs`),
 *   the claim rejects and the router answers `503` with `Retry-After: 1`
 *   without running the leaf (fail closed: running it could run it twice).
 *   An answer that cannot be kept still goes to the client; its key stays
 *   held until `lockMs`, then a retry runs again.
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { createFetch } from "@ramify/api/http";
 * import { connectRedis, redisIdempotency } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "shop" });
 * const tree = api({
 *   pay: op(() => ({ paid: true }), http.post, { http: { idempotencyKey: "required" } }),
 * });
 * const handler = createFetch(tree, { idempotency: redisIdempotency(redis, { ttlMs: 86_400_000 }) });
 * ```
 *
 * @module
 */

import {
  DEFAULT_LOCK_MS,
  DEFAULT_TTL_MS,
  type IdempotencyState,
  type IdempotencyStore,
  type StoredAnswer,
} from "../web/idempotency.ts";
import type { Redis } from "./connection.ts";
import { answered, positive } from "./_answered.ts";
import { base64 } from "../tree/content.ts";

/**
 * Options of {@linkcode redisIdempotency}.
 *
 * @example
 * ```ts
 * import type { RedisIdempotencyOptions } from "@ramify/api/redis";
 *
 * const opts: RedisIdempotencyOptions = { ttlMs: 24 * 3_600_000, lockMs: 60_000 };
 * ```
 */
export interface RedisIdempotencyOptions {
  /** Milliseconds an answer is replayed for. Default a day. */
  readonly ttlMs?: number;
  /**
   * Milliseconds a running request holds its key (longer than any run; after
   * it, another request with the key runs again). Default a minute.
   */
  readonly lockMs?: number;
  /** Milliseconds Redis may take to answer before it counts as unavailable. Default 1000. */
  readonly timeoutMs?: number;
}

// A record is `<token>\n<fingerprint>\n<answer>`, the answer empty while the
// request runs: the scripts read the token and keep the fingerprint without
// decoding the answer (which may hold a large body).
// KEYS[1] the record; ARGV[1] the running record, ARGV[2] lockMs. The record
// found, or nil once claimed.
const CLAIM = `
local found = redis.call('GET', KEYS[1])
if found then return found end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;

// KEYS[1] the record; ARGV[1] the token and its newline; ARGV[2] the answer
// (or '' to delete the record), ARGV[3] ttlMs. Only the token's holder may.
const FINISH = `
local found = redis.call('GET', KEYS[1])
if not found or string.sub(found, 1, #ARGV[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  local head = string.match(found, '^[^\\n]*\\n[^\\n]*\\n')
  redis.call('SET', KEYS[1], head .. ARGV[2], 'PX', ARGV[3])
end
return 1
`;

/** An answer as JSON: status, headers, body in base64. */
interface Kept {
  readonly s: number;
  readonly h: [string, string][];
  readonly b: string;
}

/**
 * The idempotency records of every instance on one Redis.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisIdempotency } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: "redis://127.0.0.1:6379", app: "shop" });
 * const store = redisIdempotency(redis, { ttlMs: 3_600_000 });
 * ```
 *
 * @throws {RangeError} when a duration is not a positive number.
 */
export function redisIdempotency(
  redis: Redis,
  opts: RedisIdempotencyOptions = {},
): IdempotencyStore {
  const ttlMs = positive("redisIdempotency", "ttlMs", opts.ttlMs ?? DEFAULT_TTL_MS);
  const lockMs = positive("redisIdempotency", "lockMs", opts.lockMs ?? DEFAULT_LOCK_MS);
  const timeoutMs = positive("redisIdempotency", "timeoutMs", opts.timeoutMs ?? 1000);
  const keyOf = (key: string) => `${redis.prefix}idem:${key}`;
  const ask = <T>(asking: Promise<T>): Promise<T> => answered(asking, timeoutMs);
  const finish = (key: string, token: string, answer: string) =>
    ask(redis.script(FINISH, [keyOf(key)], [`${token}\n`, answer, String(Math.round(ttlMs))]))
      .then(() => {});
  return {
    async claim(key, fingerprint, token): Promise<IdempotencyState> {
      const running = `${token}\n${fingerprint}\n`;
      const found = await ask(
        redis.script<string | null>(CLAIM, [keyOf(key)], [running, String(Math.round(lockMs))]),
      );
      if (found === null || found === undefined) return { state: "claimed" };
      const afterToken = found.indexOf("\n") + 1;
      const afterPrint = found.indexOf("\n", afterToken) + 1;
      const first = found.slice(afterToken, afterPrint - 1);
      const kept = found.slice(afterPrint);
      return kept === ""
        ? { state: "running", fingerprint: first }
        : { state: "done", fingerprint: first, answer: answerOf(JSON.parse(kept) as Kept) };
    },
    complete(key, token, answer) {
      const kept: Kept = {
        s: answer.status,
        h: answer.headers.map(([name, value]) => [name, value]),
        b: base64(answer.body),
      };
      return finish(key, token, JSON.stringify(kept));
    },
    release(key, token) {
      return finish(key, token, "");
    },
  };
}

function answerOf(kept: Kept): StoredAnswer {
  const body = Uint8Array.from(atob(kept.b), (char) => char.charCodeAt(0));
  return { status: kept.s, headers: kept.h, body };
}
