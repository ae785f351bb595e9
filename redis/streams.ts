/**
 * `redisStreams()`: a pub/sub bus on Redis Streams, so that events keep an id
 * that means the same on every instance and a subscriber resuming anywhere
 * gets every event it missed within the retention.
 *
 * - A topic is the stream `<prefix>stream:<topic>`; `publish` is one script
 *   that adds the event (`XADD`), trims the stream to the retention (by
 *   count, by age, or both) noting the newest id trimmed in
 *   `<prefix>stream-cut:<topic>`. Retention applies when a topic is
 *   published to: a quiet topic keeps its last events until the next one.
 * - Each topic with local subscribers has one reader per instance, on a
 *   connection of its own (`XREAD BLOCK`), from the stream's newest id when it
 *   started; what it reads goes to every local subscriber.
 * - `replay` reads what followed an id (`XRANGE`), and says when some of it
 *   is no longer kept: the id is older than the newest entry trimmed (or
 *   deleted: `max-deleted-entry-id`, Redis 7: then the replay starts at the oldest
 *   entry kept), or it is none the stream gave (newer than any, malformed, or
 *   the stream is gone: then there is nothing to replay).
 * - Redis away: `publish` rejects (the caller learns the event did not go
 *   out); readers retry with back-off and go on from the last id they read,
 *   so nothing kept is lost; if what they had not read yet was trimmed (or
 *   Redis restarted without persistence), their subscribers are told of a gap.
 * - `close()` stops this bus's readers; the shared connection stays the
 *   app's to close.
 *
 * @example
 * ```ts ignore
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { connectRedis, redisStreams } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * const pubsub = createPubSub<{ "books.added": { id: string } }>({
 *   bus: redisStreams(redis, { maxLen: 10_000, maxAgeMs: 24 * 60 * 60_000 }),
 * });
 * ```
 *
 * @module
 */

import type { BusEvent, PubSubBus, Replay } from "../pubsub/bus.ts";
import { compareEventIds, isEventId, type Retention, retentionOf } from "../pubsub/streams.ts";
import type { Redis } from "./connection.ts";
import { backoffMs } from "./_backoff.ts";

// Which of two ids is newer, in Lua (ids are `<ms>-<seq>`).
const NEWER = `
local function parts(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local function newer(a, b)
  if b == nil then return a end
  local am, as = parts(a)
  local bm, bs = parts(b)
  if am ~= bm then return am > bm and a or b end
  return as > bs and a or b
end`;

// One round trip: add; trim by count and by age, noting the newest id trimmed
// (Redis's own max-deleted-entry-id does not count trimming). Neither key
// expires: a stream gone by expiry would take with it what was lost.
const ADD = `${NEWER}
local id = redis.call('XADD', KEYS[1], '*', 'm', ARGV[1])
local cut = nil
local over = redis.call('XLEN', KEYS[1]) - tonumber(ARGV[2])
if over > 0 then
  local gone = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', over)
  cut = gone[#gone][1]
end
local age = tonumber(ARGV[3])
if age > 0 then
  local now = redis.call('TIME')
  local oldest = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - age
  local aged = redis.call('XREVRANGE', KEYS[1], '(' .. oldest .. '-0', '-', 'COUNT', 1)
  if #aged > 0 then cut = newer(aged[1][1], cut) end
end
if cut ~= nil then
  local ms, seq = parts(cut)
  redis.call('XTRIM', KEYS[1], 'MINID', '=', ms .. '-' .. (seq + 1))
  redis.call('SET', KEYS[2], newer(cut, redis.call('GET', KEYS[2]) or nil))
end
return id`;

// The stream's newest id given and newest id trimmed (or deleted), with a
// page of entries, at once.
const READ = `${NEWER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'', '', '', {}} end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local last, first, trimmed = '', '', redis.call('GET', KEYS[2]) or '0-0'
for i = 1, #info, 2 do
  if info[i] == 'last-generated-id' then last = info[i + 1] end
  if info[i] == 'first-entry' and info[i + 1] then first = info[i + 1][1] end
  if info[i] == 'max-deleted-entry-id' then trimmed = newer(info[i + 1], trimmed) end
end
return {last, first, trimmed, redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])}`;

/** Milliseconds a reader blocks per `XREAD` before asking again. */
const BLOCK_MS = 5000;

/** Entries a reader takes per round trip. */
const PAGE = 500;

type Entry = [id: string, fields: string[]];

/**
 * A bus on Redis Streams, over an app's connection.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisStreams } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ app: "bookstore" });
 * const bus = redisStreams(redis, { maxLen: 1000 });
 * await bus.publish("books.added", '{"id":"1"}');
 * console.log(await bus.replay?.("books.added", "0-0", 10));
 * ```
 *
 * @throws {RangeError} for a `maxLen` or `maxAgeMs` that is not a positive integer.
 */
