/**
 * `redisBus()`: a pub/sub bus through Redis (on the node-redis client, the
 * `redis` package: an optional peer of the npm package), so that what one
 * server process publishes reaches subscribers in every process.
 *
 * - Two connections: one publishes, one subscribes (a subscribing Redis
 *   connection can do nothing else).
 * - After Redis restarts, node-redis reconnects (with back-off) and subscribes
 *   the topics again; local subscribers keep their iterators and go on
 *   receiving. Messages published while the connection was down are lost:
 *   delivery is at most once, as Redis pub/sub is.
 * - A topic is subscribed on Redis while this process has subscribers to it,
 *   and unsubscribed when the last leaves.
 * - A publish while Redis is down rejects (the caller learns the event did not go out).
 *
 * @example
 * ```ts ignore
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { redisBus } from "@ramify/api/pubsub/redis";
 *
 * const pubsub = createPubSub<{ "books.added": { id: string } }>({
 *   bus: await redisBus({ url: "redis://127.0.0.1:6379" }),
 * });
 * ```
 *
 * @module
 */

import type { PubSubBus } from "./bus.ts";

/**
 * Options of {@linkcode redisBus}.
 *
 * @example
 * ```ts
 * import type { RedisBusOptions } from "@ramify/api/pubsub/redis";
 *
 * const opts: RedisBusOptions = { url: "redis://127.0.0.1:6379", prefix: "bookstore:" };
 * ```
 */
export interface RedisBusOptions {
  /** The server, as `redis://host:port`. Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Put before every topic as its Redis channel, so that apps can share a server. Default none. */
  readonly prefix?: string;
  /** Observes the connections' errors (while reconnecting, say). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

/** What this bus uses of a node-redis client. */
interface RedisClient {
  connect(): Promise<unknown>;
  duplicate(): RedisClient;
  on(event: "error", listener: (error: unknown) => void): unknown;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  readonly isReady: boolean;
}

/**
 * Connects to Redis and gives the bus; resolves once both connections are up.
 *
 * @example
 * ```ts ignore
 * import { redisBus } from "@ramify/api/pubsub/redis";
 *
 * const bus = await redisBus({ url: Deno.env.get("REDIS_URL") });
 * await bus.close();
 * ```
 *
 * @throws {Error} when the `redis` package is not installed or Redis cannot be reached.
 */
export async function redisBus(opts: RedisBusOptions = {}): Promise<PubSubBus> {
  let createClient: (options: { url: string }) => RedisClient;
  try {
    // Named at run time: `redis` is an optional peer, typed here by what is used.
    const onDeno = typeof (globalThis as { Deno?: unknown }).Deno === "object";
    const name = onDeno ? "npm:redis@^5.8.0" : "redis";
    ({ createClient } = await import(name) as { createClient: typeof createClient });
  } catch (error) {
    throw new Error("ramify: redisBus needs the redis package (npm i redis)", { cause: error });
  }
  const onError = opts.onError ?? (() => {});
  const prefix = opts.prefix ?? "";
  const publisher = createClient({ url: opts.url ?? "redis://127.0.0.1:6379" });
  publisher.on("error", onError);
  const subscriber = publisher.duplicate();
  subscriber.on("error", onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  return {
    async publish(topic, message) {
      await publisher.publish(prefix + topic, message);
    },
    async subscribe(topic, deliver) {
      const listener = (message: string) => deliver(message);
      await subscriber.subscribe(prefix + topic, listener);
      return async () => {
        await subscriber.unsubscribe(prefix + topic, listener);
      };
    },
    async close() {
      await Promise.allSettled([end(subscriber), end(publisher)]);
    },
  };
}

function end(client: RedisClient): Promise<unknown> {
  return client.close?.() ?? client.quit?.() ?? Promise.resolve();
}
