/**
 * `connectRedis()`: one connection to Redis (on the node-redis client, the
 * `redis` package: an optional peer of the npm package) that every
 * Redis-backed store of an app shares: the event buses, the rate limiter, the
 * idempotency records and the MCP sessions.
 *
 * - Keys and channels are namespaced per app: `ramify:<app>:...`, so that two
 *   apps sharing a Redis never see each other's state. Every instance of one
 *   app names the same `app`; `prefix` replaces the whole namespace.
 * - It fails at start, with a clear message, when the URL is empty or Redis
 *   cannot be reached within `connectTimeoutMs`: a server never starts
 *   half-configured.
 * - Once connected, a lost connection is retried for ever (with back-off), and
 *   a command sent meanwhile rejects at once instead of waiting in a queue,
 *   with a `StoreUnreachable` (tree/outage.ts): each store then decides, as
 *   documented, whether a request goes on without it (fail open) or is
 *   refused (fail closed), and the servers log the outage once, not as a
 *   crash per request; the connection says when Redis is back.
 *
 * @example
 * ```ts ignore
 * import { connectRedis } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * console.log(await redis.command(["PING"])); // "PONG"
 * await redis.close();
 * ```
 *
 * @module
 */

import { backoffMs } from "./_backoff.ts";
import { storeOutage, StoreUnreachable } from "../tree/outage.ts";

/**
 * Options of {@linkcode connectRedis}: where Redis is, and the app's namespace
 * by name (`app`) or written out (`prefix`).
 *
 * @example
 * ```ts
 * import type { RedisOptions } from "@ramify/api/redis";
 *
 * const named: RedisOptions = { url: "redis://127.0.0.1:6379", app: "bookstore" };
 * const raw: RedisOptions = { url: "redis://127.0.0.1:6379", prefix: "" };
 * ```
 */
export type RedisOptions = RedisConnectionOptions & (RedisAppName | RedisPrefix);

/**
 * Where Redis is, and what to do while it is away.
 *
 * @example
 * ```ts
 * import type { RedisConnectionOptions } from "@ramify/api/redis";
 *
 * const connection: RedisConnectionOptions = { url: "redis://cache.internal:6379" };
 * ```
 */
