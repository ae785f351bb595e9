// GraphQL over WebSocket: subscriptions and operations with the graphql-ws client,
// ordered events, generators closed on complete and on close, masked errors.
import assert from "node:assert/strict";
import { HttpError } from "@ramify/api/tree";
import {
  collect,
  connect,
  deferred,
  PROTOCOL,
  RawSocket,
  serve,
  within,
  wsTest,
} from "./ws_support.ts";

// ---------------------------------------------------------------- operations

wsTest("a streaming leaf's events arrive in order, then the subscription completes", async () => {
  const served = serve();
  const { client, dispose } = connect(served.url);
  try {
    const values: unknown[] = [];
    for await (const result of client.iterate({ query: "subscription { clockTicks(to: 5) }" })) {
      assert.equal(result.errors, undefined);
      values.push((result.data as { clockTicks: number }).clockTicks);
    }
    assert.deepEqual(values, [1, 2, 3, 4, 5]);

    // Queries and mutations run over the same connection.
    assert.deepEqual(await collect(client, "{ whoami }"), { data: [{ whoami: "anonymous" }] });
    assert.deepEqual(await collect(client, 'mutation { booksAdd(title: "Dune") { id title } }'), {
      data: [{ booksAdd: { id: "1", title: "Dune" } }],
    });
  } finally {
    await dispose();
    await served.close();
  }
});

wsTest(
  "a client's complete closes the generator: its finally runs, its signal aborted",
  async () => {
    const served = serve();
    const { client, dispose } = connect(served.url);
    try {
      const values: number[] = [];
      for await (const result of client.iterate({ query: "subscription { clockForever }" })) {
        values.push((result.data as { clockForever: number }).clockForever);
        if (values.length === 2) break; // the client sends `complete`
      }
      assert.deepEqual(values, [1, 2]);
      await served.probe.endsReach(1);
      assert.deepEqual(served.probe.ends, [true]);

      // A generator that ignores its signal is closed at its next `yield`.
      let ticks = 0;
      for await (const _ of client.iterate({ query: "subscription { clockSteady }" })) {
        if (++ticks === 3) break;
      }
      await served.probe.endsReach(2);
      assert.equal(served.probe.ends.length, 2);
    } finally {
      await dispose();
      await served.close();
    }
  },
);

wsTest("the socket's close closes every generator of the connection", async () => {
  const served = serve();
  try {
    const raw = new RawSocket(served.url, PROTOCOL);
    await raw.init();
    raw.send({ id: "a", type: "subscribe", payload: { query: "subscription { clockForever }" } });
    raw.send({ id: "b", type: "subscribe", payload: { query: "subscription { clockSteady }" } });
    const seen = new Set<string>();
    while (seen.size < 2) {
      const message = await raw.next() as { id: string; type: string };
      assert.equal(message.type, "next");
      seen.add(message.id);
    }
    await raw.close(); // no `complete`: the socket just closes
    await served.probe.endsReach(2);
    assert.equal(served.probe.ends.length, 2);
    assert.ok(served.probe.ends.includes(true), "the waiting generator saw its signal abort");

    // The graphql-ws client's dispose does the same.
    const { client, dispose } = connect(served.url);
    const first = deferred();
    client.subscribe({ query: "subscription { clockForever }" }, {
      next: () => first.resolve(),
      error: () => {},
      complete: () => {},
    });
    await within(first.promise, "the first event");
    await dispose();
    await served.probe.endsReach(3);
    assert.equal(served.probe.ends[2], true);
  } finally {
    await served.close();
  }
});

wsTest(
  "the handler's context: the upgrade request, a signal, and the context option's values",
  async () => {
    const served = serve({
      context: ({ surface, request, connectionParams }) => ({
        user: connectionParams?.user,
        path: new URL(request!.url).pathname,
        surface,
      }),
    });
    const { client, dispose } = connect(served.url, { connectionParams: { user: "ada" } });
    try {
      assert.deepEqual(await collect(client, "{ whoami }"), { data: [{ whoami: "ada" }] });
      const [ctx] = served.probe.contexts;
      assert.equal(ctx.path, "/graphql");
      assert.ok(ctx.request instanceof Request);
      assert.equal(ctx.request.headers.get("upgrade")?.toLowerCase(), "websocket");
      assert.ok(ctx.signal instanceof AbortSignal);
      assert.equal(ctx.surface, "graphql");
      assert.deepEqual(ctx.connectionParams, { user: "ada" });
    } finally {
      await dispose();
      await served.close();
    }
  },
);

