/**
 * The bookstore: the specification's example service, runnable.
 *
 *   deno task server            # PORT=8000 by default
 *   REDIS_URL=redis://127.0.0.1:6379 deno task server   # books and events shared by every instance
 *
 * Routes (derived from the tree, not written down anywhere):
 *
 *   GET    /books/list                      list the books
 *   POST   /books/add                       add a book
 *   GET    /books/{bookId}                  read one
 *   PUT    /books/{bookId}                  replace one
 *   DELETE /books/{bookId}                  remove one
 *   POST   /books/{bookId}/checkout/start   start a checkout
 *   PUT    /books/{bookId}/checkout/reserve reserve a copy (idempotent)
 *   GET    /catalog/featured, /catalog/search
 *   GET    /catalog/suggest?mood=...        a prompt, rendered
 *   PUT    /catalog/reindex                 rebuild the index: a task, 202 and /.tasks/{id}
 *   GET    /openapi.json, and Swagger UI at /docs
 *   POST   /graphql (and GET, and WebSocket): the same tree as GraphQL; GraphiQL in a browser
 *   POST   /mcp: the same tree over MCP (Streamable HTTP): tools, the readOnly leaves as
 *          resources (`ramify://books/{bookId}`), and the prompt
 *   GET    /health
 *   GET    /  (a browser, Accept: text/html): a page linking the document, Swagger UI,
 *          GraphiQL and the MCP endpoint; an API client gets a 404 problem there
 *
 * The same tools over stdio, for MCP clients that start a command:
 *
 *   deno run --allow-env examples/bookstore.ts --mcp-stdio
 *
 * Mutations need `Authorization: Bearer <BOOKSTORE_TOKEN>` (default
 * `bookstore-dev-token`). With `AUTH_ISSUER` set, they need instead a JWT of
 * that OAuth issuer whose `aud` is `AUTH_AUDIENCE` (default the server's own
 * URL, `http://localhost:$PORT`, byte for byte) and whose scopes hold
 * `books:write` (`catalog:admin` for `catalog.reindex`); reads stay public. The server then publishes its protected
 * resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`, and
 * an MCP client with OAuth finds the issuer there from the first 401. Over
 * stdio (add `--allow-net` to reach the issuer), the process presents
 * `BOOKSTORE_TOKEN` as its bearer token.
 *
 * @module
 */

import { api, auth, HttpError, op, reply, use } from "@ramify/api";
import { oauth } from "@ramify/api/auth";
import { prompt, serveMcpStdio } from "@ramify/api/tools";
import {
  createHandler,
  type RunningServer,
  type ServeHandler,
  startupLines,
} from "@ramify/api/serve";
import { createPubSub, memoryStreams, type PubSub } from "@ramify/api/pubsub";
import { type CreateFetchOptions, type Policy, rateLimit } from "@ramify/api/http";
import type { McpHandlerOptions } from "@ramify/api/tools";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";
import {
  connectRedis,
  redisIdempotency,
  redisMcpCancellations,
  redisMcpSessions,
  redisRateLimiter,
  redisStreams,
  redisTasks,
} from "@ramify/api/redis";
import {
  Book,
  BookFields,
  type BookStore,
  MemoryBookStore,
  RedisBookStore,
  redisBookStore,
} from "./bookstore_store.ts";
import { withRootPage } from "./root_page.ts";
import { reindex } from "./bookstore_reindex.ts";
import { createTasks, type TaskRuntime } from "@ramify/api/tasks";

export { Book, BookFields, type BookStore, MemoryBookStore, RedisBookStore, redisBookStore };

