/**
 * `memoryStreams()`: a bus that keeps each topic's recent events in this
 * process, so that a subscriber resuming from its last id gets what it
 * missed. Ids are written as Redis Streams write them (`<ms>-<seq>`, rising),
 * so a client's position reads the same whichever bus an app runs on;
 * `redisStreams` (from `@ramify/api/redis`) keeps them in Redis, for every
 * instance.
 *
 * @example
 * ```ts
 * import { createPubSub, memoryStreams } from "@ramify/api/pubsub";
 *
 * const pubsub = createPubSub<{ tick: number }>({ bus: memoryStreams({ maxLen: 1000 }) });
 * ```
 *
 * @module
 */

import type { BusEvent, PubSubBus, Replay } from "./bus.ts";

/**
 * How much of a topic a bus that keeps events keeps: the newest `maxLen`
 * events, those younger than `maxAgeMs`, or both (whichever keeps fewer).
 *
 * @example
 * ```ts
 * import type { Retention } from "@ramify/api/pubsub";
 *
 * const hour: Retention = { maxLen: 10_000, maxAgeMs: 60 * 60_000 };
 * ```
 */
export interface Retention {
  /** Events kept per topic at most. Default 10,000 (when `maxAgeMs` is not given either). */
  readonly maxLen?: number;
  /** Milliseconds an event is kept at most. Default: no age limit. */
  readonly maxAgeMs?: number;
}

/** What a retention keeps, checked: at least one bound. */
export function retentionOf(retention: Retention, caller: string): Required<Retention> {
  const { maxLen, maxAgeMs } = retention;
  if (maxLen !== undefined && (!Number.isInteger(maxLen) || maxLen < 1)) {
    throw new RangeError(`${caller}: maxLen must be a positive integer, got ${maxLen}`);
  }
  if (maxAgeMs !== undefined && (!Number.isInteger(maxAgeMs) || maxAgeMs < 1)) {
    throw new RangeError(`${caller}: maxAgeMs must be a positive integer, got ${maxAgeMs}`);
  }
  return {
    maxLen: maxLen ?? (maxAgeMs === undefined ? 10_000 : Number.MAX_SAFE_INTEGER),
    maxAgeMs: maxAgeMs ?? Number.MAX_SAFE_INTEGER,
  };
}

const EVENT_ID = /^(\d{1,16})-(\d{1,16})$/;

/**
 * Whether a text is an event id as these buses write them (`<ms>-<seq>`).
 *
 * @example
 * ```ts
 * import { isEventId } from "@ramify/api/pubsub";
 *
 * console.log(isEventId("1700000000000-0"), isEventId("../../x")); // true false
 * ```
 */
export function isEventId(text: string): boolean {
  return EVENT_ID.test(text);
}

/**
 * Orders two event ids (negative when `a` is older).
 *
 * @example
 * ```ts
 * import { compareEventIds } from "@ramify/api/pubsub";
 *
 * console.log(compareEventIds("5-1", "10-0") < 0); // true
 * ```
 */
export function compareEventIds(a: string, b: string): number {
  const [ma, sa] = a.split("-").map(BigInt);
  const [mb, sb] = b.split("-").map(BigInt);
  if (ma !== mb) return ma < mb ? -1 : 1;
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

interface Kept extends BusEvent {
  readonly at: number;
}

interface Log {
  readonly events: Kept[];
  /** The newest id given, kept or not. */
  last: string | undefined;
  /** The newest id trimmed away. */
  lostUpTo: string | undefined;
}

/**
 * A bus that keeps each topic's recent events in this process.
 *
 * @example
 * ```ts
 * import { createPubSub, memoryStreams } from "@ramify/api/pubsub";
 *
 * const pubsub = createPubSub<{ tick: number }>({ bus: memoryStreams({ maxLen: 2 }) });
 * const first = pubsub.subscribe("tick");
 * await pubsub.publish("tick", 1);
 * await pubsub.publish("tick", 2);
 * // A subscriber resuming from no known id is told of a gap, then gets what is kept.
 * ```
 *
 * @throws {RangeError} for a `maxLen` or `maxAgeMs` that is not a positive integer.
 */
export function memoryStreams(retention: Retention = {}): PubSubBus {
  const { maxLen, maxAgeMs } = retentionOf(retention, "memoryStreams");
  const logs = new Map<string, Log>();
  const listeners = new Map<string, Set<(message: string, id?: string) => void>>();
  let lastMs = 0;
  let seq = 0;
  const nextId = () => {
    const now = Date.now();
    if (now > lastMs) [lastMs, seq] = [now, 0];
    else seq++;
    return `${lastMs}-${seq}`;
  };
  const trim = (log: Log, now: number) => {
    let drop = Math.max(0, log.events.length - maxLen);
    while (drop < log.events.length && now - log.events[drop].at > maxAgeMs) drop++;
    if (drop === 0) return;
    log.lostUpTo = log.events[drop - 1].id;
    log.events.splice(0, drop);
  };
  return {
    publish(topic, message) {
      let log = logs.get(topic);
      if (log === undefined) {
        logs.set(topic, log = { events: [], last: undefined, lostUpTo: undefined });
      }
      const id = nextId();
      const at = Date.now();
      log.events.push({ id, message, at });
      log.last = id;
      trim(log, at);
      for (const deliver of [...(listeners.get(topic) ?? [])]) deliver(message, id);
      return Promise.resolve();
    },
    subscribe(topic, deliver) {
      let set = listeners.get(topic);
      if (set === undefined) listeners.set(topic, set = new Set());
      const own = (message: string, id?: string) => deliver(message, id);
      set.add(own);
      return Promise.resolve(() => {
        set.delete(own);
        if (set.size === 0) listeners.delete(topic);
        return Promise.resolve();
      });
    },
    replay(topic, lastEventId, count) {
      const log = logs.get(topic);
      if (log !== undefined) trim(log, Date.now());
      const known = log?.last !== undefined && isEventId(lastEventId) &&
        compareEventIds(lastEventId, log.last) <= 0;
      const gap = !known ||
        (log.lostUpTo !== undefined && compareEventIds(lastEventId, log.lostUpTo) < 0);
      // An id the topic never gave: nothing to replay, the subscriber goes on from now.
      const events = known ? log!.events : [];
      const start = gap
        ? 0
        : events.findIndex((event) => compareEventIds(event.id, lastEventId) > 0);
      const page: Replay = {
        gap,
        events: (start < 0 ? [] : events.slice(start, start + count))
          .map(({ id, message }) => ({ id, message })),
      };
      return Promise.resolve(page);
    },
    close() {
      listeners.clear();
      logs.clear();
      return Promise.resolve();
    },
  };
}
