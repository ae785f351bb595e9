/**
 * `createPubSub()`: publish and subscribe by topic, typed, over a bus (in
 * memory by default, Redis with `redisBus`), so that an event published in one
 * process reaches subscribers in every process. `subscribe` gives an async
 * iterable a streaming leaf returns as it is: SSE, GraphQL subscriptions, MCP
 * and the command line then fan out the same way.
 *
 * - Delivery is at most once: a message published while a process is cut
 *   from the bus (Redis restarting, say) is not delivered there later.
 * - Each subscriber has a bounded queue (`bufferSize`, default 256). A
 *   subscriber that does not keep up never makes the process buffer without
 *   bound: by default the oldest waiting message is dropped (`overflow:
 *   "drop-oldest"`, counted in `dropped`); with `overflow: "close"` the
 *   subscription ends with a `SubscriptionOverflowError` instead.
 * - Payloads travel as JSON, in memory as through Redis, so a subscriber gets
 *   the same values whichever bus carries them: a topic's schema revives the
 *   dates it declares (`z.date()`); without one a subscriber is typed with the
 *   JSON form it receives (a `Date` arrives as its ISO text).
 * - A topic is subscribed on the bus while it has local subscribers, and
 *   released when the last one leaves (ends its loop, or its signal aborts).
 *
 * @example
 * ```ts
 * import { createPubSub } from "@ramify/api/pubsub";
 *
 * const pubsub = createPubSub<{ "books.added": { id: string; title: string } }>();
 * const events = pubsub.subscribe("books.added");
 * await pubsub.publish("books.added", { id: "1", title: "Dune" });
 * for await (const book of events) {
 *   console.log(book.title); // "Dune"
 *   break;
 * }
 * await pubsub.close();
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type DatePath, type JsonOf, reviveDates } from "../tree/dates.ts";
import { datePathsOf } from "../tree/schema.ts";
import { HttpError } from "../tree/http_error.ts";
import type { PositionedSource } from "../tree/stream_events.ts";
import { memoryBus, type PubSubBus } from "./bus.ts";
import { isEventId } from "./streams.ts";
import { type Catching, type Sink, subscriptionQueue } from "./_subscription.ts";

/** The failure of a subscription whose bus cannot be reached. */
function unavailable(cause: unknown): HttpError {
  return new HttpError(503, "The events cannot be read now; subscribe again later", { cause });
}

/** Events asked of a bus per replay round trip. */
const REPLAY_PAGE = 500;

/**
 * Options of {@linkcode createPubSub}.
 *
 * @example
 * ```ts
 * import type { PubSubOptions } from "@ramify/api/pubsub";
 *
 * const opts: PubSubOptions = { bufferSize: 64, overflow: "close" };
 * ```
 */
export interface PubSubOptions<
  S extends Readonly<Record<string, StandardSchemaV1>> = Record<never, never>,
> {
  /** The transport. Default: in memory (this process only). */
  readonly bus?: PubSubBus;
  /**
   * Schemas of the topics' payloads: checked when published, typing the
   * topics, and reviving on delivery the dates they declare.
   */
  readonly topics?: S;
  /** Messages a subscriber may have waiting. Default 256. */
  readonly bufferSize?: number;
  /** What a full queue does: drop its oldest message, or end the subscription. Default `"drop-oldest"`. */
  readonly overflow?: "drop-oldest" | "close";
}

/**
 * Options of one subscription.
 *
 * @example
 * ```ts
 * import type { SubscribeOptions } from "@ramify/api/pubsub";
 *
 * const opts: SubscribeOptions<{ author: string }> = { filter: (book) => book.author === "Le Guin" };
 * ```
 */
export interface SubscribeOptions<T> {
  /** Only the payloads it accepts are delivered. */
  readonly filter?: (payload: T) => boolean;
  /** Ends the subscription when it aborts (a handler's `ctx.signal`). */
  readonly signal?: AbortSignal;
  /**
   * The id of the last event the subscriber got (a leaf's `lastEventId`
   * input): on a bus that keeps events, every event published after it comes
   * first, then the live ones, each once; an id past what the bus keeps (or
   * on a bus that keeps none) is told as a gap, never skipped silently.
   */
  readonly lastEventId?: string;
  /** Ends the subscription after this many payloads. Default: it goes on. */
  readonly limit?: number;
}

/**
 * A subscription: an async iterable of payloads, and what it dropped. A leaf
 * that returns it streams each payload with its id (on a bus that keeps
 * events) and a gap where messages were lost, on every surface.
 *
 * @example
 * ```ts
 * import type { Subscription } from "@ramify/api/pubsub";
 *
 * const dropped = (subscription: Subscription<number>) => subscription.dropped;
 * ```
 */
export interface Subscription<T> extends AsyncIterableIterator<T>, PositionedSource {
  /** Messages dropped because this subscriber fell behind. */
  readonly dropped: number;
}

