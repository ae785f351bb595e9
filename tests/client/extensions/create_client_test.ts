// Client extension tests, extensions through createClient, in the documented order.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { ClientError, createClient, createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import type { ClientExtension } from "@ramify/api/client";
import { api, op } from "@ramify/api/tree";
import { z } from "zod";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import { interceptors } from "@ramify/api/http/extensions/interceptors";
import { logging } from "@ramify/api/http/extensions/logging";
import { paginate } from "@ramify/api/http/extensions/pagination";
import { assertType, type Equal } from "../../support/types.ts";
import {
  type Book,
  BOOKS,
  collect,
  cursorStyle,
  fakeSleep,
  isNamed,
  recordingLogger,
} from "./support.ts";

// ------------------------------------------------- through createClient

interface ShelfPage {
  readonly books: readonly Book[];
  readonly next: string | null;
}

/** A tree with a paged read-only list, a POST, and a read that waits for `release`. */
function shelfTree(released: Promise<void>) {
  return api({
    books: api({
      list: op(({ cursor }): ShelfPage => {
        const start = Number(cursor ?? 0);
        const end = start + 3;
        return { books: BOOKS.slice(start, end), next: end < BOOKS.length ? String(end) : null };
      }, { tags: { readOnly: true }, input: z.object({ cursor: z.string().optional() }) }),
      add: op(({ title }) => ({ title }), http.post, { input: z.object({ title: z.string() }) }),
      slow: op(async () => {
        await released;
        return "late";
      }, http.get),
    }),
  });
}

interface Shelf {
  readonly client: ReturnType<typeof createShelfClient>;
  /** The headers of each request the server received. */
  readonly seen: Headers[];
  /** Resolves when the first request reaches the server. */
  readonly arrived: Promise<void>;
}

/**
 * Serves the tree behind a gate that answers the first `failures` requests
 * with 503 and `Retry-After: 0`, and runs `run` with a client of it.
 */
async function withShelf(
  failures: number,
  extensions: readonly ClientExtension[],
  run: (shelf: Shelf) => Promise<void>,
): Promise<void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const tree = shelfTree(released);
  const handler = createFetch(tree);
  const seen: Headers[] = [];
  await withServer(
    (request) => {
      seen.push(request.headers);
      arrive();
      return seen.length <= failures
        ? new Response("busy", { status: 503, headers: { "retry-after": "0" } })
        : handler(request);
    },
    async (baseUrl) => {
      try {
        await run({ client: createShelfClient(tree, baseUrl, extensions), seen, arrived });
      } finally {
        // The slow leaf's handlers end here, so the server can shut down.
        release();
      }
    },
  );
}

function createShelfClient(
  tree: ReturnType<typeof shelfTree>,
  baseUrl: string,
  extensions: readonly ClientExtension[],
) {
  return createClient(tree, { baseUrl, extensions });
}

Deno.test("createClient: the documented order, end to end over a flaky server", async () => {
  const { logger, lines } = recordingLogger();
  const { sleep } = fakeSleep();
  let attempt = 0;
  const extensions = [
    retry({ sleep }),
    timeout({ ms: 30_000 }),
    interceptors({
      onRequest: (request) => {
        request.headers.set("authorization", "Bearer secret");
        request.headers.set("x-attempt", String(++attempt));
      },
    }),
    logging({ level: "debug", logger }),
  ];
  await withShelf(2, extensions, async ({ client, seen }) => {
    const page = await client.books.list({ cursor: "3" });
    assert.deepEqual(page, { books: BOOKS.slice(3, 6), next: "6" });
    // Retried twice; the interceptor ran on every attempt.
    assert.deepEqual(seen.map((headers) => headers.get("x-attempt")), ["1", "2", "3"]);
    assert.ok(seen.every((headers) => headers.get("authorization") === "Bearer secret"));
  });
  // Logging, innermost, saw each attempt with the interceptor's headers, redacted.
  assert.deepEqual(lines.map(([level]) => level), [
    "debug",
    "warn",
    "debug",
    "warn",
    "debug",
    "info",
  ]);
  const debugLines = lines.filter(([level]) => level === "debug");
  assert.deepEqual(
    debugLines.map(([, , details]) => details.headers),
    ["1", "2", "3"].map((attempt) => ({
      accept: "application/json, application/problem+json",
      authorization: "[redacted]",
      "x-attempt": attempt,
    })),
  );
});

Deno.test("createClient: a POST is not retried, and its 503 is a ClientError", async () => {
  const { sleep, delays } = fakeSleep();
  await withShelf(1, [retry({ sleep })], async ({ client, seen }) => {
    await assert.rejects(
      client.books.add({ title: "Emma" }),
      (error) => error instanceof ClientError && error.status === 503,
    );
    assert.equal(seen.length, 1);
    assert.deepEqual(await client.books.add({ title: "Emma" }), { title: "Emma" });
  });
  assert.deepEqual(delays, []);
});

Deno.test("createClient: a per-call timeout rejects with TimeoutError, each attempt retried", async () => {
  const { sleep } = fakeSleep();
  await withShelf(0, [retry({ sleep }), timeout()], async ({ client, seen }) => {
    await assert.rejects(client.books.slow({}, { timeout: 20 }), isNamed("TimeoutError"));
    assert.equal(seen.length, 3);
  });
});

Deno.test("createClient: the caller's abort is final", async () => {
  const { sleep } = fakeSleep();
  const controller = new AbortController();
  await withShelf(0, [retry({ sleep }), timeout({ ms: 30_000 })], async (shelf) => {
    const call = shelf.client.books.slow({}, { signal: controller.signal });
    await shelf.arrived;
    controller.abort();
    await assert.rejects(call, isNamed("AbortError"));
    assert.equal(shelf.seen.length, 1);
  });
});

Deno.test("createClient: paginate walks a client leaf, types inferred from it", async () => {
  await withShelf(0, [retry(), timeout({ ms: 30_000 })], async ({ client }) => {
    const books = paginate(client.books.list, {}, {
      style: "cursor",
      items: (page) => page.books,
      next: (page) => page.next,
    });
    assertType<Equal<typeof books, AsyncGenerator<Book, void, undefined>>>(true);
    assert.deepEqual(await collect(books), BOOKS);
    // @ts-expect-error the leaf's cursor is a string
    paginate(client.books.list, { cursor: 3 }, cursorStyle);
  });
});
