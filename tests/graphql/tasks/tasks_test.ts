// Long-running leaves in GraphQL: the leaf is a mutation answering a `Task`
// handle; `task(id)` reads it, `cancelTask(id)` cancels it, and over WebSocket
// the `task(id)` subscription streams its changes until it ends. Both
// executors answer the same; the task belongs to its starter's identity; a
// tree without a long-running leaf gets no task SDL; a tree field on a task
// name is refused.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op, progress } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  serverTransport,
  toSDL,
} from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { GraphQLClientError } from "@ramify/api/graphql/client";
import { createTasks } from "@ramify/api/tasks";
import { connect, within } from "../transport/ws_support.ts";

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)));
  });

const tree = api({
  catalog: api({
    reindex: op(async ({ shelves, fail }, ctx) => {
      for (let shelf = 1; shelf <= shelves; shelf++) {
        await pause(15, ctx.signal);
        progress(ctx, shelf, shelves, `shelf ${shelf}`);
      }
      if (fail === "declared") throw new LeafError("LOCKED", { data: { shelf: shelves } });
      if (fail === "fault") throw new Error("disk full at /secret/path");
      return { indexed: shelves };
    }, {
      tags: { longRunning: true },
      input: z.object({
        shelves: z.number().int().min(1),
        fail: z.enum(["declared", "fault"]).optional(),
      }),
      output: z.object({ indexed: z.number() }),
      errors: {
        LOCKED: {
          status: 409,
          message: "The index is locked",
          data: z.object({ shelf: z.number() }),
        },
      },
    }),
  }),
  books: api({ list: op(() => [], { tags: { readOnly: true } }) }),
});

const TASK =
  "id status operation progress { done total message } result error { status code message data }";