wsTest(
  "an operation refused before it runs gets an error message with a code; the connection stays",
  async () => {
    const served = serve({
      maxQueryLength: 200,
      context: ({ connectionParams }) => {
        if (connectionParams?.user === "mallory") throw new HttpError(401, "Sign in first");
        return {};
      },
    }, { introspection: false, limits: { maxDepth: 3 } });
    try {
      const raw = new RawSocket(served.url, PROTOCOL);
      await raw.init();
      const refused = async (id: string, query: string, operationName?: string) => {
        raw.send({ id, type: "subscribe", payload: { query, operationName } });
        const message = await raw.next() as {
          id: string;
          type: string;
          payload: { message: string; extensions: { code: string } }[];
        };
        assert.equal(message.id, id);
        assert.equal(message.type, "error");
        return message.payload.map((error) => error.extensions.code);
      };
      assert.deepEqual(await refused("1", "subscription {"), ["GRAPHQL_PARSE_FAILED"]);
      assert.deepEqual(await refused("2", "{ nope }"), ["GRAPHQL_VALIDATION_FAILED"]);
      assert.deepEqual(await refused("3", "{ __schema { queryType { name } } }"), [
        "GRAPHQL_VALIDATION_FAILED",
      ]);
      assert.deepEqual(
        await refused("4", 'mutation { booksAdd(title: "x") { id } }'.padEnd(201, " ")),
        ["PAYLOAD_TOO_LARGE"],
      );
      assert.deepEqual(await refused("5", "query A { whoami } query B { whoami }", "C"), [
        "OPERATION_RESOLUTION_FAILURE",
      ]);

      // Still connected: a good operation runs.
      raw.send({
        id: "6",
        type: "subscribe",
        payload: { query: "subscription { clockTicks(to: 1) }" },
      });
      assert.deepEqual(await raw.next(), {
        id: "6",
        type: "next",
        payload: { data: { clockTicks: 1 } },
      });
      assert.deepEqual(await raw.next(), { id: "6", type: "complete" });
      await raw.close();

      // An HttpError from the context function refuses the operation by its status.
      const { client, dispose } = connect(served.url, { connectionParams: { user: "mallory" } });
      const result = await collect(client, "{ whoami }");
      const [error] = result.errors as { message: string; extensions: { code: string } }[];
      assert.equal(error.message, "Sign in first");
      assert.equal(error.extensions.code, "UNAUTHENTICATED");
      await dispose();
    } finally {
      await served.close();
    }
  },
);

wsTest(
  "a crash thrown by a stream reaches the client masked and the server's onError",
  async () => {
    const reported: unknown[] = [];
    const served = serve({}, { onError: (error) => reported.push(error) });
    const { client, dispose } = connect(served.url);
    try {
      const result = await collect(client, "subscription { clockBroken }");
      assert.deepEqual(result.data, [{ clockBroken: 1 }]);
      assert.equal(result.errors?.length, 1);
      const [error] = result.errors as { message: string; extensions?: { code?: string } }[];
      assert.equal(error.message, "Unexpected error.");
      assert.equal(error.extensions?.code, "INTERNAL_SERVER_ERROR");
      assert.doesNotMatch(JSON.stringify(result), /hunter2/);
      assert.deepEqual(reported.map((e) => (e as Error).message), ["db password hunter2"]);
    } finally {
      await dispose();
      await served.close();
    }
  },
);

wsTest(
  "a declared error thrown by a stream reaches the client with its code and data",
  async () => {
    const reported: unknown[] = [];
    const served = serve({}, { onError: (error) => reported.push(error) });
    const { client, dispose } = connect(served.url);
    try {
      const result = await collect(client, "subscription { clockSoldOut }");
      assert.deepEqual(result.data, [{ clockSoldOut: 1 }]);
      assert.deepEqual(
        (result.errors as { message: string; extensions: unknown }[]).map((e) => [
          e.message,
          e.extensions,
        ]),
        [["No seats left", { code: "SOLD_OUT", status: 409, data: { left: 0 } }]],
      );
      assert.deepEqual(reported, [], "a declared error is no crash");
    } finally {
      await dispose();
      await served.close();
    }
  },
);
