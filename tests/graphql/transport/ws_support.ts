// Helpers of the GraphQL-over-WebSocket tests: a probe of handler life cycles,
// a served tree, graphql-ws and raw-socket clients, and bounded waits that only
// turn a hang into a failure.
import assert from "node:assert/strict";
import { type Client, type ClientOptions, createClient } from "graphql-ws";
import { z } from "zod";
import { api, LeafError, op } from "@ramify/api/tree";
import type { HandlerContext } from "@ramify/api/tree/node";
import { createGraphQLServer, type GraphQLServerOptions } from "@ramify/api/graphql";
import { createWsHandler, type WsHandlerOptions } from "@ramify/api/graphql/ws";

export const PROTOCOL = "graphql-transport-ws";

// ---------------------------------------------------------------- helpers

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Rejects if `promise` has not settled in `ms`: a guard against hangs, not a timing check. */
export async function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
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
export function wsTest(name: string, fn: () => Promise<void>, ms = 60_000) {
  Deno.test(name, () => within(fn(), `the test "${name}"`, ms));
}

/** Resolves when the signal aborts. */
export function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** What the streaming handlers report: each run's end, and whether its signal had aborted. */
export class Probe {
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

export function tree(probe: Probe) {
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
      // A declared error mid-stream: the client sees its code and data.
      soldOut: op(async function* () {
        yield 1;
        throw new LeafError("SOLD_OUT", { message: "No seats left", data: { left: 0 } });
      }, {
        tags: { streaming: true },
        output: z.number().int(),
        errors: { SOLD_OUT: { status: 409 } },
      }),
    }),
  });
}

export interface Served {
  readonly url: string;
  readonly probe: Probe;
  close(): Promise<void>;
}

export function serve(
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

export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

export interface TestClient {
  readonly client: Client;
  /** The first close of its socket. */
  readonly closed: Promise<CloseInfo>;
  /** Disposes of the client and waits for its socket to close. */
  dispose(): Promise<void>;
}

export function connect(url: string, opts: Partial<ClientOptions> = {}): TestClient {
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
export function collect(
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
export class RawSocket {
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