/** Options of {@linkcode bookstore}. */
export interface BookstoreOptions {
  /**
   * Bearer tokens and the staff member each names: when given, every
   * mutation needs one (`Authorization: Bearer <token>`); reads stay open.
   */
  readonly tokens?: Readonly<Record<string, string>>;
  /**
   * An OAuth issuer whose JWTs mutations need instead (scope `books:write`),
   * for the resource `audience`: `tokens` is then not read.
   */
  readonly oauth?: BookstoreOAuth;
  /**
   * Where `books.added` events go: kept in memory by default (a subscriber
   * resumes within this process), Redis Streams to reach and resume on every
   * instance.
   */
  readonly events?: BookEvents;
}

/** The OAuth issuer whose tokens the bookstore accepts, and the resource they are for. */
export interface BookstoreOAuth {
  /** The issuer (`AUTH_ISSUER`). */
  readonly issuer: string;
  /** The resource identifier its tokens' `aud` names (`AUTH_AUDIENCE`): the server's URL. */
  readonly audience: string;
}

/** The bookstore's events: `books.added` carries the new book. */
export type BookEvents = PubSub<{ "books.added": Book }>;

/** The token the example server accepts unless `BOOKSTORE_TOKEN` names another. */
export const DEV_TOKEN = "bookstore-dev-token";

/** The bookstore tree over a store. */
export function bookstore(store: BookStore = new MemoryBookStore(), opts: BookstoreOptions = {}) {
  const byId = z.object({ bookId: z.string() });
  const tokens = opts.tokens;
  const staff = opts.oauth !== undefined
    // A guarded leaf that declares no scopes of its own (every books mutation) needs books:write.
    ? [oauth({ ...opts.oauth, scopes: ["books:write"] })]
    : tokens === undefined
    ? []
    : [auth({
      from: "bearer",
      verify: (token) => Object.hasOwn(tokens, token) ? { name: tokens[token] } : undefined,
      description: "A staff token; mutations need one",
    })];
  // Every mutation is guarded by the same explicit contribution; reads are not.
  const mutation = use(...staff);
  const events: BookEvents = opts.events ??
    createPubSub<{ "books.added": Book }>({ bus: memoryStreams() });
  return api({
    books: api({
      list: op(() => store.list(), {
        tags: { readOnly: true },
        output: z.array(Book),
        description: "Lists every book",
      }),
      add: op(async (fields) => {
        const book = await store.add(fields);
        // A book added while the bus is down is added, its event lost.
        await events.publish("books.added", book).catch(() => {});
        return reply(book, { headers: { location: `/books/${encodeURIComponent(book.id)}` } });
      }, {
        tags: { destructive: false },
        input: BookFields,
        output: Book,
        http: {
          status: 201,
          headers: { location: { description: "Where the new book is" } },
          // A client retrying with the same key gets the first answer: one book, not two.
          idempotencyKey: "optional",
        },
        description: "Adds a book",
      }, mutation),
      events: op(
        ({ limit, lastEventId }, ctx) =>
          events.subscribe("books.added", { signal: ctx.signal, limit, lastEventId }),
        {
          tags: { readOnly: true, streaming: true },
          input: z.object({
            limit: z.number().int().min(1).optional(),
            lastEventId: z.string().max(64).optional(),
          }),
          output: Book,
          description:
            "Each book added from now on (or since lastEventId), on every instance (up to limit)",
        },
      ),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }) => store.read(bookId), {
            tags: { readOnly: true },
            input: byId,
            output: Book,
            description: "Reads one book",
          }),
          // Overwrites the book: idempotent and destructive, and pinned to PUT
          // (those two tags alone would make it DELETE).
          replace: op(({ bookId, ...fields }) => store.replace(bookId, fields), http.put, {
            tags: { idempotent: true, destructive: true },
            input: BookFields.extend({ bookId: z.string() }),
            output: Book,
            description: "Replaces one book",
          }, mutation),
          remove: op(({ bookId }) => store.remove(bookId), {
            tags: { destructive: true, idempotent: true },
            input: byId,
            // Nothing comes back: one status, 204, in the document and on the wire.
            output: z.void(),
            description: "Removes one book",
          }, mutation),
          checkout: api({
            start: op(
              async ({ bookId }) => {
                if (await store.isReserved(bookId)) {
                  throw new HttpError(409, `Book ${bookId} is reserved`);
                }
                return { bookId: (await store.read(bookId)).id, started: true };
              },
              { tags: { destructive: false }, input: byId, description: "Starts a checkout" },
              mutation,
            ),
            reserve: op(({ bookId }) => store.reserve(bookId), {
              tags: { idempotent: true, destructive: false },
              input: byId,
              description: "Reserves a copy; reserving twice is the same as once",
            }, mutation),
          }),
        }),
      },
    }),
    catalog: api({
      featured: op(async () => (await store.list()).slice(0, 3), http.get, {
        description: "A few books worth reading",
      }),
      search: op(async ({ q, limit }) => {
        const needle = q.toLowerCase();
        return (await store.list())
          .filter((b) => `${b.title} ${b.author}`.toLowerCase().includes(needle))
          .slice(0, limit);
      }, {
        tags: { readOnly: true },
        input: z.object({ q: z.string(), limit: z.number().int().min(1).max(100).default(20) }),
        output: z.array(Book),
        description: "Searches titles and authors",
      }),
      // Long-running: every surface answers a task's handle (REST 202, GraphQL, MCP, the CLI waits).
      reindex: op(({ shelves }, ctx) => reindex(store, shelves, ctx), {
        tags: { longRunning: true, idempotent: true, destructive: false },
        input: z.object({ shelves: z.number().int().min(1).max(40).default(10) }),
        output: z.object({ indexed: z.number().int(), shelves: z.number().int() }),
        // An administrator's work: with an OAuth issuer, books:write is not enough.
        scopes: ["catalog:admin"],
        description: "Rebuilds the search index, shelf by shelf (a task: a few seconds)",
      }, mutation),
      // A prompt: MCP clients list it and fill in its arguments; GET /catalog/suggest renders it too.
      suggest: prompt(async ({ mood }) => [
        {
          role: "user",
          content: `Suggest a book from this catalogue for a ${mood} mood, and say why:\n${
            JSON.stringify(await store.list())
          }`,
        },
      ], {
        input: z.object({ mood: z.string().describe("How the reader feels, in a word or two") }),
        description: "Asks the model to pick a book for a mood",
      }),
    }),
  });
}

