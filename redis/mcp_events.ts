/**
 * `redisMcpEvents()`: the events of resumable MCP call streams (SEP-1699) in
 * Redis, so that a client whose stream ended resumes it with `Last-Event-ID`
 * through any instance behind a balancer, not only the one running the call.
 *
 * - Each call's stream is the Redis Stream `<prefix>mcp:events:<stream>`:
 *   every message is one entry (`XADD ... MAXLEN <maxEvents>`, one script that
 *   also numbers it and sets the key's time to live) holding the message, the
 *   session whose call it is, and whether it is the call's answer. A stream
 *   lives `idleMs` after its latest event while the call runs, and `keepMs`
 *   after the answer; one delivered whole is deleted at once (nothing to
 *   resume).
 * - Event ids are `<stream>.<entry id>`: a `Last-Event-ID` of any other shape
 *   never reaches Redis, and one naming an entry that is gone (trimmed,
 *   expired) or of another session is a `400`, as with the default store.
 * - A replay reads what followed the id (`XRANGE`), then, until the answer,
 *   waits for more with `XREAD BLOCK` on a connection of its own (held while
 *   the client listens). Entries are numbered: a reader that finds one trimmed
 *   before it got to it ends the replay rather than skip it (the client's next
 *   `Last-Event-ID` is then a `400`).
 * - Redis away (or slower than `timeoutMs`): the call still answers on its own
 *   stream (fail open), but that stream no longer resumes; a replay is a `503`
 *   (fail closed) and one following live ends, for its client to come back.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisMcpEvents, redisMcpSessions } from "@ramify/api/redis";
 * import { createMcpHandler } from "@ramify/api/tools";
 * import { api, op } from "@ramify/api/tree";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const mcp = createMcpHandler(tree, {
 *   sessions: redisMcpSessions(redis),
 *   resumability: { store: redisMcpEvents(redis), pollAfterMs: 30_000 },
 * });
 * ```
 *
 * @module
 */

import type { McpEventStore, McpStreamEvent } from "../tools/sessions/store.ts";
import type { Redis } from "./connection.ts";
import { answered, positive } from "./_answered.ts";

// One round trip: number the event after the newest one (a later event of a
// stream gone is not kept: its numbers would start again), add it, bound the
// stream, and keep it `idleMs` more (`keepMs` after the answer).
const APPEND = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if ARGV[4] == '0' and #last == 0 then return false end
local n = 0
if #last > 0 then n = tonumber(last[1][2][2]) + 1 end
local fields = {'n', tostring(n), 's', ARGV[1], 'd', ARGV[2]}
local ttl = ARGV[6]
if ARGV[3] == '1' then
  table.insert(fields, 'a')
  table.insert(fields, '1')
  ttl = ARGV[7]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[5], '*', unpack(fields))
redis.call('PEXPIRE', KEYS[1], ttl)
return id`;

/** `<stream>.<entry id>`: the SDK's stream ids are UUIDs; entry ids `<ms>-<seq>`. */
const EVENT_ID = /^([0-9A-Za-z-]{1,64})\.(\d{1,15}-\d{1,15})$/;

/** Entries read per round trip. */
const PAGE = 100;

/** Milliseconds a live replay blocks per `XREAD` before checking its stream is still there. */
const BLOCK_MS = 5000;

type Entry = [id: string, fields: string[]];

/**
 * Options of {@linkcode redisMcpEvents}.
 *
 * @example
 * ```ts
 * import type { RedisMcpEventsOptions } from "@ramify/api/redis";
 *
 * const opts: RedisMcpEventsOptions = { maxEvents: 500, keepMs: 60_000 };
 * ```
 */
export interface RedisMcpEventsOptions {
  /** Events kept per stream (`MAXLEN`), the oldest trimmed first. Default 1000. */
  readonly maxEvents?: number;
  /** How long an answered call's stream stays replayable (ms). Default 5 minutes. */
  readonly keepMs?: number;
  /**
   * How long a running call's stream is kept after its latest event (ms): a
   * call whose instance died never answers. Default 1 hour.
   */
  readonly idleMs?: number;
  /** Milliseconds Redis has to answer; past them it counts as down. Default 1000. */
  readonly timeoutMs?: number;
}

/**
 * An {@linkcode McpEventStore} on Redis Streams, over an app's connection:
 * the `store` of `createMcpHandler`'s `resumability` when instances share a
 * balancer without stickiness.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisMcpEvents } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ app: "bookstore" });
 * const events = redisMcpEvents(redis, { keepMs: 60_000 });
 * const id = await events.append("3f1c0e9a-7d2b-4c4e-9f0a-2b6d8e1f5a77", {
 *   session: "0123456789abcdef0123456789abcdef",
 *   data: "",
 *   answer: false,
 *   first: true,
 * });
 * console.log(id); // "3f1c0e9a-7d2b-4c4e-9f0a-2b6d8e1f5a77.1764108000000-0"
 * ```
 *
 * @throws {RangeError} for an option that is not a positive integer.
 */
