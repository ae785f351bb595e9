// One process of the pub/sub benchmark: `count` subscribers of one topic over
// redisBus; prints "ready" once subscribed, then "done <ms>" when every
// subscriber has received `events` messages (ms from the first message).
//   deno run -A bench/pubsub/subscribers.ts <redis-url> <count> <events>
import { createPubSub } from "@ramify/api/pubsub";
import { connectRedis, redisBus } from "@ramify/api/redis";

const [url, countText, eventsText] = Deno.args;
const count = Number(countText);
const events = Number(eventsText);
const redis = await connectRedis({ url, app: "bench" });
const pubsub = createPubSub<{ bench: number }>({ bus: redisBus(redis), bufferSize: events });
let first = 0;
const finished = Array.from({ length: count }, async () => {
  let seen = 0;
  for await (const _ of pubsub.subscribe("bench")) {
    if (first === 0) first = performance.now();
    if (++seen === events) break;
  }
});
// The Redis SUBSCRIBE goes out with the first local subscriber; give it a moment.
await new Promise((resolve) => setTimeout(resolve, 300));
console.log("ready");
await Promise.all(finished);
console.log(`done ${(performance.now() - first).toFixed(1)}`);
await pubsub.close();
await redis.close();
