// The typed HTTP client and long-running leaves, over a real server: a call
// awaits the result (polling the task's result resource), a declared error
// rejects as the call's ClientError, `{ async: true }` gives a handle (status
// with progress, result, cancel aborting the handler), an abort while
// awaiting cancels the task; and the types: the result and the declared
// errors inferred through the handle.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op, progress } from "@ramify/api/tree";
import { ClientError, createClient, createFetch } from "@ramify/api/http";
import { safe, type TaskHandle } from "@ramify/api/client";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../support/server.ts";
import { until } from "../tasks/_suite.ts";

function makeTree(state: { aborted: boolean; release?: () => void }) {
  return api({
    reindex: op(async ({ shelves }, ctx) => {
      for (let done = 1; done <= shelves; done++) progress(ctx, done, shelves);
      await new Promise<void>((resolve) => state.release = resolve);
      return { indexed: shelves, at: new Date(0) };
    }, {
      tags: { longRunning: true },
      input: z.object({ shelves: z.number().int() }),
      output: z.object({ indexed: z.number(), at: z.date() }),
    }),
    purge: op(() => {
      throw new LeafError("LOCKED", { message: "The shelf is locked" });
    }, { tags: { longRunning: true }, errors: { LOCKED: { status: 423 } } }),
    forever: op((_input, ctx) =>
      new Promise<never>((_resolve, reject) => {
        ctx.signal?.addEventListener("abort", () => {
          state.aborted = true;
          reject(ctx.signal?.reason);
        });
      }), { tags: { longRunning: true } }),
    ping: op(() => "pong"),
  });
}

function withClient(
  body: (
    client: ReturnType<typeof createClient<ReturnType<typeof makeTree>>>,
    state: { aborted: boolean; release?: () => void },
  ) => Promise<void>,
) {
  return async () => {
    const state: { aborted: boolean; release?: () => void } = { aborted: false };
    const tree = makeTree(state);
    const tasks = createTasks({ heartbeatMs: 200 });
    try {
      await withServer(
        createFetch(tree, { tasks, onError: () => {} }),
        (base) => body(createClient(tree, { baseUrl: base, token: "ann" }), state),
      );
    } finally {
      await tasks.close();
    }
  };
}

Deno.test(
  "client tasks: a call awaits the result; a declared error rejects as the call's",
  withClient(async (client, state) => {
    const pending = client.reindex({ shelves: 2 });
    await until(() => state.release !== undefined);
    state.release!();
    const done = await pending;
    assert.equal(done.indexed, 2);
    assert.ok(done.at instanceof Date, "dates revived as for any call");
    const error = await client.purge().then(() => undefined, (thrown) => thrown);
    assert.ok(error instanceof ClientError);
    assert.equal(error.status, 423);
    assert.equal(error.code, "LOCKED");
    const outcome = await safe(client.purge());
    assert.equal(outcome.error?.code, "LOCKED");
  }),
);

Deno.test(
  "client tasks: { async: true } gives a handle: status with progress, result, cancel",
  withClient(async (client, state) => {
    const task = await client.reindex({ shelves: 3 }, { async: true });
    assert.match(task.id!, /^[A-Za-z0-9_-]{24}$/);
    assert.match(task.location!, /\/\.tasks\//);
    await until(() => state.release !== undefined);
    await until(async () => (await task.status()).progress?.done === 3);
    state.release!();
    const result = await task.result();
    assert.equal(result.indexed, 3);
    assert.ok(result.at instanceof Date);
    assert.equal((await task.status()).status, "completed");

    const forever = await client.forever({}, { async: true });
    assert.equal((await forever.status()).status, "working");
    assert.equal((await forever.cancel()).status, "cancelled");
    await until(() => state.aborted);
    const cancelled = await forever.result().then(() => undefined, (thrown) => thrown);
    assert.equal((cancelled as ClientError).status, 499);
    // A leaf that is not long-running answers at once: a settled handle.
    const ping = await client.ping(undefined, { async: true });
    assert.equal(ping.id, undefined);
    assert.equal(await ping.result(), "pong");
    assert.equal((await ping.status()).status, "completed");
  }),
);

Deno.test(
  "client tasks: an abort while awaiting cancels the task (its handler's signal aborts)",
  withClient(async (client, state) => {
    const controller = new AbortController();
    const pending = client.forever({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending);
    await until(() => state.aborted);
  }),
);

Deno.test("client tasks: types: the handle's result and errors are the leaf's", () => {
  const tree = makeTree({ aborted: false });
  const client = createClient(tree, { fetch: createFetch(tree, { tasks: createTasks() }) });
  const typed = async () => {
    const task: TaskHandle<{ indexed: number; at: Date }, { LOCKED: { status: 423 } }> | undefined =
      undefined;
    const handle = await client.reindex({ shelves: 1 }, { async: true });
    const result: { indexed: number; at: Date } = await handle.result();
    // @ts-expect-error the result is not a string
    const wrong: string = await handle.result();
    const purge = await client.purge(undefined, { async: true });
    const outcome = await safe(purge.result());
    if (outcome.error !== undefined && outcome.error.code !== undefined) {
      const code: "LOCKED" = outcome.error.code;
      // @ts-expect-error only the declared code
      const other: "GONE" = outcome.error.code;
      return [code, other];
    }
    // @ts-expect-error the input is still checked
    await client.reindex({ shelves: "1" }, { async: true });
    // Without `async`, the call is the result itself.
    const awaited: { indexed: number; at: Date } = await client.reindex({ shelves: 1 });
    return [task, result, wrong, awaited];
  };
  assert.equal(typeof typed, "function");
});
