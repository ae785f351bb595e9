/**
 * `redisTasks()`: the records of tasks on the Redis every instance of an app
 * shares, so that any instance answers a task's status and result, and a
 * cancel reaches the instance running it.
 *
 * - One key per task, `<prefix>task:<id>`, holding its record as JSON, kept
 *   `ttlMs` after its last write (`PX`); the instance running it renews it
 *   at every heartbeat.
 * - A write is one Lua script: it replaces the record unless the kept one is
 *   terminal or gone, and publishes the change on `<prefix>tasks`; of a
 *   cancel and a late result, the first to land stands.
 * - Signals (a cancel, an answer to the handler's question) go out on the
 *   same channel; the running instance aborts its handler's signal on a
 *   cancel. A signal missed while an instance is cut from Redis is made up
 *   for by its next write, which the store refuses for a cancelled task.
 * - Redis unreachable (down, restarting, slower than `timeoutMs`): starting a
 *   task rejects (HTTP answers `503`, nothing runs), and so do reads. A task
 *   running meanwhile goes on, its writes tried again each heartbeat; if its
 *   lease lapses before Redis is back, the next reader fails it. A Redis that
 *   comes back empty (no persistence) has forgotten its tasks: their status
 *   is not found, and each runner aborts its handler at its next write.
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch } from "@ramify/api/http";
 * import { createTasks } from "@ramify/api/tasks";
 * import { connectRedis, redisTasks } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "shop" });
 * const tasks = createTasks({ store: redisTasks(redis) });
 * const tree = api({ reindex: op(() => ({ indexed: 3 }), { tags: { longRunning: true } }) });
 * const handler = createFetch(tree, { tasks });
 * ```
 *
 * @module
 */

import type { TaskRecord, TaskSignal, TaskStore } from "../tasks/store.ts";
import type { Redis } from "./connection.ts";
import { answered, positive } from "./_answered.ts";

/**
 * Options of {@linkcode redisTasks}.
 *
 * @example
 * ```ts
 * import type { RedisTasksOptions } from "@ramify/api/redis";
 *
 * const opts: RedisTasksOptions = { timeoutMs: 500 };
 * ```
 */
export interface RedisTasksOptions {
  /** Milliseconds Redis may take to answer before it counts as unavailable. Default 1000. */
  readonly timeoutMs?: number;
}

// KEYS[1] the record; ARGV[1] the record, ARGV[2] its ttlMs, ARGV[3] the
// channel, ARGV[4] the change's message. 1 when written.
const WRITE = `
local found = redis.call('GET', KEYS[1])
if not found then return 0 end
local status = cjson.decode(found)['status']
if status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

/** A message on the channel: a task's change, or a signal to it. */
interface Message {
  readonly id: string;
  readonly signal?: TaskSignal;
}

/**
 * The task records of every instance on one Redis.
 *
 * @example
 * ```ts ignore
 * import { createTasks } from "@ramify/api/tasks";
 * import { connectRedis, redisTasks } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: "redis://127.0.0.1:6379", app: "shop" });
 * const tasks = createTasks({ store: redisTasks(redis), ttlMs: 24 * 3_600_000 });
 * ```
 *
 * @throws {RangeError} when `timeoutMs` is not a positive number.
 */
export function redisTasks(redis: Redis, opts: RedisTasksOptions = {}): TaskStore {
  const timeoutMs = positive("redisTasks", "timeoutMs", opts.timeoutMs ?? 1000);
  const keyOf = (id: string) => `${redis.prefix}task:${id}`;
  const channel = `${redis.prefix}tasks`;
  const ask = <T>(asking: Promise<T>): Promise<T> => answered(asking, timeoutMs);
  const ttlOf = (record: TaskRecord) => String(Math.max(1, Math.round(record.ttlMs)));
  return {
    async create(record) {
      await ask(
        redis.command(["SET", keyOf(record.id), JSON.stringify(record), "PX", ttlOf(record)]),
      );
    },
    async get(id) {
      const found = await ask(redis.command<string | null>(["GET", keyOf(id)]));
      return typeof found === "string" ? JSON.parse(found) as TaskRecord : undefined;
    },
    async write(record) {
      const message: Message = { id: record.id };
      const written = await ask(redis.script<number>(WRITE, [keyOf(record.id)], [
        JSON.stringify(record),
        ttlOf(record),
        channel,
        JSON.stringify(message),
      ]));
      return written === 1;
    },
    async signal(id, signal) {
      const message: Message = { id, signal };
      await ask(redis.command(["PUBLISH", channel, JSON.stringify(message)]));
    },
    listen(listener) {
      return ask(redis.subscribe(channel, (text) => {
        let message: Message;
        try {
          message = JSON.parse(text) as Message;
        } catch {
          // Not one of ours: another writer on the channel is ignored.
          return;
        }
        if (typeof message.id !== "string") return;
        if (message.signal === undefined) listener.changed(message.id);
        else listener.signal(message.id, message.signal);
      }));
    },
  };
}
