/**
 * The transport under a pub/sub: where messages go between processes. The
 * in-memory buses deliver inside this process only; `redisBus` and
 * `redisStreams` (from `@ramify/api/redis`) through Redis, to every instance.
 *
 * @example
 * ```ts
 * import { memoryBus } from "@ramify/api/pubsub";
 *
 * const bus = memoryBus();
 * const stop = await bus.subscribe("news", (message) => console.log(message));
 * await bus.publish("news", '"hello"'); // logs "hello" (the JSON text)
 * await stop();
 * ```
 *
 * @module
 */

/**
 * A message transport by topic, with messages as text. A pub/sub subscribes a
 * topic on its bus once, when the topic's first local subscriber arrives, and
 * unsubscribes when the last one leaves.
 *
 * A bus that keeps events (`memoryStreams`, `redisStreams`) gives each
 * message an id that means the same on every instance, and can `replay` what
 * followed an id: a subscriber resuming from its last id then gets every
 * event it missed. One that does not (`memoryBus`, `redisBus`) delivers at
 * most once.
 *
 * @example
 * ```ts
 * import type { PubSubBus } from "@ramify/api/pubsub";
 *
 * const silent: PubSubBus = {
 *   publish: () => Promise.resolve(),
 *   subscribe: () => Promise.resolve(() => Promise.resolve()),
 *   close: () => Promise.resolve(),
 * };
 * ```
 */
export interface PubSubBus {
  /** Sends a message to every subscriber of the topic, in every process the bus reaches. */
  publish(topic: string, message: string): Promise<void>;
  /**
   * Calls `deliver` with each message of the topic (and its id, on a bus that
   * keeps events), from now on; `gap`, when the bus lost messages it should
   * have delivered. Resolves, with the way to stop, once messages published
   * from then on are sure to be delivered.
   */
  subscribe(
    topic: string,
    deliver: (message: string, id?: string) => void,
    gap?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * On a bus that keeps events: up to `count` of the topic's messages
   * published after `lastEventId`, oldest first.
   */
  replay?(topic: string, lastEventId: string, count: number): Promise<Replay>;
  /** Releases the bus's connections. */
  close(): Promise<void>;
}

/**
 * What {@linkcode PubSubBus.replay} finds after an id.
 *
 * @example
 * ```ts
 * import type { Replay } from "@ramify/api/pubsub";
 *
 * const caughtUp: Replay = { gap: false, events: [] };
 * ```
 */
export interface Replay {
  /**
   * Some messages after the id are no longer kept (then `events` start at
   * the oldest message kept), or the id is none the topic gave (then there
   * are no `events`: the subscriber goes on from now).
   */
  readonly gap: boolean;
  /** The messages, oldest first. */
  readonly events: readonly BusEvent[];
}

/**
 * A message a bus kept, with its id.
 *
 * @example
 * ```ts
 * import type { BusEvent } from "@ramify/api/pubsub";
 *
 * const event: BusEvent = { id: "1700000000000-0", message: '{"title":"Dune"}' };
 * ```
 */
export interface BusEvent {
  readonly id: string;
  readonly message: string;
}

/**
 * The in-process bus: delivery to this process's subscribers, synchronous.
 *
 * @example
 * ```ts
 * import { createPubSub, memoryBus } from "@ramify/api/pubsub";
 *
 * const pubsub = createPubSub<{ tick: number }>({ bus: memoryBus() });
 * ```
 */
export function memoryBus(): PubSubBus {
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    publish(topic, message) {
      for (const deliver of [...(listeners.get(topic) ?? [])]) deliver(message);
      return Promise.resolve();
    },
    subscribe(topic, deliver) {
      let set = listeners.get(topic);
      if (set === undefined) listeners.set(topic, set = new Set());
      const own = (message: string) => deliver(message);
      set.add(own);
      return Promise.resolve(() => {
        set.delete(own);
        if (set.size === 0) listeners.delete(topic);
        return Promise.resolve();
      });
    },
    close() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
