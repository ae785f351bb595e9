// The task runtime on the memory store (two runtimes on one store stand for
// two instances), and the memory store's retention and bound.
import assert from "node:assert/strict";
import { memoryTasks, type TaskRecord } from "@ramify/api/tasks";
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
