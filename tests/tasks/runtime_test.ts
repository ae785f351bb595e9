// The task runtime on the memory store (two runtimes on one store stand for
// two instances), the memory store's retention and bound, and a task made
// only of a call its guards and input schema admit.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, HttpError, type Middleware, op, use } from "@ramify/api/tree";
import { catalogueOf, InputError } from "@ramify/api/tree/catalogue";
import { createTasks, memoryTasks, type TaskRecord } from "@ramify/api/tasks";
import { taskSuite } from "./_suite.ts";

taskSuite(
  "memory tasks",
  () => Promise.resolve({ store: memoryTasks(), close: () => Promise.resolve() }),
);

const record = (id: string, ttlMs: number): TaskRecord => ({
  id,
  owner: undefined,
  leaf: "x",
  status: "working",
  createdAt: 0,
  updatedAt: 0,
  ttlMs,
  lease: Number.MAX_SAFE_INTEGER,
  logs: [],
});

Deno.test("memoryTasks: a record is kept ttlMs after its last write, the oldest dropped past maxEntries", async () => {
  let now = 0;
  const store = memoryTasks({ now: () => now, maxEntries: 2 });
  await store.create(record("a", 100));
  now = 90;
  assert.equal(await store.write(record("a", 100)), true);
  now = 150;
  assert.ok(await store.get("a"), "the write restarted its retention");
  now = 191;
  assert.equal(await store.get("a"), undefined);
  await store.create(record("b", 1_000));
  await store.create(record("c", 1_000));
  await store.create(record("d", 1_000));
  assert.equal(await store.get("b"), undefined);
  assert.ok(await store.get("d"));
});

Deno.test("memoryTasks: a terminal record is never written again", async () => {
  const store = memoryTasks();
  await store.create(record("t", 1_000));
  assert.equal(await store.write({ ...record("t", 1_000), status: "cancelled" }), true);
  assert.equal(await store.write({ ...record("t", 1_000), status: "completed" }), false);
  assert.equal((await store.get("t"))?.status, "cancelled");
  assert.equal(await store.write(record("gone", 1_000)), false);
});

Deno.test("a task is made only of a call its guards and input schema let through", async () => {
  let ran = 0;
  const signedIn: Middleware = (call, next) => {
    if (call.context.user === undefined) throw new HttpError(401, "Sign in first");
    return next({});
  };
  const tree = api({
    guarded: op(() => ++ran, use(signedIn), { tags: { longRunning: true } }),
    typed: op(({ n }) => ++ran + n, {
      input: z.object({ n: z.number() }),
      tags: { longRunning: true },
    }),
  });
  const [guarded, typed] = catalogueOf(tree).entries;
  const tasks = createTasks();
  try {
    // Refused: the caller gets the call's own failure, no handle, and no handler runs.
    await assert.rejects(
      tasks.start(guarded, {}, {}),
      (error: unknown) => error instanceof HttpError && error.status === 401,
    );
    await assert.rejects(tasks.start(typed, { n: "x" }, {}), InputError);
    assert.equal(ran, 0);
    // Let through: a handle, and the handler runs as the task.
    const started = await tasks.start(guarded, {}, { user: "ann" }, { owner: "ann" });
    assert.equal(started.status, "working");
    const done = await tasks.settled(started.id, "ann", 3_000);
    assert.deepEqual([done?.status, done?.result], ["completed", 1]);
  } finally {
    await tasks.close();
  }
});
