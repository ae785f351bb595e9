// GraphQL over WebSocket: the init timeout, the subscription cap and onConnect.
import assert from "node:assert/strict";
import {
  collect,
  connect,
  type Deferred,
  deferred,
  PROTOCOL,
  RawSocket,
  serve,
  within,
  wsTest,
} from "./ws_support.ts";

// ---------------------------------------------------------------- bounds

wsTest("no connection_init within the init timeout: closed with 4408", async () => {
  const served = serve({ initTimeout: 20 });
  try {
    const raw = new RawSocket(served.url, PROTOCOL);
    await raw.opened;
    const closed = await raw.closed;
    assert.equal(closed.code, 4408);
    assert.equal(closed.reason, "Connection initialisation timeout");
  } finally {
    await served.close();
  }
});

wsTest(
  "onConnect refusing closes with 4403; accepting sends its payload with the ack",
  async () => {
    const seen: Request[] = [];
    const served = serve({
      onConnect: (params, request) => {
        seen.push(request);
        if (params.token !== "secret") return false;
        return { welcome: true };
      },
    });
    try {
      const refused = connect(served.url, { connectionParams: { token: "guess" } });
      const result = await collect(refused.client, "{ whoami }");
      assert.equal((await refused.closed).code, 4403);
      assert.equal((result.errors?.[0] as CloseEvent).code, 4403);
      await refused.dispose();

      const raw = new RawSocket(served.url, PROTOCOL);
      await raw.opened;
      raw.send({ type: "connection_init", payload: { token: "secret" } });
      assert.deepEqual(await raw.next(), { type: "connection_ack", payload: { welcome: true } });
      await raw.close();
      assert.ok(seen.every((request) => request.headers.get("upgrade") === "websocket"));
    } finally {
      await served.close();
    }
  },
);

wsTest(
  "more operations at once than maxSubscriptions: closed with 4429, generators closed",
  async () => {
    const served = serve({ maxSubscriptions: 2 });
    const { client, closed, dispose } = connect(served.url);
    try {
      const errors: unknown[] = [];
      const sink = (started: Deferred<void>) => ({
        next: () => started.resolve(),
        error: (error: unknown) => errors.push(error),
        complete: () => {},
      });
      const first = deferred();
      const second = deferred();
      client.subscribe({ query: "subscription { clockForever }" }, sink(first));
      client.subscribe({ query: "subscription { clockForever }" }, sink(second));
      await within(Promise.all([first.promise, second.promise]), "both subscriptions to start");
      client.subscribe({ query: "subscription { clockForever }" }, sink(deferred()));
      const close = await closed;
      assert.equal(close.code, 4429);
      assert.equal(close.reason, "Too many subscriptions");
      await served.probe.endsReach(2);
      assert.deepEqual(served.probe.ends, [true, true]);
    } finally {
      await dispose();
      await served.close();
    }
  },
);