export function redisStreams(redis: Redis, retention: Retention = {}): PubSubBus {
  const { maxLen, maxAgeMs } = retentionOf(retention, "redisStreams");
  const age = maxAgeMs === Number.MAX_SAFE_INTEGER ? 0 : maxAgeMs;
  const keyOf = (topic: string) => `${redis.prefix}stream:${topic}`;
  const keysOf = (topic: string) => [keyOf(topic), `${redis.prefix}stream-cut:${topic}`];
  const readers = new Set<() => Promise<void>>();

  const read = async (topic: string, from: string, count: number): Promise<Page> => {
    const [last, first, trimmed, entries] = await redis.script<
      [string, string, string, Entry[]]
    >(READ, keysOf(topic), [from, String(count)]);
    // An entry's one field is the message.
    const events = entries.map(([id, fields]): BusEvent => ({ id, message: fields[1] ?? "" }));
    return { last, first, trimmed, events };
  };

  return {
    async publish(topic, message) {
      await redis.script(ADD, keysOf(topic), [message, String(maxLen), String(age)]);
    },
    async subscribe(topic, deliver, gap) {
      const connection = await redis.dedicated();
      const newest = await connection.command<Entry[]>([
        "XREVRANGE",
        keyOf(topic),
        "+",
        "-",
        "COUNT",
        "1",
      ]);
      let after = newest.length === 0 ? "0-0" : newest[0][0];
      let running = true;
      // Each round reads a page after the last id together with what Redis
      // trimmed (one script, so nothing falls between), and blocks on XREAD
      // only to wait for more: an entry trimmed before this reader got to it
      // is told as a gap, never skipped.
      const loop = async () => {
        let failures = 0;
        while (running) {
          try {
            const page = await read(topic, `(${after}`, PAGE);
            if (lostAfter(after, page)) {
              gap?.();
              // Trimmed past: go on after the cut. Another stream than the one
              // read (Redis restarted): read it from its start.
              after = trimmedPast(after, page) ? page.trimmed : "0-0";
              continue;
            }
            for (const event of page.events) {
              after = event.id;
              if (running) deliver(event.message, event.id);
            }
            if (page.events.length === PAGE) continue;
            await connection.command(
              ["XREAD", "COUNT", "1", "BLOCK", String(BLOCK_MS), "STREAMS", keyOf(topic), after],
            );
          } catch {
            if (!running) return;
            failures++;
            await new Promise((resolve) => setTimeout(resolve, backoffMs(failures)));
          }
        }
      };
      const done = loop();
      const stop = async () => {
        if (!readers.delete(stop)) return;
        running = false;
        await connection.close();
        await done;
      };
      readers.add(stop);
      return stop;
    },
    async replay(topic, lastEventId, count): Promise<Replay> {
      if (!isEventId(lastEventId)) return { gap: true, events: [] };
      const page = await read(topic, `(${lastEventId}`, count);
      // An id the topic never gave: nothing to replay, the subscriber goes on from now.
      if (page.last === "" || compareEventIds(lastEventId, page.last) > 0) {
        return { gap: true, events: [] };
      }
      if (!lostAfter(lastEventId, page)) return { gap: false, events: page.events };
      return { gap: true, events: (await read(topic, "-", count)).events };
    },
    async close() {
      await Promise.allSettled([...readers].map((stop) => stop()));
    },
  };
}

/** What one read of a stream finds, at once. */
interface Page {
  /** The newest id the stream gave (`""`: there is no stream). */
  readonly last: string;
  /** The oldest entry kept (`""`: none). */
  readonly first: string;
  /** The newest id trimmed or deleted (`"0-0"`: none). */
  readonly trimmed: string;
  readonly events: readonly BusEvent[];
}

/**
 * Whether entries that followed `id` are gone: trimmed past it, or the
 * stream is not the one that gave it (Redis restarted, or never gave it): it
 * is gone, newer ids than it were given elsewhere, or it lies below where
 * this stream starts without trimming to explain it.
 */
function lostAfter(id: string, page: Page): boolean {
  if (page.last === "") return id !== "0-0";
  if (compareEventIds(id, page.last) > 0 || trimmedPast(id, page)) return true;
  return page.first !== "" && compareEventIds(id, page.first) < 0 &&
    compareEventIds(id, page.trimmed) > 0;
}

/** Whether the stream was trimmed past `id`. */
function trimmedPast(id: string, page: Page): boolean {
  return compareEventIds(id, page.trimmed) < 0;
}
