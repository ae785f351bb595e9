/**
 * Every piece of server state on Redis, on one connection (`connectRedis`,
 * over the node-redis client: the `redis` package, an optional peer):
 * events that resume anywhere (`redisStreams`) or at most once (`redisBus`),
 * rate limits (`redisRateLimiter`), idempotency records
 * (`redisIdempotency`), MCP sessions and cancellations (`redisMcpSessions`,
 * `redisMcpCancellations`), MCP call streams' events (`redisMcpEvents`) and
 * the tasks of long-running leaves (`redisTasks`). Each store has an in-memory default for one
 * process; these make a service of several instances behind a balancer
 * behave as one. docs/deploy.md says what each holds and what happens when
 * Redis goes away.
 *
 * @example
 * ```ts ignore
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { connectRedis, redisStreams } from "@ramify/api/redis";
 *
 * const redis = await connectRedis({ url: Deno.env.get("REDIS_URL"), app: "bookstore" });
 * const pubsub = createPubSub<{ "books.added": { id: string } }>({ bus: redisStreams(redis) });
 * ```
 *
 * @module
 */

export { connectRedis } from "./connection.ts";
export type {
  Redis,
  RedisAppName,
  RedisConnectionOptions,
  RedisOptions,
  RedisPrefix,
} from "./connection.ts";
export { redisBus } from "./bus.ts";
export { redisStreams } from "./streams.ts";
export { redisIdempotency } from "./idempotency.ts";
export type { RedisIdempotencyOptions } from "./idempotency.ts";
export { redisMcpCancellations, redisMcpSessions } from "./mcp_sessions.ts";
export type { RedisMcpCancellationsOptions, RedisMcpSessionsOptions } from "./mcp_sessions.ts";
export { redisMcpEvents } from "./mcp_events.ts";
export type { RedisMcpEventsOptions } from "./mcp_events.ts";
export { redisRateLimiter } from "./rate_limit.ts";
export type { RedisRateLimiterOptions } from "./rate_limit.ts";
export { redisTasks } from "./tasks.ts";
export type { RedisTasksOptions } from "./tasks.ts";
