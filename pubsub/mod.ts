/**
 * Publish/subscribe for streaming leaves: `createPubSub()` with typed topics
 * over a bus, in memory by default; `redisStreams` and `redisBus` from
 * `@ramify/api/redis` carry it between instances (resumable, or at most
 * once). A leaf returns `pubsub.subscribe(topic)` and
 * every surface streams it.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { z } from "zod";
 *
 * const pubsub = createPubSub<{ "books.added": { title: string } }>();
 * const tree = api({
 *   books: api({
 *     add: op(async ({ title }) => {
 *       await pubsub.publish("books.added", { title });
 *       return { title };
 *     }, { input: z.object({ title: z.string() }) }),
 *     events: op((_input, ctx) => pubsub.subscribe("books.added", { signal: ctx.signal }), {
 *       tags: { streaming: true },
 *     }),
 *   }),
 * });
 * ```
 *
 * @module
 */

export { createPubSub, SubscriptionOverflowError } from "./pubsub.ts";
export type {
  JsonTopics,
  PubSub,
  PubSubOptions,
  SubscribeOptions,
  Subscription,
} from "./pubsub.ts";
export { memoryBus } from "./bus.ts";
export type { BusEvent, PubSubBus, Replay } from "./bus.ts";
export { compareEventIds, isEventId, memoryStreams } from "./streams.ts";
export type { Retention } from "./streams.ts";
