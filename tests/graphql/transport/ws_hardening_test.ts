// GraphQL over WebSocket on a bad day: a client speaking for the server,
// variables nested to overflow the stack, huge messages, idle connections, a
// server-wide cap on operations, and a client that stops reading.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler, type WsHandlerOptions } from "@ramify/api/graphql/ws";
import { PROTOCOL, RawSocket, within, wsTest } from "./ws_support.ts";

let pulled = 0;
let firehoseEnded = false;
const tree = api({
  echo: op((input: Record<string, unknown>) => input, { tags: { readOnly: true } }),
  ticks: op(async function* (_: Record<string, never>, { signal }) {
    while (signal?.aborted !== true) {
      yield 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }, { tags: { streaming: true } }),
  firehose: op(async function* () {
    try {
      const chunk = "x".repeat(64 * 1024);
      while (true) {
        pulled++;
        yield chunk;
        await Promise.resolve();
      }
    } finally {
      firehoseEnded = true;
    }
  }, { tags: { streaming: true } }),
});

function serve(opts: WsHandlerOptions) {
  const crashes: unknown[] = [];
  const handler = createWsHandler(createGraphQLServer(tree, { onError: () => {} }), {
    onError: (error) => crashes.push(error),
    ...opts,
  });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `ws://127.0.0.1:${http.addr.port}/graphql`,
    port: http.addr.port,
    crashes,
    close: () => within(http.shutdown(), "the server to shut down"),
  };
}

wsTest("ws: a message only a server sends closes with 4400, nothing logged", async () => {
  const served = serve({});
  try {
    const messages = [
      { type: "connection_ack" },
      { type: "next", id: "1", payload: { data: {} } },
      { type: "error", id: "1", payload: [{ message: "x" }] },
    ];
    for (const message of messages) {
      const { type } = message;
      const socket = new RawSocket(served.url, PROTOCOL);
      await socket.init();
      socket.send(message);
      assert.deepEqual(await socket.closed, {
        code: 4400,
        reason: `Unexpected message of type ${type} received`,
      });
    }
    assert.deepEqual(served.crashes, []);
  } finally {
    await served.close();
  }
});

wsTest("ws: variables nested past the limit are a BAD_REQUEST error, not a crash", async () => {
  const served = serve({});
  try {
    const socket = new RawSocket(served.url, PROTOCOL);
    await socket.init();
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    socket.send({
      id: "1",
      type: "subscribe",
      payload: { query: "query($v: JSON) { echo(input: $v) }", variables: { v: deep } },
    });
    assert.deepEqual(await socket.next(), {
      id: "1",
      type: "error",
      payload: [{
        message: "The variables nest deeper than 64 levels",
        extensions: { code: "BAD_REQUEST" },
      }],
    });
    assert.deepEqual(served.crashes, []);
    await socket.close();
  } finally {
    await served.close();
  }
});

wsTest("ws: a message over maxMessageBytes closes with 1009", async () => {
  const served = serve({ maxMessageBytes: 1_000 });
  try {
    const socket = new RawSocket(served.url, PROTOCOL);
    await socket.init();
    socket.send({
      id: "1",
      type: "subscribe",
      payload: { query: `{ echo } #${"x".repeat(2_000)}` },
    });
    assert.deepEqual(await socket.closed, { code: 1009, reason: "Message too big" });
  } finally {
    await served.close();
  }
});

wsTest("ws: an idle connection is closed; pings and running operations keep it", async () => {
  const served = serve({ idleTimeout: 150 });
  try {
    const socket = new RawSocket(served.url, PROTOCOL);
    await socket.init();
    // Pings for 450 ms: three idle periods that never pass.
    for (let i = 0; i < 9; i++) {
      socket.send({ type: "ping" });
      assert.deepEqual(await socket.next(), { type: "pong" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A subscription under way keeps it open too, then silence closes it.
    socket.send({ id: "s", type: "subscribe", payload: { query: "subscription { ticks }" } });
    for (let i = 0; i < 20; i++) await socket.next();
    socket.send({ id: "s", type: "complete" });
    const closed = await socket.closed;
    assert.deepEqual(closed, { code: 1000, reason: "Idle" });
  } finally {
    await served.close();
  }
});

wsTest("ws: a server-wide cap on operations under way, freed as they complete", async () => {
  const served = serve({ maxTotalSubscriptions: 2 });
  try {
    const first = new RawSocket(served.url, PROTOCOL);
    const second = new RawSocket(served.url, PROTOCOL);
    await first.init();
    await second.init();
    const subscribe = (socket: RawSocket, id: string) =>
      socket.send({ id, type: "subscribe", payload: { query: "subscription { ticks }" } });
    subscribe(first, "a");
    assert.equal(((await first.next()) as { type: string }).type, "next");
    subscribe(second, "b");
    assert.equal(((await second.next()) as { type: string }).type, "next");
    subscribe(second, "c");
    let message = await second.next() as { id: string; type: string; payload: unknown };
    while (message.id === "b") message = await second.next() as typeof message;
    assert.deepEqual(message, {
      id: "c",
      type: "error",
      payload: [{
        message: "The server has too many operations under way",
        extensions: { code: "TOO_MANY_REQUESTS" },
      }],
    });
    first.send({ id: "a", type: "complete" });
    await first.close();
    // The freed place takes a new operation (a completed one needs a moment to be counted out).
    for (let tries = 0;; tries++) {
      subscribe(second, `d${tries}`);
      let reply = await second.next() as { id: string; type: string };
      while (reply.id === "b") reply = await second.next() as typeof reply;
      if (reply.type === "next") break;
      assert.ok(tries < 50, "the place was never freed");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await second.close();
  } finally {
    await served.close();
  }
});

/** A client that opens the WebSocket by hand, subscribes, then never reads again. */
async function deafClient(port: number, query: string): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const text = new TextEncoder();
  await conn.write(text.encode(
    "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
      `Sec-WebSocket-Protocol: ${PROTOCOL}\r\n\r\n`,
  ));
  const buffer = new Uint8Array(4096);
  let head = "";
  while (!head.includes("\r\n\r\n")) {
    const read = await conn.read(buffer);
    if (read === null) throw new Error("the server closed during the handshake");
    head += new TextDecoder().decode(buffer.subarray(0, read));
  }
  assert.match(head, /^HTTP\/1.1 101/);
  const frame = (message: unknown) => {
    const payload = text.encode(JSON.stringify(message));
    assert.ok(payload.length < 126);
    const mask = crypto.getRandomValues(new Uint8Array(4));
    return new Uint8Array([
      0x81,
      0x80 | payload.length,
      ...mask,
      ...payload.map((byte, i) => byte ^ mask[i % 4]),
    ]);
  };
  await conn.write(frame({ type: "connection_init" }));
  await conn.write(frame({ id: "1", type: "subscribe", payload: { query } }));
  return conn;
}

wsTest(
  "ws: a client that stops reading is not fed; one that stays behind is closed (1013)",
  async () => {
    const served = serve({ maxBufferedBytes: 1024 * 1024, slowConsumerTimeout: 1_000 });
    pulled = 0;
    firehoseEnded = false;
    const conn = await deafClient(served.port, "subscription { firehose }");
    try {
      // The server closes the slow consumer: its operation ends.
      for (let tries = 0; !firehoseEnded; tries++) {
        assert.ok(tries < 500, "the slow consumer was never closed");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Without backpressure a second of pulling makes thousands of 64 KiB items;
      // with it, only what fills the socket's buffers before the bound.
      assert.ok(pulled < 400, `the stream was pulled ${pulled} times`);
    } finally {
      conn.close();
      await served.close();
    }
  },
);