Deno.test("graphql tasks: the SDL has the Task handle and its fields only for a long-running leaf", () => {
  const sdl = toSDL(tree);
  assert.match(sdl, /catalogReindex\(shelves: Int!, fail: \w+\): Task\n/);
  assert.match(sdl, /type Query \{[^}]*task\(\s*"""The task's id"""\s*id: ID!\s*\): Task/);
  assert.match(sdl, /type Subscription \{[^}]*task\(/);
  assert.match(sdl, /cancelTask\(/);
  assert.match(
    sdl,
    /enum TaskStatus \{\s+WORKING\s+INPUT_REQUIRED\s+COMPLETED\s+FAILED\s+CANCELLED/,
  );
  const plain = toSDL(api({ books: api({ list: op(() => [], { tags: { readOnly: true } }) }) }));
  assert.doesNotMatch(plain, /Task|task/);
  // A tree's own field on a task name is refused, naming it.
  assert.throws(
    () =>
      toSDL(
        api({
          task: op(() => 1, { tags: { readOnly: true } }),
          reindex: tree.children!.catalog.children!.reindex,
        }),
      ),
    /task projects to Query\.task, which a tree with a long-running leaf keeps for its tasks/,
  );
  // A type of the tree's own named Task is numbered, as any clash of names is.
  const own = toSDL(api({
    job: op(() => ({ name: "x" }), {
      output: z.object({ name: z.string() }).meta({ title: "Task" }),
    }),
    reindex: tree.children!.catalog.children!.reindex,
  }));
  assert.match(own, /type Task2 \{/);
});

for (const executor of ["compiled", "graphql-js"] as const) {
  Deno.test(`graphql tasks (${executor}): start, progress, result, declared error, fault, cancel, owner`, async () => {
    const tasks = createTasks();
    const faults: unknown[] = [];
    const server = createGraphQLServer(tree, {
      executor,
      tasks,
      onError: (error) => void faults.push(error),
    });
    const as = (user: string) => ({ user });
    const run = async (query: string, user = "ann") =>
      JSON.parse(JSON.stringify(await server.execute({ query, context: as(user) })));
    const settle = async (id: string, user = "ann") => {
      for (;;) {
        const { data } = await run(`{ task(id: "${id}") { ${TASK} } }`, user);
        if (!["WORKING", "INPUT_REQUIRED"].includes(data.task.status)) return data.task;
        await pause(10);
      }
    };
    try {
      const started = await run(`mutation { catalogReindex(shelves: 3) { ${TASK} } }`);
      const handle = started.data.catalogReindex;
      assert.equal(handle.status, "WORKING");
      assert.equal(handle.operation, "catalog/reindex");
      assert.deepEqual(await settle(handle.id), {
        id: handle.id,
        status: "COMPLETED",
        operation: "catalog/reindex",
        progress: { done: 3, total: 3, message: "shelf 3" },
        result: { indexed: 3 },
        error: null,
      });
      // Another identity finds no task.
      const stranger = await run(`{ task(id: "${handle.id}") { id } }`, "bob");
      assert.deepEqual(stranger.errors.map((e: { extensions: unknown }) => e.extensions), [
        { code: "NOT_FOUND", status: 404 },
      ]);
      const declared = await run(`mutation { catalogReindex(shelves: 1, fail: declared) { id } }`);
      assert.deepEqual((await settle(declared.data.catalogReindex.id)).error, {
        status: 409,
        code: "LOCKED",
        message: "The index is locked",
        // A declared error's data, as a call's error has it in extensions.data.
        data: { shelf: 1 },
      });
      const fault = await run(`mutation { catalogReindex(shelves: 1, fail: fault) { id } }`);
      const failed = await settle(fault.data.catalogReindex.id);
      assert.deepEqual([failed.status, failed.error], ["FAILED", {
        status: 500,
        code: "INTERNAL_SERVER_ERROR",
        message: "Internal Server Error",
        data: null,
      }]);
      assert.doesNotMatch(JSON.stringify(failed), /secret/);
      assert.match(String(faults.at(-1)), /disk full/);
      const long = await run(`mutation { catalogReindex(shelves: 100) { id } }`);
      const id = long.data.catalogReindex.id;
      const cancelled = await run(`mutation { cancelTask(id: "${id}") { ${TASK} } }`);
      assert.equal(cancelled.data.cancelTask.status, "CANCELLED");
      assert.equal(cancelled.data.cancelTask.error.status, 499);
      assert.equal(cancelled.data.cancelTask.error.data, null);
      const again = await run(`mutation { cancelTask(id: "${id}") { id } }`);
      assert.deepEqual(again.errors[0].extensions, { code: "CONFLICT", status: 409 });
    } finally {
      await tasks.close();
    }
  });
}

Deno.test("graphql tasks: over WebSocket the task subscription streams each change until it ends", async () => {
  const tasks = createTasks();
  const server = createGraphQLServer(tree, { tasks, onError: () => {} });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createWsHandler(server),
  );
  const { client, dispose } = connect(`ws://127.0.0.1:${http.addr.port}/graphql`);
  try {
    const started = await within(
      client.iterate({ query: "mutation { catalogReindex(shelves: 4) { id } }" }).next(),
      "the mutation",
    );
    const { id } = (started.value.data as { catalogReindex: { id: string } }).catalogReindex;
    const seen: { status: string; progress: { done: number } | null; result: unknown }[] = [];
    for await (
      const event of client.iterate({
        query: `subscription { task(id: "${id}") { status progress { done } result } }`,
      })
    ) {
      seen.push((event.data as { task: (typeof seen)[number] }).task);
    }
    assert.deepEqual(seen.at(-1), {
      status: "COMPLETED",
      progress: { done: 4 },
      result: { indexed: 4 },
    });
    assert.ok(seen.length >= 2, "at least the first state and the last");
    assert.ok(seen.slice(0, -1).every((state) => state.status === "WORKING"));
    const missing = await within(
      client.iterate({ query: `subscription { task(id: "nope") { id } }` }).next(),
      "the refusal",
    ).catch((errors) => errors);
    assert.match(JSON.stringify(missing), /No such task/);
  } finally {
    await dispose();
    await http.shutdown();
    await tasks.close();
  }
});

Deno.test("graphql tasks: the typed client awaits the result, or gives the handle with { async: true }", async () => {
  const tasks = createTasks();
  const server = createGraphQLServer(tree, { tasks, onError: () => {} });
  const client = createGraphQLClient(tree, { transport: serverTransport(server) });
  try {
    assert.deepEqual(await client.catalog.reindex({ shelves: 2 }), { indexed: 2 });
    const declared = await client.catalog.reindex({ shelves: 1, fail: "declared" }).catch((e) => e);
    assert.ok(declared instanceof GraphQLClientError);
    assert.deepEqual(
      [declared.code, declared.message, declared.errors[0].extensions, declared.details],
      ["LOCKED", "The index is locked", { code: "LOCKED", status: 409, data: { shelf: 1 } }, {
        shelf: 1,
      }],
    );
    const fault = await client.catalog.reindex({ shelves: 1, fail: "fault" }).catch((e) => e);
    assert.deepEqual([fault.code, fault.message, fault.details, fault.errors[0].extensions], [
      undefined,
      "Internal Server Error",
      undefined,
      { code: "INTERNAL_SERVER_ERROR", status: 500 },
    ]);
    const handle = await client.catalog.reindex({ shelves: 50 }, { async: true });
    assert.equal(typeof handle.id, "string");
    assert.equal((await handle.status()).status, "working");
    assert.equal((await handle.cancel()).status, "cancelled");
    const cancelled = await handle.result().catch((e) => e);
    assert.equal(cancelled.errors[0].extensions.status, 499);
    // An abort of the call's signal cancels its task.
    const stop = new AbortController();
    const aborted = client.catalog.reindex({ shelves: 50 }, { signal: stop.signal }).catch((e) =>
      e
    );
    await pause(30);
    stop.abort();
    assert.equal((await aborted).name, "AbortError");
  } finally {
    await tasks.close();
  }
});