/**
 * A typed publish/subscribe: `T` is what each topic publishes, `R` what its
 * subscribers receive (by default the JSON form of `T`, as payloads travel).
 *
 * @example
 * ```ts
 * import { createPubSub, type PubSub } from "@ramify/api/pubsub";
 *
 * const pubsub: PubSub<{ tick: { at: Date } }> = createPubSub<{ tick: { at: Date } }>();
 * const ticks = pubsub.subscribe("tick");
 * await pubsub.publish("tick", { at: new Date(0) });
 * for await (const tick of ticks) {
 *   const at: string = tick.at; // "1970-01-01T00:00:00.000Z": no schema revives it
 *   break;
 * }
 * await pubsub.close();
 * ```
 */
export interface PubSub<
  T extends Record<string, unknown>,
  R extends Readonly<Record<keyof T, unknown>> = JsonTopics<T>,
> {
  /** Sends a payload to the topic's subscribers everywhere the bus reaches. */
  publish<K extends keyof T & string>(topic: K, payload: T[K]): Promise<void>;
  /** Subscribes: an async iterable of the topic's payloads from now on. */
  subscribe<K extends keyof T & string>(
    topic: K,
    opts?: SubscribeOptions<R[K]>,
  ): Subscription<R[K]>;
  /** Local subscribers of a topic (or of all topics). */
  subscribers(topic?: keyof T & string): number;
  /** Ends every subscription and releases the bus. */
  close(): Promise<void>;
}

/**
 * What the subscribers of topics typed without a schema receive: each
 * payload's JSON form (a `Date` is its ISO text).
 *
 * @example
 * ```ts
 * import type { JsonTopics } from "@ramify/api/pubsub";
 *
 * const received: JsonTopics<{ tick: { at: Date } }>["tick"] = { at: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export type JsonTopics<T> = { [K in keyof T]: JsonOf<T[K]> };

/**
 * A subscription that fell behind with `overflow: "close"`.
 *
 * @example
 * ```ts
 * import { SubscriptionOverflowError } from "@ramify/api/pubsub";
 *
 * console.log(new SubscriptionOverflowError("news", 256).message);
 * ```
 */
export class SubscriptionOverflowError extends Error {
  /**
   * @param topic the topic subscribed
   * @param bufferSize the queue's bound
   */
  constructor(topic: string, bufferSize: number) {
    super(`The subscriber of ${topic} fell more than ${bufferSize} messages behind`);
    this.name = "SubscriptionOverflowError";
  }
}

/** What a schema's topics publish: each schema's input. */
type PublishedOf<S> = {
  [K in keyof S]: S[K] extends StandardSchemaV1<infer I, infer _O> ? I : never;
};

/** What a schema's topics deliver: each schema's output through JSON, its dates revived. */
type RevivedOf<S> = {
  [K in keyof S]: S[K] extends StandardSchemaV1<infer _I, infer O> ? JsonOf<O, Date> : never;
};

/** The pub/sub of topics typed by `T` and by the schemas `S`. */
type PubSubOf<T extends Record<string, unknown>, S> = [keyof S] extends [never] ? PubSub<T>
  : PubSub<
    PublishedOf<S> & T,
    RevivedOf<S> & JsonTopics<Omit<T, keyof S>> & Record<keyof T, unknown>
  >;

/**
 * Makes a pub/sub. Topics are typed by the type argument, or by `topics`'
 * schemas; a schema's dates arrive as `Date`s, in memory as through Redis.
 *
 * @example
 * ```ts
 * import { createPubSub } from "@ramify/api/pubsub";
 * import { z } from "zod";
 *
 * const pubsub = createPubSub({ topics: { "books.added": z.object({ id: z.string() }) } });
 * await pubsub.publish("books.added", { id: "7" });
 *
 * const stamped = createPubSub({ topics: { tick: z.object({ at: z.date() }) } });
 * const ticks = stamped.subscribe("tick");
 * await stamped.publish("tick", { at: new Date(0) });
 * for await (const tick of ticks) {
 *   const at: Date = tick.at; // revived by the schema
 *   break;
 * }
 * await stamped.close();
 *
 * const wrong = { id: 7 };
 * // @ts-expect-error the payload must fit the schema (and is refused at run time too)
 * await pubsub.publish("books.added", wrong).catch((error) => console.log(error.name)); // "TypeError"
 * await pubsub.close();
 * ```
 *
 * @throws {RangeError} for a `bufferSize` that is not a positive integer.
 */
export function createPubSub<
  T extends Record<string, unknown> = Record<string, unknown>,
  S extends Readonly<Record<string, StandardSchemaV1>> = Record<never, never>,
