// One contender of the serving benchmark on Bun.serve, the same handlers as
// on Deno (apps.ts). Bun resolves `@ramify/api`, `hono` and `zod` from a
// project that installed the npm build:
//   deno task build:npm && mkdir /tmp/bunbench && cd /tmp/bunbench \
//     && npm i bun@1 zod@4 hono@4 @orpc/server@1 @orpc/openapi@1 /path/to/ramify/npm \
//     && cp /path/to/ramify/bench/serve/{apps,bun_server}.ts . \
//     && taskset -c 0 npx bun bun_server.ts <floor|floorAsync|bare|hono|orpc|ramify> <port>
// then wrk pinned to CPU 1 as bench/serve/run.ts does.
import { contender } from "./apps.ts";

const [name, port] = (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(
  2,
);
const handler = contender(name);
if (handler === undefined) throw new Error(`no contender ${name}`);
const bun = (globalThis as unknown as {
  Bun: { serve(options: { port: number; hostname: string; fetch: unknown }): unknown };
}).Bun;
bun.serve({ port: Number(port), hostname: "127.0.0.1", fetch: handler });
