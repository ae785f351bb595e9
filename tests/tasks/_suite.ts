// The task runtime's behaviour on any store: run by runtime_test.ts on the
// memory store and by tests/redis/tasks_test.ts on a real Redis. Two runtimes
// on one store stand for two instances of a service.
import assert from "node:assert/strict";
import { api, ask, HttpError, LeafError, log, op, progress } from "@ramify/api/tree";
import { catalogueOf } from "@ramify/api/tree/catalogue";
import {
  answerTask,
  createTasks,
  taskQuestions,
  type TaskRecord,
  type TaskRuntime,
  type TaskStore,
} from "@ramify/api/tasks";

/** A store for one test, and how to let it go. */
export interface StoreUnderTest {
  readonly store: TaskStore;
  close(): Promise<void>;
}

/** What a test's handlers tell it. */
export interface Seen {
  aborted: unknown;
  faults: unknown[];
}

/** The tree of long-running leaves the suite runs. */
export function tasksTree(seen: Seen, gate: { open?: () => void } = {}) {
  return api({
    count: op(async ({ to }: { to: number }, ctx) => {
      for (let done = 1; done <= to; done++) progress(ctx, done, to, `item ${done}`);
      log(ctx, "info", "counted", { to });
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { counted: to, at: new Date(0) };
    }, { tags: { longRunning: true } }),
    missing: op(() => {
      throw new LeafError("NO_SHELF", { message: "No shelf 9", data: { shelf: 9 } });
    }, { tags: { longRunning: true }, errors: { NO_SHELF: { status: 404 } } }),
    teapot: op(() => {
      throw new HttpError(418, "Short and stout");
    }, { tags: { longRunning: true } }),
    crash: op(() => {
      throw new Error("secret connection string");
    }, { tags: { longRunning: true } }),
    forever: op((_input, ctx) =>
      new Promise((_resolve, reject) => {
        gate.open?.();
        ctx.signal?.addEventListener("abort", () => {
          seen.aborted = ctx.signal?.reason;
          reject(ctx.signal?.reason);
        });
      }), { tags: { longRunning: true } }),
    confirm: op(async (_input, ctx) => {
      const answer = await ask(ctx, {
        message: "Go on?",
        schema: { type: "object", properties: { go: { type: "boolean" } }, required: ["go"] },
      });
      return answer.action === "accept" ? answer.content : answer.action;
    }, { tags: { longRunning: true } }),
  });
}

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Registers the suite's tests, each on a fresh store from `make`; ignored, saying why, when `missing` names what is. */
export function taskSuite(
  name: string,
  make: () => Promise<StoreUnderTest>,
  missing?: string,
): void {
  const ignore = missing !== undefined;
  if (ignore) console.warn(`skipped ${name}: ${missing}`);
  const withTasks = (
    body: (a: TaskRuntime, b: TaskRuntime, seen: Seen, store: TaskStore) => Promise<void>,
  ) =>
  async () => {
    const { store, close } = await make();
    const seen: Seen = { aborted: undefined, faults: [] };
    const onError = (error: unknown) => void seen.faults.push(error);
    const a = createTasks({ store, heartbeatMs: 100, onError });
    const b = createTasks({ store, heartbeatMs: 100, onError });
    try {
      await body(a, b, seen, store);
    } finally {
      await a.close();
      await b.close();
      await close();
    }
  };
  const entry = (seen: Seen, label: string, gate?: { open?: () => void }) =>
    catalogueOf(tasksTree(seen, gate)).entries.find((leaf) => leaf.label === label)!;

  Deno.test({
    name: `${name}: a task completes with its progress, log lines and JSON result`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      const started = await a.start(entry(seen, "count"), { to: 3 }, {}, { owner: "ann" });
      assert.equal(started.status, "working");
      assert.match(started.id, /^[A-Za-z0-9_-]{24}$/);
      const done = await b.settled(started.id, "ann", 3_000);
      assert.equal(done?.status, "completed");
      assert.deepEqual(done?.result, { counted: 3, at: "1970-01-01T00:00:00.000Z" });
      assert.deepEqual(done?.progress, { done: 3, total: 3, message: "item 3" });
      assert.equal(done?.logs[0].message, "counted");
      assert.deepEqual(done?.logs[0].data, { to: 3 });
      assert.equal(done?.leaf, "count");
      assert.notEqual(done?.owner, "ann", "the owner is kept as a fingerprint");
    }),
  });

  Deno.test({
    name: `${name}: failures keep their one classification; a fault shows nothing`,
    ignore,
    fn: withTasks(async (a, _b, seen) => {
      const outcome = async (label: string): Promise<TaskRecord | undefined> => {
        const task = await a.start(entry(seen, label), {}, {});
        return await a.settled(task.id, undefined, 3_000);
      };
      const missing = await outcome("missing");
      assert.equal(missing?.status, "failed");
      assert.equal(missing?.failure?.kind, "declared");
      assert.equal(missing?.failure?.status, 404);
      assert.equal(missing?.failure?.code, "NO_SHELF");
      assert.deepEqual(missing?.failure?.data, { shelf: 9 });
      const teapot = await outcome("teapot");
      assert.equal(teapot?.failure?.status, 418);
      assert.equal(teapot?.failure?.detail, "Short and stout");
      const crash = await outcome("crash");
      assert.equal(crash?.status, "failed");
      assert.equal(crash?.failure?.kind, "fault");
      assert.equal(crash?.failure?.status, 500);
      assert.ok(!JSON.stringify(crash).includes("secret"));
      assert.equal(seen.faults.length, 1);
    }),
  });

  Deno.test({
    name: `${name}: a cancel through another instance aborts the handler's signal`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      let opened!: () => void;
      const running = new Promise<void>((resolve) => opened = resolve);
      const task = await a.start(entry(seen, "forever", { open: () => opened() }), {}, {}, {
        owner: "ann",
      });
      await running;
      assert.equal(await b.cancel(task.id, "bob"), undefined, "another identity finds nothing");
      const cancelled = await b.cancel(task.id, "ann");
      assert.equal(cancelled?.status, "cancelled");
      assert.equal(cancelled?.failure?.status, 499);
      await until(() => seen.aborted !== undefined);
      assert.equal((await a.get(task.id, "ann"))?.status, "cancelled");
      // Terminal: cancelling again changes nothing.
      assert.equal((await a.cancel(task.id, "ann"))?.status, "cancelled");
    }),
  });

  Deno.test({
    name: `${name}: a task belongs to its starter; another identity gets nothing`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      const task = await a.start(entry(seen, "count"), { to: 1 }, {}, { owner: "ann" });
      assert.equal(await b.get(task.id, "bob"), undefined);
      assert.equal(await b.get(task.id, undefined), undefined);
      assert.equal(await b.watch(task.id, "bob", () => {}), undefined);
      assert.equal(await b.get("no-such-task", "ann"), undefined);
      assert.ok(await b.get(task.id, "ann"));
    }),
  });

  Deno.test({
    name: `${name}: ask makes the task input_required until another instance answers`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      const task = await a.start(entry(seen, "confirm"), {}, {}, { answers: true });
      await until(async () => (await b.get(task.id))?.status === "input_required");
      assert.equal((await b.get(task.id))?.question?.message, "Go on?");
      await b.answer(task.id, undefined, { action: "accept", content: { go: true } });
      const done = await b.settled(task.id, undefined, 3_000);
      assert.equal(done?.status, "completed");
      assert.deepEqual(done?.result, { go: true });
      assert.equal(done?.question, undefined);
      // A surface that cannot answer: the handler hears `unsupported`.
      const unasked = await a.start(entry(seen, "confirm"), {}, {});
      assert.equal((await a.settled(unasked.id, undefined, 3_000))?.result, "unsupported");
    }),
  });

  Deno.test({
    name: `${name}: answerTask on another instance: checked, then taken in by the running one`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      const task = await a.start(entry(seen, "confirm"), {}, {}, { owner: "ann", answers: true });
      await until(async () => (await b.get(task.id, "ann"))?.status === "input_required");
      assert.deepEqual(taskQuestions((await b.get(task.id, "ann"))!).map(({ key }) => key), [
        "ask-1",
      ]);
      const refused = (answer: unknown, owner = "ann", key?: string) =>
        answerTask(b, task.id, owner, answer, key).then(
          () => assert.fail("answered"),
          (error: HttpError) => error.status,
        );
      assert.deepEqual(
        [
          await refused({ go: true }, "bob"),
          await refused({ go: 1 }),
          await refused({}, "ann", "x"),
        ],
        [404, 422, 409],
      );
      const answered = await answerTask(b, task.id, "ann", { go: true }, "ask-1");
      assert.notEqual(answered.status, "input_required");
      assert.deepEqual((await b.settled(task.id, "ann", 3_000))?.result, { go: true });
      assert.equal(await refused({ go: true }), 409);
    }),
  });

  Deno.test({
    name: `${name}: watchers on another instance see each change`,
    ignore,
    fn: withTasks(async (a, b, seen) => {
      const task = await a.start(entry(seen, "count"), { to: 2 }, {}, { owner: "ann" });
      const statuses: string[] = [];
      const stop = await b.watch(task.id, "ann", (record) => statuses.push(record.status));
      await until(() => statuses.includes("completed"));
      await stop?.();
    }),
  });

  Deno.test({
    name: `${name}: a task whose instance died ends failed once its lease lapses`,
    ignore,
    fn: withTasks(async (a, _b, _seen, store) => {
      const now = Date.now();
      // As an instance leaves it when it dies mid-run: live, its lease never renewed.
      await store.create({
        id: "orphan-task-0123456789ab",
        owner: undefined,
        leaf: "count",
        status: "working",
        createdAt: now - 1_000,
        updatedAt: now - 1_000,
        ttlMs: 60_000,
        lease: now - 1,
        logs: [],
      });
      const found = await a.get("orphan-task-0123456789ab");
      assert.equal(found?.status, "failed");
      assert.equal(found?.failure?.status, 500);
      assert.match(found?.failure?.detail ?? "", /instance running the task stopped/);
    }),
  });
}
