/**
 * The serving benchmark as instruction counts: each contender (apps.ts) under
 * valgrind's callgrind, a fixed number of requests per route after a warm-up,
 * and the user-space instructions the server ran per request, the median of
 * three servers. Unlike time, the count does not move with the neighbours of
 * a shared machine: on Deno the server runs V8 single-threaded, and the same
 * code and requests give the same count within a few instructions, so a
 * change of a fraction of a percent can be seen. The kernel's part (sockets,
 * loopback) is not counted; under wrk (`run.ts`) the ratios of CPU time per
 * request have followed the ratios of these counts.
 *
 *   deno run -A bench/serve/count.ts [requests=10000]
 *     [contenders=floor,floorAsync,bare,hono,ramify] [servers=3] [bun project]
 *
 * With a fourth argument, the contenders run on Bun.serve instead, from a
 * project that installed the npm build (see bun_server.ts for its making).
 * valgrind (Debian package) is installed when missing.
 *
 * @module
 */

import { countServed, ensureValgrind } from "../_callgrind.ts";
import { POST_BODY } from "./apps.ts";

const requests = Number(Deno.args[0] ?? 10_000);
const contenders = (Deno.args[1] ?? "floor,floorAsync,bare,hono,ramify").split(",");
const servers = Number(Deno.args[2] ?? 3);
const bunProject = Deno.args[3];
const here = new URL("./", import.meta.url).pathname;
const routes: Record<string, { path: string; post: boolean }> = {
  "GET /hello": { path: "/hello", post: false },
  "GET /books/{id}": { path: "/books/42", post: false },
  "POST /books (zod)": { path: "/books", post: true },
};
const WARM_UP = 20_000;

function requestBytes(path: string, post: boolean): Uint8Array {
  const head = post
    ? `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${POST_BODY.length}\r\n\r\n${POST_BODY}`
    : `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  return new TextEncoder().encode(head);
}

/** The user-space instructions per request of one contender on one route. */
async function count(name: string, path: string, post: boolean): Promise<number> {
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const server = bunProject === undefined
    // One thread: V8 compiles and collects on the main thread, so when
    // optimized code arrives no longer depends on the machine's other load,
    // and the same code counts the same within a few instructions.
    ? [Deno.execPath(), "run", "-A", "--v8-flags=--single-threaded", `${here}server.ts`]
    : [`${bunProject}/node_modules/.bin/bun`, `${bunProject}/bun_server.ts`];
  return await countServed(
    [...server, name, String(port)],
    port,
    "/hello",
    requestBytes(path, post),
    requests,
    WARM_UP,
  );
}

await ensureValgrind();
const counts: Record<string, Record<string, number>> = {};
for (const [route, { path, post }] of Object.entries(routes)) {
  for (const name of contenders) {
    const runs: number[] = [];
    for (let server = 0; server < servers; server++) runs.push(await count(name, path, post));
    (counts[route] ??= {})[name] = runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  }
}
const others = contenders.filter((name) => name !== "ramify");
const heads = [
  ...contenders.map((name) => `${name} instr/req`),
  ...others.map((name) => `${name} / ramify`),
];
console.log(`| route | ${heads.join(" | ")} |`);
console.log(`| --- |${" --: |".repeat(heads.length)}`);
for (const [route, byName] of Object.entries(counts)) {
  const cells = contenders.map((name) => Math.round(byName[name]).toLocaleString("en-US"));
  const ratios = others.map((name) => `${(byName[name] / byName.ramify).toFixed(2)}x`);
  console.log(`| ${route} | ${[...cells, ...ratios].join(" | ")} |`);
}
