// GraphQL over WebSocket (graphql-transport-ws) against real servers: Deno.serve
// with createWsHandler, spoken to by the graphql-ws client and by a raw
// WebSocket, then Bun.serve with handleBunWebSocket (Bun from npm, run on a
// bundle of our sources). Waits are bounded by generous guards that only turn a
// hang into a failure: nothing here asserts how long anything takes.
import assert from "node:assert/strict";
import { type Client, type ClientOptions, createClient } from "graphql-ws";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import type { HandlerContext } from "@ramify/api/tree/node";
import { HttpError } from "@ramify/api/http";
import { createGraphQLServer, type GraphQLServerOptions } from "@ramify/api/graphql";
import { createWsHandler, type WsHandlerOptions } from "@ramify/api/graphql/ws";

const PROTOCOL = "graphql-transport-ws";

// ---------------------------------------------------------------- helpers

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Rejects if `promise` has not settled in `ms`: a guard against hangs, not a timing check. */
async function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** A test whose whole run is bounded, so that a broken server fails it instead of hanging CI. */
function wsTest(name: string, fn: () => Promise<void>, ms = 60_000) {
  Deno.test(name, () => within(fn(), `the test "${name}"`, ms));
}

/** Resolves when the signal aborts. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** What the streaming handlers report: each run's end, and whether its signal had aborted. */
class Probe {
  readonly ends: boolean[] = [];
  readonly contexts: HandlerContext[] = [];
  #waiters: { count: number; done: Deferred<void> }[] = [];

  /** A handler's `finally` ran. */
  ended(signal: AbortSignal | undefined) {
    this.ends.push(signal?.aborted === true);
    for (const waiter of this.#waiters) {
      if (this.ends.length >= waiter.count) waiter.done.resolve();
    }
  }

  /** Resolves once `count` handlers have ended. */
  endsReach(count: number): Promise<void> {
    const done = deferred();
    if (this.ends.length >= count) done.resolve();
    else this.#waiters.push({ count, done });
    return within(done.promise, `${count} generator(s) to close`);
  }
}

function tree(probe: Probe) {
  return api({
    whoami: op((_input: unknown, ctx: HandlerContext) => {
      probe.contexts.push(ctx);
      return String(ctx.user ?? "anonymous");
    }, { tags: { readOnly: true }, output: z.string() }),
    books: api({
      add: op(({ title }: { title: string }) => ({ id: "1", title }), {
        input: z.object({ title: z.string() }),
        output: z.object({ id: z.string(), title: z.string() }),
      }),
    }),
    clock: api({
      // Finite: `to` events, then the stream completes.
      ticks: op(async function* ({ to }: { to: number }) {
        for (let i = 1; i <= to; i++) yield i;
      }, {
        tags: { streaming: true },
        input: z.object({ to: z.number().int() }),
        output: z.number().int(),
      }),
      // Two events, then it waits on its signal: only the client's going away ends it.
      forever: op(async function* (_input: unknown, ctx: HandlerContext) {
        probe.contexts.push(ctx);
        try {
          yield 1;
          yield 2;
          await aborted(ctx.signal);
        } finally {
          probe.ended(ctx.signal);
        }
      }, { tags: { streaming: true }, output: z.number().int() }),
      // Ignores its signal and ticks on a timer: it closes at its next `yield`.
      steady: op(async function* (_input: unknown, ctx: HandlerContext) {
        try {
          for (let i = 1;; i++) {
            yield i;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        } finally {
          probe.ended(ctx.signal);
        }
      }, { tags: { streaming: true }, output: z.number().int() }),
      broken: op(async function* () {
        yield 1;
        throw new Error("db password hunter2");
      }, { tags: { streaming: true }, output: z.number().int() }),
    }),
  });
}

interface Served {
  readonly url: string;
  readonly probe: Probe;
  close(): Promise<void>;
}

function serve(
  opts: WsHandlerOptions = {},
  serverOpts: GraphQLServerOptions = {},
): Served {
  const probe = new Probe();
  const server = createGraphQLServer(tree(probe), { onError: () => {}, ...serverOpts });
  const handler = createWsHandler(server, opts);
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `ws://127.0.0.1:${http.addr.port}/graphql`,
    probe,
    close: () => within(http.shutdown(), "the server to shut down"),
  };
}

interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

interface TestClient {
  readonly client: Client;
  /** The first close of its socket. */
  readonly closed: Promise<CloseInfo>;
  /** Disposes of the client and waits for its socket to close. */
  dispose(): Promise<void>;
}