>(opts: PubSubOptions<S> = {}): PubSubOf<T, S> {
  const bus = opts.bus ?? memoryBus();
  const bufferSize = opts.bufferSize ?? 256;
  if (!Number.isInteger(bufferSize) || bufferSize < 1) {
    throw new RangeError(`createPubSub: bufferSize must be a positive integer, got ${bufferSize}`);
  }
  const overflow = opts.overflow ?? "drop-oldest";
  const schemas: Readonly<Record<string, StandardSchemaV1>> = opts.topics ?? {};
  const topics = new Map<string, Topic>();

  interface Topic {
    readonly name: string;
    readonly local: Set<Sink>;
    /** Where the topic's schema puts dates, to revive in what arrives as JSON. */
    readonly dates: readonly DatePath[];
    /** The bus subscription: resolves with its stop once it is in place. */
    readonly stop: Promise<() => Promise<void>>;
  }

  // A message that is not JSON is skipped: `undefined`, which JSON never gives.
  const payloadOf = (topic: Topic, message: string): unknown => {
    try {
      const payload = JSON.parse(message);
      return topic.dates.length > 0 ? reviveDates(payload, topic.dates) : payload;
    } catch {
      return undefined;
    }
  };

  const deliver = (name: string) => (message: string, id?: string) => {
    const topic = topics.get(name);
    if (topic === undefined) return;
    const payload = payloadOf(topic, message);
    if (payload === undefined) return;
    for (const sink of [...topic.local]) sink.push(payload, id);
  };

  const join = (name: string, sink: Sink): Topic => {
    let topic = topics.get(name);
    if (topic === undefined) {
      const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
      const local = new Set<Sink>();
      topic = {
        name,
        local,
        dates: schema === undefined ? [] : datePathsOf(schema, "output"),
        stop: bus.subscribe(name, deliver(name), () => {
          for (const each of [...local]) each.gap();
        }),
      };
      const joined = topic;
      // The bus could not subscribe (Redis unreachable): its subscribers are told, not left waiting.
      topic.stop.catch((error) => {
        if (topics.get(name) === joined) topics.delete(name);
        for (const each of [...local]) each.end(unavailable(error));
      });
      topics.set(name, topic);
    }
    topic.local.add(sink);
    return topic;
  };

  const leave = (name: string, sink: Sink) => {
    const topic = topics.get(name);
    if (topic === undefined || !topic.local.delete(sink) || topic.local.size > 0) return;
    topics.delete(name);
    topic.stop.then((stop) => stop()).catch(() => {});
  };

  /**
   * Gives a resuming subscriber what it missed: the replay starts once the
   * live subscription is in place, so that nothing falls between the two.
   */
  const catchUp = async (topic: Topic, lastEventId: string, catching: Catching, sink: Sink) => {
    try {
      await topic.stop;
      if (bus.replay === undefined || !isEventId(lastEventId)) {
        catching.gap(lastEventId);
      } else {
        let after = lastEventId;
        while (!catching.done) {
          const page = await bus.replay(topic.name, after, REPLAY_PAGE);
          if (page.gap) catching.gap(lastEventId);
          for (const { id, message } of page.events) {
            const payload = payloadOf(topic, message);
            if (payload !== undefined) catching.replayed(payload, id);
          }
          if (page.events.length < REPLAY_PAGE) break;
          after = page.events.at(-1)!.id;
        }
      }
      catching.caughtUp();
    } catch (error) {
      sink.end(unavailable(error));
    }
  };

  const pubsub = {
    async publish(name: string, payload: unknown): Promise<void> {
      let value = payload;
      const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
      if (schema !== undefined) {
        const result = await schema["~standard"].validate(payload);
        if (result.issues !== undefined) {
          throw new TypeError(
            `publish(${JSON.stringify(name)}): the payload does not fit the topic's schema: ${
              result.issues.map((issue) => issue.message).join("; ")
            }`,
          );
        }
        value = result.value;
      }
      const message = JSON.stringify(value);
      if (message === undefined) {
        throw new TypeError(`publish(${JSON.stringify(name)}): the payload has no JSON form`);
      }
      await bus.publish(name, message);
    },
    subscribe(name: string, options: SubscribeOptions<unknown> = {}): Subscription<unknown> {
      const limit = options.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
        throw new RangeError(`subscribe: limit must be a positive integer, got ${limit}`);
      }
      const onAbort = () => sink.end();
      const { sink, catching, iterator } = subscriptionQueue({
        topic: name,
        bufferSize,
        overflow,
        filter: options.filter,
        limit,
        lastEventId: options.lastEventId,
        overflowError: () => new SubscriptionOverflowError(name, bufferSize),
        onEnd: () => {
          leave(name, sink);
          options.signal?.removeEventListener("abort", onAbort);
        },
      });
      if (options.signal?.aborted === true) {
        sink.end();
        return iterator;
      }
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const topic = join(name, sink);
      if (options.lastEventId !== undefined) {
        catchUp(topic, options.lastEventId, catching, sink);
      }
      return iterator;
    },
    subscribers(name?: string): number {
      if (name !== undefined) return topics.get(name)?.local.size ?? 0;
      let total = 0;
      for (const topic of topics.values()) total += topic.local.size;
      return total;
    },
    async close(): Promise<void> {
      for (const topic of [...topics.values()]) {
        for (const sink of [...topic.local]) sink.end();
      }
      await bus.close();
    },
  };
  return pubsub as unknown as PubSubOf<T, S>;
}
