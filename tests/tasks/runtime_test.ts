// The task runtime on the memory store (two runtimes on one store stand for
// two instances), the memory store's retention and bound, and a task made
// only of a call its guards and input schema admit; a store out of reach is a
// 503, not a crash.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, HttpError, type Middleware, op, use } from "@ramify/api/tree";
import { catalogueOf, InputError } from "@ramify/api/tree/catalogue";
import { createFetch } from "@ramify/api/http";
import { createTasks, memoryTasks, type TaskRecord, type TaskStore } from "@ramify/api/tasks";
import { StoreUnreachable } from "../../tree/outage.ts";
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

Deno.test("a store whose subscriber cannot connect: a start over HTTP is a 503, logged as an outage, not a crash", async () => {
  const memory = memoryTasks();
  let creates = 0;
  const store: TaskStore = {
    ...memory,
    create: (record) => (creates++, memory.create(record)),
    listen: () => Promise.reject(new StoreUnreachable("The subscriber could not connect")),
  };
  const tasks = createTasks({ store });
  const tree = api({ count: op(() => 1, { tags: { longRunning: true } }) });
  // No onError: the router's default is what is tried.
  const handler = createFetch(tree, { tasks });
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    for (let i = 0; i < 3; i++) {
      const response = await handler(
        new Request("http://localhost/count", {
          method: "POST",
          headers: { "content-type": "application/json" },
        }),
      );
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), "1");
      assert.equal((await response.json()).detail, "Tasks are unavailable; try again");
    }
    // Watching a task (GraphQL's subscription, MCP's listen, settled) is refused the same way.
    await assert.rejects(
      tasks.watch("any", undefined, () => {}),
      (error: unknown) => error instanceof HttpError && error.status === 503,
    );
  } finally {
    console.error = original;
    await tasks.close();
  }
  assert.equal(creates, 0, "nothing was kept");
  // One line for the outage at most (the process's log may be in one already), no crash.
  assert.ok(lines.length <= 1, lines.join("\n"));
  for (const line of lines) assert.match(line, /^ramify: the store is unreachable \(/);
});

Deno.test("a store that cannot keep the record: the start is a 503 whose cause is the store's error", async () => {
  const memory = memoryTasks();
  const down = new StoreUnreachable("Redis did not answer within 1000 ms");
  const seen: unknown[] = [];
  const tasks = createTasks({
    store: { ...memory, create: () => Promise.reject(down) },
    onError: (error) => seen.push(error),
  });
  const [count] = catalogueOf(api({ count: op(() => 1, { tags: { longRunning: true } }) }))
    .entries;
  try {
    await assert.rejects(
      tasks.start(count, {}, {}),
      (error: unknown) =>
        error instanceof HttpError && error.status === 503 && error.cause === down &&
        error.headers.get("retry-after") === "1",
    );
    assert.deepEqual(seen, [down]);
  } finally {
    await tasks.close();
  }
});