function connect(url: string, opts: Partial<ClientOptions> = {}): TestClient {
  let opened = false;
  const closed = deferred<CloseInfo>();
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...opts,
    on: {
      opened: () => opened = true,
      closed: (event) => {
        const { code, reason } = event as CloseEvent;
        closed.resolve({ code, reason });
      },
    },
  });
  return {
    client,
    get closed() {
      return within(closed.promise, "the client's socket to close");
    },
    async dispose() {
      await client.dispose();
      if (opened) await within(closed.promise, "the client's socket to close");
    },
  };
}

/** Every event of one operation, or its errors. */
function collect(
  client: Client,
  query: string,
): Promise<{ data: unknown[]; errors?: readonly unknown[] }> {
  const data: unknown[] = [];
  const done = deferred<{ data: unknown[]; errors?: readonly unknown[] }>();
  client.subscribe({ query }, {
    next: (result) => data.push(result.data),
    error: (error) => done.resolve({ data, errors: Array.isArray(error) ? error : [error] }),
    complete: () => done.resolve({ data }),
  });
  return within(done.promise, `the end of ${query}`);
}

/** A WebSocket spoken to by hand: its messages in a queue, its close as a promise. */
class RawSocket {
  readonly socket: WebSocket;
  #opened = deferred();
  #closed = deferred<CloseInfo>();
  #queue: unknown[] = [];
  #waiting: Deferred<unknown> | undefined;