export interface RedisConnectionOptions {
  /** The server, as `redis://host:port`. Default `redis://127.0.0.1:6379`; an empty one is refused. */
  readonly url?: string;
  /** Milliseconds the first connection may take before start fails. Default 5000. */
  readonly connectTimeoutMs?: number;
  /** Observes the connections' errors (while reconnecting, say). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The app's name, which makes the namespace `ramify:<app>:`.
 *
 * @example
 * ```ts
 * import type { RedisAppName } from "@ramify/api/redis";
 *
 * const bookstore: RedisAppName = { app: "bookstore" }; // keys ramify:bookstore:...
 * ```
 */
export interface RedisAppName {
  /** The name every instance of the app gives alike. */
  readonly app: string;
  /** Not with `app`: the prefix is made from it. */
  readonly prefix?: undefined;
}

/**
 * A namespace written out, in place of the app's.
 *
 * @example
 * ```ts
 * import type { RedisPrefix } from "@ramify/api/redis";
 *
 * const legacy: RedisPrefix = { prefix: "bookstore:" }; // keys bookstore:...
 * ```
 */
export interface RedisPrefix {
  /** Put before every key and channel (`""`: bare names, as other programs write them). */
  readonly prefix: string;
  /** Not with `prefix`. */
  readonly app?: undefined;
}

/**
 * A connected Redis: raw commands, scripts, a second connection for blocking
 * reads and subscriptions, and the app's namespace.
 *
 * @example
 * ```ts
 * import type { Redis } from "@ramify/api/redis";
 *
 * const counter = (redis: Redis) => redis.command<number>(["INCR", `${redis.prefix}hits`]);
 * ```
 */
export interface Redis {
  /** Put before every key and channel of the app. */
  readonly prefix: string;
  /** Whether the connection is up now. */
  readonly isReady: boolean;
  /** Sends one command; rejects at once while Redis is unreachable. */
  command<T = unknown>(args: readonly string[]): Promise<T>;
  /** Runs a Lua script (by its digest, loading it on first use). */
  script<T = unknown>(
    source: string,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<T>;
  /** Subscribes a channel (on a connection of its own); resolves with the way to stop. */
  subscribe(channel: string, deliver: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * A connection of its own, for a blocking command (`XREAD BLOCK`): it holds
   * its connection while it waits. Closed with this one.
   */
  dedicated(): Promise<Redis>;
  /** Closes this connection and every one made from it. */
  close(): Promise<void>;
}

/** What is used of a node-redis client. */
interface NodeRedisClient {
  connect(): Promise<unknown>;
  on(event: "error" | "ready", listener: (error: unknown) => void): unknown;
  sendCommand<T>(args: readonly string[]): Promise<T>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  destroy(): void;
  close?(): Promise<unknown>;
  readonly isReady: boolean;
}

type CreateClient = (options: Record<string, unknown>) => NodeRedisClient;

/**
 * Connects to Redis; resolves once the connection is up.
 *
 * @example
 * ```ts ignore
 * import { connectRedis } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: "redis://127.0.0.1:6379", app: "bookstore" });
 * await redis.close();
 * ```
 *
 * @throws {TypeError} for an empty URL, or when neither a non-empty `app` nor a `prefix` is given.
 * @throws {Error} when the `redis` package is not installed or Redis cannot be reached.
 */
export async function connectRedis(opts: RedisOptions): Promise<Redis> {
  const prefix = prefixOf(opts);
  const url = opts.url ?? "redis://127.0.0.1:6379";
  if (url.trim() === "") {
    throw new TypeError(
      "ramify: the Redis URL is empty: give redis://host:port, or leave it unset",
    );
  }
  const createClient = await loadClient();
  const timeoutMs = opts.connectTimeoutMs ?? 5000;
  const onError = opts.onError ?? (() => {});
  // Each connection (the main one, the subscriber, a dedicated reader) fails
  // fast while it has never been up, and waits Redis out once it has.
  const open = async (): Promise<NodeRedisClient> => {
    let connected = false;
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: timeoutMs,
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? backoffMs(retries) : cause,
      },
    });
    client.on("error", onError);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([client.connect(), deadline]);
    } catch (error) {
      quietly(() => client.destroy());
      throw new Error(`ramify: cannot reach Redis at ${safeUrl(url)}: ${messageOf(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
    connected = true;
    return client;
  };
  const main = await open();
  // Back after an outage: its one line says so (the first `ready` finds none).
  main.on("ready", () => storeOutage.reachable());
  return wrap(main, { prefix, open, dedicated: false });
}

/** node-redis's errors of a connection that is down or going (their `name` is "Error"). */
const OFFLINE = new Set([
  "ClientOfflineError",
  "ClientClosedError",
  "SocketClosedUnexpectedlyError",
  "ConnectionTimeoutError",
  "SocketTimeoutError",
  "ReconnectStrategyError",
  "DisconnectsClientError",
]);

/** Redis out of reach: a connection that could not be opened, or one that is down. */
function unreachable(error: unknown): StoreUnreachable {
  return new StoreUnreachable(`ramify: Redis is unreachable: ${messageOf(error)}`, {
    cause: error,
  });
}

interface Wrapping {
  readonly prefix: string;
  /** Opens another connection to the same Redis. */
  readonly open: () => Promise<NodeRedisClient>;
  /** A dedicated connection is closed at once, abandoning a blocking command. */
  readonly dedicated: boolean;
  /** Told when this connection closes (its parent stops holding it). */
  readonly closed?: () => void;
}

/** A connection as a `Redis`. */
function wrap(client: NodeRedisClient, { prefix, open, dedicated, closed }: Wrapping): Redis {
  const digests = new Map<string, string>();
  // A set: a dedicated connection per replay comes and goes, and must not pile up here.
  const children = new Set<Redis>();
  let subscriber: Promise<NodeRedisClient> | undefined;
  // A reply Redis gave (a script's error, WRONGTYPE) is passed on as it is.
  const lost = (error: unknown): never => {
    const offline = !client.isReady ||
      (error instanceof Error && OFFLINE.has(error.constructor.name));
    throw offline ? unreachable(error) : error;
  };
  return {
    prefix,
    get isReady() {
      return client.isReady;
    },
    command: <T>(args: readonly string[]) => client.sendCommand<T>(args).catch(lost),
    script<T>(source: string, keys: readonly string[], args: readonly string[]) {
      return run<T>(source, keys, args).catch(lost);
    },
    async subscribe(channel, deliver) {
      subscriber ??= open();
      // A subscriber that could not connect is tried again next time.
      const connection = await subscriber.catch((error) => {
        subscriber = undefined;
        throw unreachable(error);
      });
      const listener = (message: string) => deliver(message);
      await connection.subscribe(channel, listener).catch(lost);
      return async () => {
        await connection.unsubscribe(channel, listener);
      };
    },
    async dedicated() {
      const opened = await open().catch((error) => {
        throw unreachable(error);
      });
      const child: Redis = wrap(opened, {
        prefix,
        open,
        dedicated: true,
        closed: () => children.delete(child),
      });
      children.add(child);
      return child;
    },
    async close() {
      closed?.();
      const own = subscriber;
      subscriber = undefined;
      await Promise.allSettled([
        ...[...children].map((child) => child.close()),
        own?.then(end),
        dedicated ? quietly(() => client.destroy()) : end(client),
      ]);
    },
  };

  async function run<T>(
    source: string,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<T> {
    const load = async () => {
      const digest = await client.sendCommand<string>(["SCRIPT", "LOAD", source]);
      digests.set(source, digest);
      return digest;
    };
    const call = (sha: string) =>
      client.sendCommand<T>(["EVALSHA", sha, String(keys.length), ...keys, ...args]);
    try {
      return await call(digests.get(source) ?? await load());
    } catch (error) {
      // Redis restarted empty: its script cache went with it.
      if (!messageOf(error).startsWith("NOSCRIPT")) throw error;
      return await call(await load());
    }
  }
}

async function loadClient(): Promise<CreateClient> {
  try {
    // Named at run time: `redis` is an optional peer, typed here by what is used.
    const onDeno = typeof (globalThis as { Deno?: unknown }).Deno === "object";
    const name = onDeno ? "npm:redis@^5.8.0" : "redis";
    return (await import(name) as { createClient: CreateClient }).createClient;
  } catch (error) {
    throw new Error("ramify: Redis needs the redis package (npm i redis)", { cause: error });
  }
}

/**
 * The app's namespace. No default: a guessed name (the entry file, the
 * directory) could split one app's instances apart and lose their state
 * silently, and one shared default would let every app see every other.
 */
function prefixOf(opts: RedisOptions | undefined): string {
  if (typeof opts?.prefix === "string") return opts.prefix;
  if (typeof opts?.app === "string" && opts.app !== "") return `ramify:${opts.app}:`;
  throw new TypeError(
    'ramify: Redis needs the app whose state it keeps, to keep it apart from other apps on the same Redis: { url, app: "bookstore" } (keys ramify:bookstore:...), or a prefix of your own',
  );
}

/** The URL without its password, for messages. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.href;
  } catch {
    return JSON.stringify(url);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function end(client: NodeRedisClient): Promise<void> {
  try {
    await (client.close?.() ?? Promise.resolve());
  } catch {
    quietly(() => client.destroy());
  }
}

/** Ends a client that may be closed already (then it throws so). */
function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // Already closed.
  }
}
