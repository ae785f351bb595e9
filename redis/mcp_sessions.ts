/**
 * 2025-era MCP sessions in Redis, so that every instance behind a balancer
 * serves every session: {@linkcode redisMcpSessions} keeps each session's
 * record (one string key, `<prefix>mcp:session:<id>`, expiring after the idle
 * time and refreshed on each use), and {@linkcode redisMcpCancellations}
 * carries a client's `notifications/cancelled` to the instance running the
 * call (the channel `<prefix>mcp:cancel`).
 *
 * While Redis is unreachable (or slower than `timeoutMs`), session requests
 * are refused (`503`, fail closed: a session is never served without its
 * record); a record lost with
 * a Redis restarted empty is a `404` to its client, which begins a new session,
 * as MCP clients do. Cancellations are best effort, as in MCP itself.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisMcpCancellations, redisMcpSessions } from "@ramify/api/redis";
 * import { createMcpHandler } from "@ramify/api/tools";
 * import { api, op } from "@ramify/api/tree";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const mcp = createMcpHandler(tree, {
 *   sessions: redisMcpSessions(redis, { idleMs: 30 * 60_000 }),
 *   cancellations: redisMcpCancellations(redis),
 * });
 * ```
 *
 * @module
 */

import type { Redis } from "./connection.ts";
import { answered, positive } from "./_answered.ts";
import { StoreUnreachable } from "../tree/outage.ts";
import type {
  McpCancellations,
  McpSessionRecord,
  McpSessionStore,
} from "../tools/sessions/store.ts";

/**
 * Options of {@linkcode redisMcpSessions}.
 *
 * @example
 * ```ts
 * import type { RedisMcpSessionsOptions } from "@ramify/api/redis";
 *
 * const opts: RedisMcpSessionsOptions = { idleMs: 10 * 60_000 };
 * ```
 */
export interface RedisMcpSessionsOptions {
  /** A session unused this long (ms) is gone: its key's time to live. Default 30 minutes. */
  readonly idleMs?: number;
  /** Milliseconds Redis has to answer; past them the request is refused as if Redis were down. Default 1000. */
  readonly timeoutMs?: number;
}

/**
 * Session records in Redis: `SET ... PX` on `initialize`, `GETEX ... PX` on
 * every later request (one round trip, which restarts the idle time), `DEL` on
 * the client's `DELETE`. No bound on their number but the idle time: Redis's
 * own `maxmemory` policy is the last resort.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisMcpSessions } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ app: "bookstore" });
 * const sessions = redisMcpSessions(redis, { idleMs: 60_000 });
 * console.log(await sessions.get("0123456789abcdef0123456789abcdef")); // undefined
 * ```
 *
 * @throws {RangeError} for an `idleMs` that is not a positive integer, or a `timeoutMs` that is not positive.
 */
export function redisMcpSessions(
  redis: Redis,
  opts: RedisMcpSessionsOptions = {},
): McpSessionStore {
  const idleMs = positive("redisMcpSessions", "idleMs", opts.idleMs ?? 30 * 60_000, true);
  const timeoutMs = opts.timeoutMs ?? 1000;
  if (!(timeoutMs > 0)) throw new RangeError("redisMcpSessions: timeoutMs must be above 0");
  const ttl = String(idleMs);
  const keyOf = (id: string) => `${redis.prefix}mcp:session:${id}`;
  const ask = <T>(args: string[]) => answered(redis.command<T>(args), timeoutMs);
  return {
    async create(id, record) {
      await ask(["SET", keyOf(id), JSON.stringify(record), "PX", ttl]);
    },
    async get(id) {
      const text = await ask<string | null>(["GETEX", keyOf(id), "PX", ttl]);
      return text === null ? undefined : recordOf(text);
    },
    async delete(id) {
      return await ask<number>(["DEL", keyOf(id)]) === 1;
    },
  };
}

/**
 * Options of {@linkcode redisMcpCancellations}.
 *
 * @example
 * ```ts
 * import type { RedisMcpCancellationsOptions } from "@ramify/api/redis";
 *
 * const opts: RedisMcpCancellationsOptions = { timeoutMs: 500 };
 * ```
 */
export interface RedisMcpCancellationsOptions {
  /** Milliseconds Redis has to take a cancellation; past them it is dropped (and observed). Default 1000. */
  readonly timeoutMs?: number;
}

/**
 * The cancellation channel of MCP calls through Redis pub/sub: a client's
 * `notifications/cancelled` reaching any instance aborts the call on the
 * instance running it. At most once: a cancellation published while that
 * instance's subscription is down is lost, and the call runs to its end.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisMcpCancellations } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ app: "bookstore" });
 * const cancellations = redisMcpCancellations(redis, { timeoutMs: 500 });
 * ```
 *
 * @throws {RangeError} for a `timeoutMs` that is not positive.
 */
export function redisMcpCancellations(
  redis: Redis,
  opts: RedisMcpCancellationsOptions = {},
): McpCancellations {
  const timeoutMs = opts.timeoutMs ?? 1000;
  if (!(timeoutMs > 0)) throw new RangeError("redisMcpCancellations: timeoutMs must be above 0");
  const channel = (topic: string) => `${redis.prefix}${topic}`;
  return {
    async publish(topic, message) {
      await answered(redis.command(["PUBLISH", channel(topic), message]), timeoutMs);
    },
    subscribe(topic, deliver) {
      // Fails at once while Redis is away (subscribing would wait for it): tried again on the next call.
      if (!redis.isReady) {
        return Promise.reject(new StoreUnreachable("ramify: Redis is unreachable"));
      }
      return redis.subscribe(channel(topic), deliver);
    },
  };
}

/** A stored record, or undefined for a value that is not one (written by something else). */
function recordOf(text: string): McpSessionRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<McpSessionRecord>;
    const info = record.clientInfo;
    return typeof record.protocolVersion === "string" &&
        typeof record.createdAt === "number" &&
        typeof record.clientCapabilities === "object" && record.clientCapabilities !== null &&
        typeof info?.name === "string" && typeof info.version === "string" &&
        (record.owner === undefined || typeof record.owner === "string")
      ? record as McpSessionRecord
      : undefined;
  } catch {
    return undefined;
  }
}
