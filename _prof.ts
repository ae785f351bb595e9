import { ramify, requests } from "./bench/serve/apps.ts";
const handle = ramify();
const route = Deno.args[0] as keyof typeof requests;
for (let i = 0; i < 200_000; i++) {
  const r = await handle(requests[route]());
  await r.arrayBuffer();
}
