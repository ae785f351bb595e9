/**
 * The transport under a pub/sub: where messages go between processes. The
 * in-memory bus delivers inside this process only; `redisBus` (from
 * `@ramify/api/pubsub/redis`) through Redis, to every process.
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
  /** Calls `deliver` with each message of the topic; resolves with the way to stop. */
  subscribe(topic: string, deliver: (message: string) => void): Promise<() => Promise<void>>;
  /** Releases the bus's connections. */
  close(): Promise<void>;
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