export function redisMcpEvents(redis: Redis, opts: RedisMcpEventsOptions = {}): McpEventStore {
  const maxEvents = positive("redisMcpEvents", "maxEvents", opts.maxEvents ?? 1000, true);
  const keepMs = positive("redisMcpEvents", "keepMs", opts.keepMs ?? 5 * 60_000, true);
  const idleMs = positive("redisMcpEvents", "idleMs", opts.idleMs ?? 60 * 60_000, true);
  const timeoutMs = positive("redisMcpEvents", "timeoutMs", opts.timeoutMs ?? 1000, true);
  const keyOf = (stream: string) => `${redis.prefix}mcp:events:${stream}`;
  const ask = <T>(args: string[]) => answered(redis.command<T>(args), timeoutMs);
  return {
    async append(stream, { session, data, answer, first }) {
      const id = await answered(
        redis.script<string | null>(APPEND, [keyOf(stream)], [
          session,
          data,
          answer ? "1" : "0",
          first ? "1" : "0",
          String(maxEvents),
          String(idleMs),
          String(keepMs),
        ]),
        timeoutMs,
      );
      return id === null ? undefined : `${stream}.${id}`;
    },
    async forget(stream) {
      await ask(["DEL", keyOf(stream)]);
    },
    async replay(session, lastEventId, signal) {
      const [, stream, entry] = EVENT_ID.exec(lastEventId) ?? [];
      if (stream === undefined || entry === undefined) return undefined;
      const key = keyOf(stream);
      // The id's own entry first: it must still be there, and be this session's.
      const read = await ask<Entry[]>(["XRANGE", key, entry, "+", "COUNT", String(PAGE + 1)]);
      if (read[0]?.[0] !== entry || fieldOf(read[0], "s") !== session) return undefined;
      const follow = async function* (): AsyncGenerator<McpStreamEvent> {
        let [after, n] = [entry, Number(fieldOf(read[0], "n"))];
        // After the answer nothing follows.
        if (fieldOf(read[0], "a") === "1") return;
        let page = read.slice(1);
        let reader: Redis | undefined;
        // Closing the reader abandons the XREAD it waits on.
        const abandon = () => void reader?.close();
        signal.addEventListener("abort", abandon, { once: true });
        try {
          while (!signal.aborted) {
            for (const found of page) {
              // Trimmed past what this replay had read: the client's id says so, not a gap.
              if (Number(fieldOf(found, "n")) !== ++n) return;
              after = found[0];
              yield { id: `${stream}.${found[0]}`, data: fieldOf(found, "d") ?? "" };
              if (fieldOf(found, "a") === "1") return;
            }
            reader ??= await redis.dedicated();
            if (signal.aborted) return;
            const more = await answered(
              reader.command<[string, Entry[]][] | null>(
                ["XREAD", "COUNT", String(PAGE), "BLOCK", String(BLOCK_MS), "STREAMS", key, after],
              ),
              BLOCK_MS + timeoutMs,
            );
            page = more?.[0]?.[1] ?? [];
            // Forgotten (its call cancelled) or expired while waiting: nothing more comes.
            if (more === null && await ask<number>(["EXISTS", key]) === 0) return;
          }
        } catch (error) {
          if (!signal.aborted) throw error;
        } finally {
          signal.removeEventListener("abort", abandon);
          await reader?.close();
        }
      };
      return { [Symbol.asyncIterator]: follow };
    },
  };
}

/** A field of an entry (its fields are name, value, name, value...). */
function fieldOf([, fields]: Entry, name: string): string | undefined {
  for (let i = 0; i < fields.length - 1; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
