/**
 * `redisBus()`: a pub/sub bus on Redis pub/sub (`PUBLISH`/`SUBSCRIBE`), for
 * topics that want delivery at most once and no storage: what is published
 * while an instance is cut from Redis is not delivered there later. Topics
 * whose subscribers must resume take `redisStreams` instead.
 *
 * - A topic is the channel `<prefix><topic>` (`ramify:<app>:<topic>`), so that
 *   two apps sharing a Redis never hear each other.
 * - Subscriptions use the connection's subscriber connection (a subscribing
 *   Redis connection can do nothing else); after Redis restarts, node-redis
 *   reconnects and subscribes the topics again.
 * - A publish while Redis is down rejects (the caller learns the event did not go out).
 * - `close()` stops this bus's subscriptions; the shared connection stays the
 *   app's to close.
 *
 * @example
 * ```ts ignore
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { connectRedis, redisBus } from "@ramify/api/redis";
 *
 * // Channels: ramify:bookstore:books.added
 * const redis = await connectRedis({ url: "redis://127.0.0.1:6379", app: "bookstore" });
 * const pubsub = createPubSub<{ "books.added": { id: string } }>({ bus: redisBus(redis) });
 * ```
 *
 * @module
 */

import type { PubSubBus } from "../pubsub/bus.ts";
import type { Redis } from "./connection.ts";

/**
 * A bus on Redis pub/sub, over an app's connection.
 *
 * @example
 * ```ts ignore
 * import { connectRedis, redisBus } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ app: "bookstore" });
 * const bus = redisBus(redis);
 * await bus.publish("news", '"hello"');
 * ```
 */
export function redisBus(redis: Redis): PubSubBus {
  const stops = new Set<() => Promise<void>>();
  return {
    async publish(topic, message) {
      await redis.command(["PUBLISH", redis.prefix + topic, message]);
    },
    async subscribe(topic, deliver) {
      const unsubscribe = await redis.subscribe(
        redis.prefix + topic,
        (message) => deliver(message),
      );
      const stop = async () => {
        if (stops.delete(stop)) await unsubscribe();
      };
      stops.add(stop);
      return stop;
    },
    async close() {
      await Promise.allSettled([...stops].map((stop) => stop()));
    },
  };
}
