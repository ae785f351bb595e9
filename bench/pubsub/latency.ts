/**
 * Delivery through Redis, at most once (`redisBus`, pub/sub) against
 * resumable (`redisStreams`, Redis Streams): events per second published one
 * after another, and the delay from publish to delivery (p50, p99) at a
 * subscriber on another connection, as on another instance. Rounds of the two
 * buses interleaved; redis-server on a free port (Debian package).
 *
 *   deno run -A bench/pubsub/latency.ts [rounds=5] [events=5000]
 *
 * @module
 */

import { createPubSub, type PubSubBus } from "@ramify/api/pubsub";
import { connectRedis, type Redis, redisBus, redisStreams } from "@ramify/api/redis";
import { startRedis } from "../redis_server.ts";

const rounds = Number(Deno.args[0] ?? 5);
const events = Number(Deno.args[1] ?? 5000);

const server = await startRedis();
const url = server.url;
const [a, b] = [
  await connectRedis({ url, app: "bench" }),
  await connectRedis({ url, app: "bench" }),
];

interface Round {
  readonly eventsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
}

async function round(bus: (redis: Redis) => PubSubBus, topic: string): Promise<Round> {
  const publisher = createPubSub<Record<string, number>>({ bus: bus(a) });
  const subscriber = createPubSub<Record<string, number>>({ bus: bus(b), bufferSize: events });
  const delays: number[] = [];
  const subscription = subscriber.subscribe(topic);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const receiving = (async () => {
    for await (const sent of subscription) {
      delays.push(performance.now() - (sent as number));
      if (delays.length === events) break;
    }
  })();
  const started = performance.now();
  for (let n = 0; n < events; n++) await publisher.publish(topic, performance.now());
  const seconds = (performance.now() - started) / 1000;
  await receiving;
  await publisher.close();
  await subscriber.close();
  delays.sort((x, y) => x - y);
  return {
    eventsPerSecond: events / seconds,
    p50: delays[Math.floor(events * 0.5)],
    p99: delays[Math.floor(events * 0.99)],
  };
}

const results: Record<string, Round[]> = { "pub/sub (redisBus)": [], "Streams (redisStreams)": [] };
for (let r = 0; r < rounds; r++) {
  results["pub/sub (redisBus)"].push(await round(redisBus, `pubsub-${r}`));
  results["Streams (redisStreams)"].push(
    await round((redis) => redisStreams(redis), `streams-${r}`),
  );
}
await a.close();
await b.close();
await server.stop();

const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
console.log(
  `${events} events, one publisher, one subscriber on another connection, median of ${rounds}:`,
);
for (const [name, list] of Object.entries(results)) {
  console.log(
    `${name.padEnd(24)} ${
      median(list.map((x) => x.eventsPerSecond)).toFixed(0).padStart(6)
    } events/s` +
      `  p50 ${median(list.map((x) => x.p50)).toFixed(2)} ms  p99 ${
        median(list.map((x) => x.p99)).toFixed(2)
      } ms`,
  );
}
