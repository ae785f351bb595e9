/**
 * The pub/sub benchmark: events per second through Redis to 1,000 subscribers
 * in two processes (500 each), published from this one; redis-server on a free
 * port (Debian package). Prints events/s and deliveries/s, median of rounds.
 *
 *   deno run -A bench/pubsub/run.ts [rounds=3] [events=2000]
 *
 * @module
 */

import { createPubSub } from "@ramify/api/pubsub";
import { connectRedis, redisBus } from "@ramify/api/redis";
import { startRedis } from "../redis_server.ts";

const rounds = Number(Deno.args[0] ?? 3);
const events = Number(Deno.args[1] ?? 2000);
const perProcess = 500;
const here = new URL("./", import.meta.url).pathname;

const redis = await startRedis();
const url = redis.url;
const connection = await connectRedis({ url, app: "bench" });
const publisher = createPubSub<{ bench: number }>({ bus: redisBus(connection) });

async function lines(child: Deno.ChildProcess, onLine: (line: string) => void) {
  for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
    for (const line of text.split("\n")) if (line !== "") onLine(line);
  }
}

const results: { eventsPerSecond: number; deliveriesPerSecond: number }[] = [];
for (let round = 0; round < rounds; round++) {
  const children = [0, 1].map(() =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${here}subscribers.ts`, url, String(perProcess), String(events)],
      stdout: "piped",
    }).spawn()
  );
  let ready = 0;
  const done: number[] = [];
  const reading = children.map((child) =>
    lines(child, (line) => {
      if (line === "ready") ready++;
      else if (line.startsWith("done ")) done.push(Number(line.slice(5)));
    })
  );
  while (ready < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  for (let n = 0; n < events; n++) await publisher.publish("bench", n);
  await Promise.all(reading);
  for (const child of children) await child.status;
  const seconds = (performance.now() - started) / 1000;
  results.push({
    eventsPerSecond: events / seconds,
    deliveriesPerSecond: (events * perProcess * 2) / seconds,
  });
}
await publisher.close();
await connection.close();
await redis.stop();
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `${events} events to ${perProcess * 2} subscribers in 2 processes: ${
    median(results.map((r) => r.eventsPerSecond)).toFixed(0)
  } events/s, ${
    median(results.map((r) => r.deliveriesPerSecond)).toFixed(0)
  } deliveries/s (median of ${rounds})`,
);
