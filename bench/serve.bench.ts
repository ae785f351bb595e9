// In process, per request: the floor, the bare handler, Hono, oRPC and ramify
// on the same three routes (bench/serve/apps.ts), the response body read each
// time.
import { bare, floor, hono, orpc, ramify, requests } from "./serve/apps.ts";

const contenders = { floor, bare, hono: hono(), orpc: orpc(), ramify: ramify() };

for (const [route, make] of Object.entries(requests)) {
  for (const [name, handle] of Object.entries(contenders)) {
    Deno.bench({
      name: `${route}: ${name}`,
      group: route,
      baseline: name === "bare",
      async fn() {
        const response = await handle(make());
        await response.arrayBuffer();
      },
    });
  }
}
