// The balancer's retry policy, on two raw TCP backends (so that one can close
// a connection without answering, as an instance dying mid-request does): a
// request that got nothing back is sent again on the other instance only
// when sending it twice is safe; and docs/deploy.md shows the config the
// tests run.
import assert from "node:assert/strict";
import { haproxyConfig, haproxyMissing, withHaproxy } from "../support/haproxy.ts";

const missing = await haproxyMissing();
if (missing !== undefined) console.warn(`skipped: ${missing}`);

/** A backend answering /health; past that it answers 200, or closes without a word (`dies`). */
function rawBackend(name: string, dies: boolean) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: string[] = [];
  const serve = async (connection: Deno.Conn) => {
    const buffer = new Uint8Array(16_384);
    let head = "";
    while (!head.includes("\r\n\r\n")) {
      const read = await connection.read(buffer).catch(() => null);
      if (read === null) return connection.close();
      head += new TextDecoder().decode(buffer.subarray(0, read));
    }
    const [method, path] = head.split(" ");
    if (path !== "/health") {
      received.push(method);
      if (dies) return connection.close();
    }
    await connection.write(new TextEncoder().encode(
      `HTTP/1.1 200 OK\r\ncontent-length: ${name.length}\r\nconnection: close\r\n\r\n${name}`,
    )).catch(() => {});
    connection.close();
  };
  const accepting = (async () => {
    for await (const connection of listener) serve(connection).catch(() => {});
  })().catch(() => {});
  return {
    name,
    port: (listener.addr as Deno.NetAddr).port,
    received,
    async close() {
      listener.close();
      await accepting;
    },
  };
}

Deno.test({
  name: "HAProxy: a request that got no answer is sent to another instance only if that is safe",
  ignore: missing !== undefined,
  async fn() {
    const dying = rawBackend("dying", true);
    const alive = rawBackend("alive", false);
    // A new connection each time: on a reused one HAProxy closes without an answer (so that a
    // client resends, as after a keep-alive race), and the fetch client does resend, a POST too.
    const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    try {
      await withHaproxy([dying, alive], async (balancer) => {
        const send = async (method: string, headers: Record<string, string> = {}) => {
          const response = await fetch(`${balancer.url}/x`, { method, headers, client });
          return response.ok ? `200 ${await response.text()}` : `${response.status}`;
        };
        const count = (backend: { received: string[] }, method: string) =>
          backend.received.filter((seen) => seen === method).length;
        // Round robin: requests meet the dying instance first again and again.
        for (let i = 0; i < 4; i++) assert.equal(await send("GET"), "200 alive");
        for (let i = 0; i < 4; i++) assert.equal(await send("PUT"), "200 alive");
        assert.ok(
          count(dying, "GET") > 0 && count(dying, "PUT") > 0,
          "the check met the dying one",
        );
        // Retried elsewhere: no request tries the dying instance twice.
        assert.ok(count(dying, "GET") <= 4 && count(dying, "PUT") <= 4, dying.received.join());
        const keyed = { "idempotency-key": crypto.randomUUID() };
        for (let i = 0; i < 4; i++) assert.equal(await send("POST", keyed), "200 alive");
        assert.ok(count(dying, "POST") > 0, "the check met the dying one");
        // A POST without a key may have run where it got no answer: never sent twice.
        const before = { dying: count(dying, "POST"), alive: count(alive, "POST") };
        const plain = [];
        for (let i = 0; i < 4; i++) plain.push(await send("POST"));
        const failed = plain.filter((answer) => answer === "502").length;
        assert.ok(failed > 0, plain.join());
        assert.equal(count(dying, "POST") - before.dying, failed);
        assert.equal(count(alive, "POST") - before.alive, 4 - failed);
      });
    } finally {
      client.close();
      await dying.close();
      await alive.close();
    }
  },
});

Deno.test("docs/deploy.md shows the HAProxy config the scale tests run", async () => {
  const page = await Deno.readTextFile(new URL("../../docs/deploy.md", import.meta.url));
  const excerpt = page.match(/```haproxy\n([\s\S]*?)```/)?.[1];
  assert.ok(excerpt !== undefined, "the page has a haproxy block");
  const run = haproxyConfig(80, [{ name: "app0", port: 8000 }], 8404)
    .split("\n").map((line) => line.trim());
  // Addresses differ (the tests bind loopback ports); every other line is the same.
  const lines = excerpt.split("\n").map((line) => line.trim())
    .filter((line) => line !== "" && !/^(server|bind) /.test(line));
  for (const line of lines) assert.ok(run.includes(line), `not in the tests' config: ${line}`);
});
