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

import { countServed, ensureValgrind } from "./_callgrind.ts";
import { cases, countTable, type Handler, jit, ours } from "./graphql_app.ts";

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
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const serve = [Deno.execPath(), "run", "-A", "--v8-flags=--single-threaded"];
  const command = [...serve, new URL(import.meta.url).pathname, "serve", who, String(port)];
  return await countServed(command, port, "/up", await wire(name), requests, WARM_UP);
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
  await countTable(contenders, (who, name) => count(who, name, requests));
}
