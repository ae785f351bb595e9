// The typed GraphQL client's long-running calls against a real server over
// HTTP: a void leaf resolves undefined; an abort while the start request is
// still in flight cancels the task it started (the start goes without the
// signal, so the id is known); a server that takes only trusted documents
// runs the task documents `toTrustedDocuments` lists with the tree's own.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createHttpGraphQLServer,
  type HttpGraphQLServerOptions,
  toTrustedDocuments,
} from "@ramify/api/graphql";
import { GraphQLClientError, httpTransport } from "@ramify/api/graphql/client";
import { createTasks, type TaskRuntime } from "@ramify/api/tasks";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each run whose handler's signal aborted. */
const aborted = new Set<string>();

const tree = api({
  catalog: api({
    // Runs until cancelled; a signal aborted before it ran counts too.
    hold: op(async ({ run }, ctx) => {
      await new Promise<void>((_, reject) => {
        const heard = () => (aborted.add(run), reject(ctx.signal?.reason));
        if (ctx.signal?.aborted === true) return heard();
        ctx.signal?.addEventListener("abort", heard, { once: true });
      });
      return { run };
    }, {
      tags: { longRunning: true },
      input: z.object({ run: z.string() }),
      output: z.object({ run: z.string() }),
    }),
    reindex: op(async ({ shelves }) => {
      await pause(5 * shelves);
      return { indexed: shelves };
    }, {
      tags: { longRunning: true },
      input: z.object({ shelves: z.number().int() }),
      output: z.object({ indexed: z.number() }),
    }),
    // A void output.
    compact: op(async ({ shelves }) => {
      await pause(5 * shelves);
    }, {
      tags: { longRunning: true },
      input: z.object({ shelves: z.number().int() }),
      output: z.void(),
    }),
  }),
});

/** Waits until `done` holds, 5 s at most. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 5_000; !done(); await pause(5)) {
    if (Date.now() > end) throw new Error(`waited 5 s for ${what}`);
  }
}

/** A real server of `tree` over HTTP with `opts`, and the typed client of it. */
async function withServer(
  opts: HttpGraphQLServerOptions,
  body: (client: ReturnType<typeof createGraphQLClient<typeof tree>>) => Promise<void>,
  tasks: TaskRuntime,
): Promise<void> {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createHttpGraphQLServer(tree, { tasks, onError: () => {}, ...opts }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  try {
    await body(createGraphQLClient(tree, { transport: httpTransport({ url }) }));
  } finally {
    await server.shutdown();
    await tasks.close();
  }
}

Deno.test("graphql client tasks: a void long-running leaf resolves undefined, awaited or through its handle", async () => {
  await withServer({}, async (client) => {
    assert.equal(await client.catalog.compact({ shelves: 2 }), undefined);
    const handle = await client.catalog.compact({ shelves: 1 }, { async: true });
    assert.equal(typeof handle.id, "string");
    assert.equal(await handle.result(), undefined);
    assert.equal((await handle.status()).status, "completed");
  }, createTasks());
});

Deno.test("graphql client tasks: an abort while the start is in flight cancels the task it started", async () => {
  let slowStarts = 0;
  await withServer({
    // A request with the header takes 300 ms to reach its resolver: the start, and the cancel
    // (the call's headers go with every request of its task).
    context: async ({ request }: { request: Request }) => {
      if (request.headers.get("x-slow") === "1") {
        slowStarts++;
        await pause(300);
      }
      return {};
    },
  }, async (client) => {
    const controller = new AbortController();
    const call = client.catalog.hold({ run: "during start" }, {
      signal: controller.signal,
      headers: { "x-slow": "1" },
    });
    setTimeout(() => controller.abort(), 100);
    const error = await call.then(() => undefined, (error: Error) => error);
    assert.equal(error?.name, "AbortError");
    assert.equal(slowStarts, 2, "the start and the cancel");
    // The task started after the abort, and was cancelled: its handler's signal aborted.
    await until(() => aborted.has("during start"), "the task's cancel");
  }, createTasks());
});

Deno.test("graphql client tasks: a server of trusted documents only runs the typed client's long-running calls", async () => {
  const documents = await toTrustedDocuments(tree);
  const texts = Object.values(documents);
  // The task documents, once each, beside the tree's own.
  for (const name of ["query Task(", "mutation CancelTask(", "mutation AnswerTask("]) {
    assert.equal(texts.filter((text) => text.startsWith(name)).length, 1, name);
  }
  // A tree without a long-running leaf lists none of them.
  const plain = await toTrustedDocuments(api({ ping: op(() => "pong", { output: z.string() }) }));
  assert.deepEqual(Object.values(plain).filter((text) => /Task\(/.test(text)), []);

  await withServer({ trustedDocuments: { documents } }, async (client) => {
    assert.deepEqual(await client.catalog.reindex({ shelves: 2 }), { indexed: 2 });
    assert.equal(await client.catalog.compact({ shelves: 1 }), undefined);
    const handle = await client.catalog.hold({ run: "trusted" }, { async: true });
    assert.equal((await handle.status()).status, "working");
    assert.equal((await handle.cancel()).status, "cancelled");
    const cancelled = await handle.result().then(() => undefined, (error: unknown) => error);
    assert.ok(cancelled instanceof GraphQLClientError);
    assert.equal(cancelled.errors[0].extensions?.status, 499);
    await until(() => aborted.has("trusted"), "the cancel");
  }, createTasks());
});

Deno.test("graphql client tasks: the call's headers go with its task's reads, cancel and answer (an owner by header)", async () => {
  await withServer({
    // The caller is who the header names: a task is only its owner's to read.
    context: ({ request }: { request: Request }) => ({
      user: request.headers.get("x-user") ?? undefined,
    }),
  }, async (client) => {
    const headers = { "x-user": "ann" };
    assert.deepEqual(await client.catalog.reindex({ shelves: 2 }, { headers }), { indexed: 2 });
    const handle = await client.catalog.hold({ run: "by header" }, { async: true, headers });
    assert.equal((await handle.status()).status, "working");
    assert.equal((await handle.cancel()).status, "cancelled");
    await until(() => aborted.has("by header"), "the cancel");
  }, createTasks());
});
