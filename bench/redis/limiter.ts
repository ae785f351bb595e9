/**
 * The rate limiter's cost per request: a router answering `GET /ping` in
 * process (no sockets between client and server, so the limiter's share shows)
 * with no limit, with `tokenBucket`, and with `redisRateLimiter` on a real
 * redis-server on a free port (Debian package), one request at a time and 64
 * at once; then the Redis limiter alone (`decide` round trips per second).
 * Prints requests/s and µs per request, median of rounds.
 *
 *   deno run -A bench/redis/limiter.ts [rounds=5] [requests=20000]
 *
 * @module
 */

import { api, op } from "@ramify/api/tree";
import { createFetch, rateLimit, type RateLimiter, tokenBucket } from "@ramify/api/http";
import { connectRedis, redisRateLimiter } from "@ramify/api/redis";
import { startRedis } from "../redis_server.ts";

const rounds = Number(Deno.args[0] ?? 5);
const requests = Number(Deno.args[1] ?? 20_000);
const KEYS = 1000;

const server = await startRedis();
const redis = await connectRedis({ url: server.url, app: "bench" });

const tree = api({ ping: op(() => "pong") });
// Limits no request ever reaches: every one is allowed, as in normal traffic.
const roomy = { limit: 1_000_000_000, windowMs: 3_600_000 };
const handlers: [string, (request: Request) => Promise<Response>][] = [
  ["no limit", createFetch(tree)],
  ["tokenBucket", withLimit(tokenBucket({ capacity: 1e9, refillPerSecond: 1e6 }))],
  ["redisRateLimiter", withLimit(redisRateLimiter(redis, roomy))],
];

function withLimit(limiter: RateLimiter) {
  return createFetch(tree, {
    policies: [rateLimit({ limiter, key: (request) => request.headers.get("x-client")! })],
  });
}

const requestOf = (i: number) =>
  new Request("http://x/ping", { headers: { "x-client": `client-${i % KEYS}` } });

/** Requests per second through `handler`, `concurrency` in flight. */
async function rate(
  call: (i: number) => Promise<unknown>,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < requests) await call(next++);
  }));
  return requests / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const show = (name: string, perSecond: number) =>
  console.log(
    `${name.padEnd(44)} ${Math.round(perSecond).toLocaleString("en").padStart(10)} req/s  ${
      (1e6 / perSecond).toFixed(1).padStart(7)
    } µs/req`,
  );

for (const concurrency of [1, 64]) {
  for (const [name, handler] of handlers) {
    const call = async (i: number) => await (await handler(requestOf(i))).text();
    await rate(call, concurrency); // warm-up
    const results = [];
    for (let round = 0; round < rounds; round++) results.push(await rate(call, concurrency));
    show(`router, ${name}, ${concurrency} at once`, median(results));
  }
}
const limiter = redisRateLimiter(redis, roomy);
for (const concurrency of [1, 64]) {
  const call = async (i: number) => await limiter.decide(`client-${i % KEYS}`);
  await rate(call, concurrency);
  const results = [];
  for (let round = 0; round < rounds; round++) results.push(await rate(call, concurrency));
  show(`redisRateLimiter.decide alone, ${concurrency} at once`, median(results));
}

await redis.close();
await server.stop();