  constructor(url: string, protocols?: string | string[]) {
    this.socket = new WebSocket(url, protocols);
    this.socket.onopen = () => this.#opened.resolve();
    this.socket.onclose = (event) => {
      this.#opened.resolve();
      this.#closed.resolve({ code: event.code, reason: event.reason });
    };
    this.socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (this.#waiting !== undefined) {
        this.#waiting.resolve(message);
        this.#waiting = undefined;
      } else {
        this.#queue.push(message);
      }
    };
  }

  get opened(): Promise<void> {
    return within(this.#opened.promise, "the socket to open");
  }

  get closed(): Promise<CloseInfo> {
    return within(this.#closed.promise, "the socket to close");
  }

  send(message: unknown) {
    this.socket.send(JSON.stringify(message));
  }

  /** The next message from the server. */
  next(): Promise<unknown> {
    if (this.#queue.length > 0) return Promise.resolve(this.#queue.shift());
    this.#waiting = deferred();
    return within(this.#waiting.promise, "a message");
  }

  /** Opens, sends `connection_init` and waits for the acknowledgement. */
  async init(payload?: Record<string, unknown>) {
    await this.opened;
    this.send({ type: "connection_init", payload });
    assert.deepEqual(await this.next(), { type: "connection_ack" });
  }

  async close() {
    this.socket.close(1000, "bye");
    await this.closed;
  }
}

// ---------------------------------------------------------------- the handshake

wsTest("a request that is not a WebSocket upgrade is 426 with Upgrade: websocket", async () => {
  const handler = createWsHandler(createGraphQLServer(tree(new Probe())));
  const response = handler(new Request("http://localhost/graphql"));
  assert.equal(response.status, 426);
  assert.equal(response.headers.get("upgrade"), "websocket");
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  const body = await response.json();
  assert.equal(body.status, 426);
  assert.equal(body.title, "Upgrade Required");
  assert.match(body.detail, /graphql-transport-ws/);

  const malformed = handler(
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
      context: (params, request) => ({ user: params.user, path: new URL(request.url).pathname }),
    });
    const { client, dispose } = connect(served.url, { connectionParams: { user: "ada" } });
    try {
      assert.deepEqual(await collect(client, "{ whoami }"), { data: [{ whoami: "ada" }] });
      const [ctx] = served.probe.contexts;
      assert.equal(ctx.path, "/graphql");
      assert.ok(ctx.request instanceof Request);
      assert.equal(ctx.request.headers.get("upgrade")?.toLowerCase(), "websocket");
      assert.ok(ctx.signal instanceof AbortSignal);
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
      context: (params) => {
        if (params.user === "mallory") throw new HttpError(401, "Sign in first");
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

wsTest("an error thrown by a stream reaches the client masked", async () => {
  const served = serve();
  const { client, dispose } = connect(served.url);
  try {
    const result = await collect(client, "subscription { clockBroken }");
    assert.deepEqual(result.data, [{ clockBroken: 1 }]);
    assert.equal(result.errors?.length, 1);
    const [error] = result.errors as { message: string; extensions?: { code?: string } }[];
    assert.equal(error.message, "Unexpected error.");
    assert.equal(error.extensions?.code, "INTERNAL_SERVER_ERROR");
    assert.doesNotMatch(JSON.stringify(result), /hunter2/);
  } finally {
    await dispose();
    await served.close();
  }
});

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

// ---------------------------------------------------------------- Bun

/** The Bun program: our sources bundled by `deno bundle`, so Bun needs no node_modules. */
const BUN_ENTRY = (root: string) => `
import { api, op } from "${new URL("tree/mod.ts", root)}";
import { createGraphQLServer } from "${new URL("graphql/mod.ts", root)}";
import { handleBunWebSocket } from "${new URL("graphql/server/ws.ts", root)}";

const aborted = (signal) => new Promise((resolve) => signal.addEventListener("abort", resolve));
const tree = api({
  clock: api({
    ticks: op(async function* (_input, ctx) {
      try {
        yield 1;
        yield 2;
        yield 3;
        await aborted(ctx.signal);
      } finally {
        console.log("finally");
      }
    }, { tags: { streaming: true } }),
  }),
});
const handler = handleBunWebSocket(createGraphQLServer(tree));
const server = globalThis.Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: handler.fetch,
  websocket: handler.websocket,
});
console.log("listening " + server.port);
`;

async function run(command: string, args: string[], cwd?: string): Promise<string> {
  const output = await new Deno.Command(command, { args, cwd, stdin: "null" }).output();
  const decoder = new TextDecoder();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${decoder.decode(output.stderr)}`,
    );
  }
  return decoder.decode(output.stdout);
}

/** Lines of a byte stream, one at a time. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let rest = "";
  // Cast: with Node's types in the program (scripts/npm_test), the stream types differ.
  const decoder = new TextDecoderStream() as TransformStream<Uint8Array, string>;
  for await (const chunk of stream.pipeThrough(decoder)) {
    rest += chunk;
    let end;
    while ((end = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, end).trim();
      rest = rest.slice(end + 1);
    }
  }
  if (rest !== "") yield rest.trim();
}

wsTest(
  "Bun.serve with handleBunWebSocket: events arrive, complete closes the generator",
  async () => {
    const root = new URL("../../../", import.meta.url);
    const dir = await Deno.makeTempDir({ prefix: "ramify_bun_ws_" });
    let child: Deno.ChildProcess | undefined;
    let out: AsyncGenerator<string> | undefined;
    try {
      await Deno.writeTextFile(`${dir}/entry.js`, BUN_ENTRY(root.href));
      await within(
        run(Deno.execPath(), [
          "bundle",
          "--quiet",
          "--config",
          new URL("deno.json", root).pathname,
          "--output",
          `${dir}/bundle.js`,
          `${dir}/entry.js`,
        ]),
        "deno bundle",
        120_000,
      );
      // npx fetches Bun from npm when it is not cached; Bun itself then runs directly, so
      // that killing it leaves nothing behind.
      const bun = (await within(
        run("npx", ["-y", "bun@1", "-e", "console.log(process.execPath)"], dir),
        "npx to find Bun",
        300_000,
      )).trim().split("\n").at(-1)!;
      child = new Deno.Command(bun, {
        args: ["run", `${dir}/bundle.js`],
        cwd: dir,
        stdin: "null",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      out = lines(child.stdout);
      const stdout = out;
      const next = async (what: string) => {
        const line = await within(stdout.next(), what, 60_000);
        assert.ok(!line.done, `Bun exited before ${what}`);
        return line.value;
      };
      const listening = await next("Bun to listen");
      const port = Number(/^listening (\d+)$/.exec(listening)?.[1]);
      assert.ok(port > 0, `unexpected output: ${listening}`);

      const plain = await fetch(`http://127.0.0.1:${port}/graphql`);
      assert.equal(plain.status, 426);
      assert.equal(plain.headers.get("upgrade"), "websocket");
      await plain.body?.cancel();

      const { client, dispose } = connect(`ws://127.0.0.1:${port}/graphql`);
      try {
        const values: number[] = [];
        await within(
          (async () => {
            for await (const result of client.iterate({ query: "subscription { clockTicks }" })) {
              values.push((result.data as { clockTicks: number }).clockTicks);
              if (values.length === 3) break; // the client sends `complete`
            }
          })(),
          "Bun's events",
          60_000,
        );
        assert.deepEqual(values, [1, 2, 3]);
        assert.equal(await next("the generator's finally"), "finally");
      } finally {
        await dispose();
      }
    } finally {
      if (child !== undefined) {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
        // Its stdout ends with it.
        await out?.return(undefined);
        await child.status;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
  600_000,
);
