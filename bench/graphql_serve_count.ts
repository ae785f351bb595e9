/**
 * The GraphQL benchmark over real HTTP, as instruction counts: ours and the
 * bare graphql-jit handler (`graphql_app.ts`) each behind `Deno.serve` on
 * 127.0.0.1 under valgrind's callgrind, fed a POST of each request as a client
 * writes it (one write, head and body, over 8 keep-alive connections); the
 * server's user-space instructions per request after a warm-up. In process
 * (`graphql_count.ts`) a `Request` and a `Response` are plain objects; served,
 * the headers, the body and the response go through the runtime's own paths,
 * whose costs differ (a header read is a call into the runtime, a `Response`
 * is prepared for the wire as it is made).
 *
 *   deno run -A bench/graphql_serve_count.ts [requests=5000] [contenders=ours,jit]
 *
 * valgrind (Debian package) is installed when missing.
 *
 * @module
 */

import {
  callgrindControl,
  countedInstructions,
  ensureValgrind,
  keepAliveLoad,
} from "./_callgrind.ts";
import { cases, type Handler, jit, ours } from "./graphql_app.ts";

const WARM_UP = 10_000;
const handlers: Record<string, Handler> = { ours, jit };

/** The request as a client writes it. */
async function wire(name: string): Promise<Uint8Array> {
  const request = cases[name]();
  const body = new Uint8Array(await request.arrayBuffer());
  const head = [`POST /graphql HTTP/1.1`, `host: 127.0.0.1`];
  for (const [key, value] of request.headers) head.push(`${key}: ${value}`);
  const text = new TextEncoder().encode(`${head.join("\r\n")}\r\n\r\n`);
  const bytes = new Uint8Array(text.length + body.length);
  bytes.set(text);
  bytes.set(body, text.length);
  return bytes;
}

/** The server's instructions per request of one contender on one request. */
async function count(who: string, name: string, requests: number): Promise<number> {
  const dir = await Deno.makeTempDir();
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const child = new Deno.Command("valgrind", {
    args: [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${dir}/out`,
      Deno.execPath(),
      "run",
      "-A",
      "--v8-flags=--single-threaded",
      new URL(import.meta.url).pathname,
      "serve",
      who,
      String(port),
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let tries = 0;; tries++) {
      try {
        await (await fetch(`http://127.0.0.1:${port}/up`)).body?.cancel();
        break;
      } catch {
        if (tries > 600) throw new Error(`${who} did not start under valgrind`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const bytes = await wire(name);
    await keepAliveLoad(port, bytes, WARM_UP);
    // Turning instrumentation on drops the translated code: warm up again before counting.
    await callgrindControl(child.pid, "-i", "on");
    await keepAliveLoad(port, bytes, 2_000);
    await callgrindControl(child.pid, "-z");
    await keepAliveLoad(port, bytes, requests);
    await callgrindControl(child.pid, "-d");
    return await countedInstructions(dir) / requests;
  } finally {
    child.kill();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

if (Deno.args[0] === "serve") {
  const handler = handlers[Deno.args[1]];
  Deno.serve(
    { hostname: "127.0.0.1", port: Number(Deno.args[2]), onListen() {} },
    (request) => request.method === "GET" ? new Response("up") : handler(request),
  );
} else {
  const requests = Number(Deno.args[0] ?? 5_000);
  const contenders = (Deno.args[1] ?? "ours,jit").split(",");
  await ensureValgrind();
  const heads = [
    ...contenders.map((who) => `${who} instr/req`),
    ...contenders.filter((who) => who !== "ours").map((who) => `ours / ${who}`),
  ];
  console.log(`| request | ${heads.join(" | ")} |`);
  console.log(`| --- |${" --: |".repeat(heads.length)}`);
  for (const name of Object.keys(cases)) {
    const byWho: Record<string, number> = {};
    for (const who of contenders) byWho[who] = await count(who, name, requests);
    const cells = contenders.map((who) => Math.round(byWho[who]).toLocaleString("en-US"));
    const ratios = contenders.filter((who) => who !== "ours").map((who) =>
      `${(byWho.ours / byWho[who]).toFixed(2)}x`
    );
    console.log(`| ${name} | ${[...cells, ...ratios].join(" | ")} |`);
  }
}
