// GraphQL over WebSocket: the upgrade, subprotocol negotiation and messages
// that are not the protocol.
import assert from "node:assert/strict";
import { createGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { Probe, PROTOCOL, RawSocket, serve, tree, wsTest } from "./ws_support.ts";

// ---------------------------------------------------------------- the handshake

wsTest("a request that is not a WebSocket upgrade is 426 with Upgrade: websocket", async () => {
  const handler = createWsHandler(createGraphQLServer(tree(new Probe())));
  const response = await handler(new Request("http://localhost/graphql"));
  assert.equal(response.status, 426);
  assert.equal(response.headers.get("upgrade"), "websocket");
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  const body = await response.json();
  assert.equal(body.status, 426);
  assert.equal(body.title, "Upgrade Required");
  assert.match(body.detail, /graphql-transport-ws/);

  const malformed = await handler(
    new Request("http://localhost/graphql", { headers: { upgrade: "websocket" } }),
  );
  assert.equal(malformed.status, 400);
  assert.equal(malformed.headers.get("content-type"), "application/problem+json");
  await malformed.body?.cancel();
});

wsTest(
  "the subprotocol is graphql-transport-ws; a client without it is closed with 4406",
  async () => {
    const served = serve();
    try {
      const raw = new RawSocket(served.url, ["other", PROTOCOL]);
      await raw.init();
      assert.equal(raw.socket.protocol, PROTOCOL);
      await raw.close();

      const none = new RawSocket(served.url);
      const closed = await none.closed;
      assert.equal(none.socket.protocol, "");
      assert.equal(closed.code, 4406);
    } finally {
      await served.close();
    }
  },
);

wsTest("a message that is not the protocol's closes with 4400; binary UTF-8 is read", async () => {
  const served = serve();
  try {
    const binary = new RawSocket(served.url, PROTOCOL);
    await binary.opened;
    binary.socket.send(new TextEncoder().encode(JSON.stringify({ type: "connection_init" })));
    assert.deepEqual(await binary.next(), { type: "connection_ack" });
    binary.socket.send(new Uint8Array([0xff, 0xfe]));
    assert.equal((await binary.closed).code, 4400);

    const text = new RawSocket(served.url, PROTOCOL);
    await text.opened;
    text.socket.send("{ not json");
    assert.equal((await text.closed).code, 4400);

    const early = new RawSocket(served.url, PROTOCOL);
    await early.opened;
    early.send({ id: "1", type: "subscribe", payload: { query: "{ whoami }" } });
    assert.equal((await early.closed).code, 4401, "subscribe before connection_init");
  } finally {
    await served.close();
  }
});
