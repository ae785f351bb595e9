/**
 * `redisBus()`: a pub/sub bus through Redis (on the node-redis client, the
 * `redis` package: an optional peer of the npm package), so that what one
 * server process publishes reaches subscribers in every process.
 *
 * - Channels are namespaced per app: a topic is the channel
 *   `ramify:<app>:<topic>`, so that two apps sharing a Redis never hear each
 *   other. Every process of one app names the same `app`; `prefix` replaces
 *   the whole namespace.
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
 * // Channels: ramify:bookstore:books.added
 * const pubsub = createPubSub<{ "books.added": { id: string } }>({
 *   bus: await redisBus({ url: "redis://127.0.0.1:6379", app: "bookstore" }),
 * });
 * ```
 *
 * @module
 */

import type { PubSubBus } from "./bus.ts";

/**
 * Options of {@linkcode redisBus}: the connection, and the app's namespace,
 * by name (`app`) or written out (`prefix`).
 *
 * @example
 * ```ts
 * import type { RedisBusOptions } from "@ramify/api/pubsub/redis";
 *
 * const named: RedisBusOptions = { url: "redis://127.0.0.1:6379", app: "bookstore" };
 * const raw: RedisBusOptions = { url: "redis://127.0.0.1:6379", prefix: "" };
 * ```
 */
export type RedisBusOptions = RedisConnectionOptions & (RedisAppName | RedisPrefix);

/**
 * The connection of a {@linkcode redisBus}.
 *
 * @example
 * ```ts
 * import type { RedisConnectionOptions } from "@ramify/api/pubsub/redis";
 *
 * const connection: RedisConnectionOptions = { url: "redis://cache.internal:6379" };
 * ```
 */
export interface RedisConnectionOptions {
  /** The server, as `redis://host:port`. Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Observes the connections' errors (while reconnecting, say). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The app's name, which makes the channel prefix `ramify:<app>:`.
 *
 * @example
 * ```ts
 * import type { RedisAppName } from "@ramify/api/pubsub/redis";
 *
 * const bookstore: RedisAppName = { app: "bookstore" }; // channels ramify:bookstore:<topic>
 * ```
 */
export interface RedisAppName {
  /**
   * The app every process of it names alike: its events travel on
   * `ramify:<app>:<topic>`, apart from any other app's on the same Redis.
   */
  readonly app: string;
  /** Not with `app`: the prefix is made from it. */
  readonly prefix?: undefined;
}

/**
 * A channel prefix written out, in place of the app's namespace.
 *
 * @example
 * ```ts
 * import type { RedisPrefix } from "@ramify/api/pubsub/redis";
 *
 * const legacy: RedisPrefix = { prefix: "bookstore:" }; // channels bookstore:<topic>
 * ```
 */
export interface RedisPrefix {
  /** Put before every topic as its Redis channel (`""`: the bare topic, as other publishers name it). */
  readonly prefix: string;
  /** Not with `prefix`. */
  readonly app?: undefined;
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
 * const bus = await redisBus({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * await bus.close();
 * ```
 *
 * @throws {TypeError} when neither a non-empty `app` nor a `prefix` is given.
 * @throws {Error} when the `redis` package is not installed or Redis cannot be reached.
 */
export async function redisBus(opts: RedisBusOptions): Promise<PubSubBus> {
  const prefix = prefixOf(opts);
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

/**
 * The app's channel namespace. No default: a guessed name (the entry file, the
 * directory) could split one app's processes apart and lose its events
 * silently, and one shared default would let every app hear every other.
 */
function prefixOf(opts: RedisBusOptions | undefined): string {
  if (typeof opts?.prefix === "string") return opts.prefix;
  if (typeof opts?.app === "string" && opts.app !== "") return `ramify:${opts.app}:`;
  throw new TypeError(
    'ramify: redisBus needs the app whose events it carries, to keep them apart from other apps on the same Redis: redisBus({ url, app: "bookstore" }) (channels ramify:bookstore:<topic>), or a prefix of your own',
  );
}

function end(client: RedisClient): Promise<unknown> {
  return client.close?.() ?? client.quit?.() ?? Promise.resolve();
}
