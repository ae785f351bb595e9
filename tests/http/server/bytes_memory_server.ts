// The server of bytes_memory_test.ts, in its own process so that only its
// memory is measured: a 20 MB byte stream made chunk by chunk as it is read,
// and `/peak`, the largest resident set seen since the last `/peak`.
// Prints its port on the first line of standard output.
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";

const SIZE = 20 * 1024 * 1024;
const CHUNK = 16 * 1024;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function generated(): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= SIZE) return controller.close();
      const chunk = new Uint8Array(Math.min(CHUNK, SIZE - sent)).fill(sent / CHUNK % 251);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
}

let peak = 0;
setInterval(() => {
  peak = Math.max(peak, Deno.memoryUsage().rss);
}, 5);

const handler = createFetch(api({ big: op(() => generated(), http.get) }));
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
  if (new URL(request.url).pathname !== "/peak") return handler(request);
  gc();
  const rss = Deno.memoryUsage().rss;
  const answer = { rss, peak: Math.max(peak, rss) };
  peak = rss;
  return Response.json(answer);
});
console.log(server.addr.port);
