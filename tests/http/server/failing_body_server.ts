// A server of one leaf whose byte stream fails after its first chunk, run as a
// child by tests/http/server/bytes_test.ts: Deno's own server prints such a
// failure on standard error, where the test reads it instead of the terminal.
// Prints `listening <port>` once up, one `onError <message>` line for each
// error the router reports, and stops when its standard input closes.
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";

function failingStream(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return controller.error(new Error("disk gone"));
      sent = true;
      controller.enqueue(new TextEncoder().encode("first"));
    },
  });
}

const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const tree = api({ failing: op(() => failingStream(), http.get) });
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => say(`listening ${port}`) },
  createFetch(tree, { onError: (error) => say(`onError ${(error as Error).message}`) }),
);
for await (const _ of Deno.stdin.readable) { /* until it closes */ }
await server.shutdown();