/** The bookstore tree's type: what a browser client imports (`import type`) to be typed. */
export type Bookstore = ReturnType<typeof bookstore>;

const SERVER_INFO = {
  name: "bookstore",
  version: "1.0.0",
  instructions: "A bookstore: list, search, add and check out books.",
};

const TITLE = "Bookstore";

const HANDLER_OPTIONS = {
  rest: {
    // A license, which Redocly's recommended rules ask of a document (`info-license`).
    document: { title: "Bookstore", version: "1.0.0", license: { name: "MIT", identifier: "MIT" } },
  },
  mcp: SERVER_INFO,
  docs: { title: TITLE },
} as const;

/**
 * What instances of the bookstore share when several serve it (`REDIS_URL`):
 * the books, the events, the rate limit, idempotency records and MCP sessions.
 */
export interface Shared {
  readonly store: BookStore;
  readonly events: BookEvents;
  /** Options every surface takes, over the defaults. */
  readonly serving: HandlerExtras;
}

/** The per-surface options the shared state adds. */
interface HandlerExtras {
  /** Where `catalog.reindex` runs: one runtime for every surface, so each finds its tasks. */
  readonly tasks?: TaskRuntime;
  /** Request policies in front of every surface (the rate limit on Redis). */
  readonly policies?: readonly Policy[];
  readonly rest?: Partial<CreateFetchOptions>;
  readonly mcp?: Partial<McpHandlerOptions>;
}

/** The handler options, with what the shared state adds. */
function handlerOptions(extras: HandlerExtras = {}) {
  return {
    ...HANDLER_OPTIONS,
    // Given to every surface; without one, the handler makes one in memory.
    ...(extras.tasks === undefined ? {} : { tasks: extras.tasks }),
    ...(extras.policies === undefined ? {} : { policies: extras.policies }),
    rest: { ...HANDLER_OPTIONS.rest, ...extras.rest },
    mcp: { ...SERVER_INFO, ...extras.mcp },
  };
}

/**
 * The bookstore's one fetch handler (`createHandler`): the REST API with
 * `/openapi.json` and Swagger UI at `/docs`, GraphQL (and GraphiQL) at
 * `/graphql`, MCP at `/mcp`, `/health`; mutations need a bearer token
 * (`tokens`, default {@linkcode DEV_TOKEN}).
 */
export async function bookstoreHandler(
  store?: BookStore,
  tokens: Readonly<Record<string, string>> = { [DEV_TOKEN]: "dev" },
  events?: BookEvents,
): Promise<ServeHandler> {
  const handler = await createHandler(bookstore(store, { tokens, events }), HANDLER_OPTIONS);
  return withRootPage(handler, TITLE);
}

/** An OAuth issuer for {@linkcode serveBookstore}: `audience` defaults to the server's URL. */
export type ServeOAuth = Omit<BookstoreOAuth, "audience"> & { readonly audience?: string };

/**
 * Starts the bookstore (as `serve` would, on Deno, with a page for a browser
 * at `/`), printing its URLs and the token mutations need: `token`, or with
 * `oauth` a JWT of that issuer for the server's URL (or `oauth.audience`).
 */
export async function serveBookstore(
  port: number,
  store?: BookStore,
  token: string = DEV_TOKEN,
  quiet = false,
  events?: BookEvents,
  serving?: HandlerExtras,
  oauth?: ServeOAuth,
): Promise<RunningServer> {
  // The tree is made once the port is known: its default audience is the server's own URL.
  const made = Promise.withResolvers<ServeHandler>();
  made.promise.catch(() => {});
  const server = Deno.serve(
    { port, hostname: "0.0.0.0", onListen() {} },
    async (request) =>
      (await (await made.promise).fetch(request)) ?? new Response(null, { status: 500 }),
  );
  const url = `http://localhost:${server.addr.port}`;
  const issuer = oauth === undefined
    ? undefined
    : { issuer: oauth.issuer, audience: oauth.audience ?? url };
  let handler: ServeHandler;
  try {
    const tree = bookstore(store, {
      ...(issuer === undefined ? { tokens: { [token]: "staff" } } : { oauth: issuer }),
      events,
    });
    handler = withRootPage(await createHandler(tree, handlerOptions(serving)), TITLE);
  } catch (error) {
    made.reject(error);
    await server.shutdown();
    throw error;
  }
  made.resolve(handler);
  if (!quiet) {
    console.log(startupLines(url, handler.paths));
    console.log(
      issuer === undefined
        ? `Mutations need Authorization: Bearer ${token}`
        : `Mutations need a token of ${issuer.issuer} for ${issuer.audience} with scope books:write`,
    );
  }
  return {
    url,
    port: server.addr.port,
    paths: handler.paths,
    close: async () => {
      await handler.close();
      await server.shutdown();
    },
  };
}

/**
 * Requests that may change something (all but GET, HEAD and OPTIONS, so
 * never a health check) count against the caller's token, else its address
 * as the balancer forwards it.
 */
function rateKey(request: Request): string | undefined {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return undefined;
  const token = request.headers.get("authorization");
  if (token !== null) return `token:${token}`;
  return `address:${request.headers.get("x-forwarded-for")?.split(",")[0].trim() ?? "local"}`;
}

/**
 * What every instance shares through the Redis at `url`: books, events (kept
 * a day, so a subscriber resumes on any instance), idempotency records, MCP
 * sessions, tasks (any instance reads or cancels one) and, with `perMinute`,
 * a rate limit.
 */
export async function onRedis(
  url: string,
  seed: readonly BookFields[],
  perMinute?: number,
): Promise<Shared & { close(): Promise<void> }> {
  const redis = await connectRedis({ url, app: "bookstore" });
  const store = await redisBookStore(redis, seed);
  const events = createPubSub<{ "books.added": Book }>({
    bus: redisStreams(redis, { maxLen: 10_000, maxAgeMs: 24 * 60 * 60_000 }),
  });
  // One limit for every surface: a client's REST, GraphQL and MCP requests count together.
  const policies = perMinute === undefined ? undefined : [rateLimit({
    limiter: redisRateLimiter(redis, { limit: perMinute, windowMs: 60_000 }),
    key: rateKey,
  })];
  const tasks = createTasks({ store: redisTasks(redis) });
  return {
    store,
    events,
    serving: {
      tasks,
      ...(policies === undefined ? {} : { policies }),
      rest: { idempotency: redisIdempotency(redis) },
      mcp: {
        sessions: redisMcpSessions(redis),
        cancellations: redisMcpCancellations(redis),
      },
    },
    async close() {
      await tasks.close();
      await events.close();
      await redis.close();
    },
  };
}

if (import.meta.main) {
  const seed = [
    { title: "Dune", author: "Frank Herbert", year: 1965 },
    { title: "The Dispossessed", author: "Ursula K. Le Guin", year: 1974 },
  ];
  const given = Deno.env.get("BOOKSTORE_TOKEN");
  const token = given ?? DEV_TOKEN;
  const port = Number(Deno.env.get("PORT") ?? 8000);
  // With AUTH_ISSUER, that issuer's tokens replace the dev token.
  const issuer = Deno.env.get("AUTH_ISSUER") || undefined;
  const oauth = issuer === undefined
    ? undefined
    : { issuer, audience: Deno.env.get("AUTH_AUDIENCE") || undefined };
  if (Deno.args.includes("--mcp-stdio")) {
    // A local agent's process is trusted with the token it was started with: stdio has no
    // HTTP to challenge a client, so a refusal is the tool's error (401, 403 naming the scope).
    const tokens = oauth === undefined
      ? { tokens: { [token]: "agent" } }
      : { oauth: { issuer: oauth.issuer, audience: oauth.audience ?? `http://localhost:${port}` } };
    await serveMcpStdio(bookstore(new MemoryBookStore(seed), tokens), {
      ...SERVER_INFO,
      // Under an issuer, only a token given: the dev token is none of its.
      ...(oauth !== undefined && given === undefined
        ? {}
        : { headers: { authorization: `Bearer ${token}` } }),
    });
  } else {
    // With REDIS_URL, every instance shares the books, the events, the rate
    // limit, idempotency records and MCP sessions. A Redis that is not there
    // (or an empty URL) stops the start, in one line: no half-configured server.
    const url = Deno.env.get("REDIS_URL");
    const limit = Deno.env.get("RATE_LIMIT_PER_MINUTE");
    const perMinute = limit === undefined ? undefined : Number(limit);
    if (perMinute !== undefined && !(Number.isInteger(perMinute) && perMinute > 0)) {
      console.error(
        `RATE_LIMIT_PER_MINUTE must be a positive integer, got ${JSON.stringify(limit)}`,
      );
      Deno.exit(1);
    }
    if (perMinute !== undefined && url === undefined) {
      console.error("RATE_LIMIT_PER_MINUTE needs REDIS_URL: the limit is shared by every instance");
      Deno.exit(1);
    }
    const shared = url === undefined ? undefined : await onRedis(url, seed, perMinute).catch(
      (error) => {
        console.error(error instanceof Error ? error.message : String(error));
        Deno.exit(1);
      },
    );
    const store = shared?.store ?? new MemoryBookStore(seed);
    await serveBookstore(port, store, token, false, shared?.events, shared?.serving, oauth);
    if (url !== undefined) {
      console.log("Books, events and sessions shared through Redis (REDIS_URL)");
    }
  }
}
