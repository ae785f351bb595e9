// The generated client module's long-running operations (leaves tagged
// `longRunning`): written to disk, type-checked on its own (no config: the
// module carries its task runtime and imports nothing), then run against a
// live GraphQL server over HTTP: the result awaited, the `{ async: true }`
// handle, a cancel, an abort, a declared error, and result types that are the
// leaf's output, not `Task`. generate_tasks_agreement_test.ts holds it to the
// typed client's task code.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op, progress } from "@ramify/api/tree";
import { createHttpGraphQLServer, generateGraphQLClient } from "@ramify/api/graphql";
import { createTasks } from "@ramify/api/tasks";
import { assertChecksStandalone } from "../../support/standalone.ts";

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)));
  });

/** Each task whose handler heard its signal abort (a cancel), by its `shelves`. */
const aborted: number[] = [];

const tree = api({
  catalog: api({
    reindex: op(async ({ shelves, fail }, ctx) => {
      ctx.signal?.addEventListener("abort", () => aborted.push(shelves));
      for (let shelf = 1; shelf <= shelves; shelf++) {
        await pause(10, ctx.signal);
        progress(ctx, shelf, shelves, `shelf ${shelf}`);
      }
      if (fail === true) throw new LeafError("SHELF_MISSING", { data: { shelf: shelves } });
      return { indexed: shelves, label: `${shelves} shelves` };
    }, {
      tags: { longRunning: true },
      input: z.object({ shelves: z.number().int().min(1), fail: z.boolean().optional() }),
      output: z.object({ indexed: z.number(), label: z.string() }),
      errors: { SHELF_MISSING: { status: 404, data: z.object({ shelf: z.number() }) } },
    }),
    // No input and a void output: the call takes its options alone, and gives undefined.
    compact: op(async (_input, ctx) => {
      await pause(20, ctx.signal);
    }, { tags: { longRunning: true }, input: z.object({}), output: z.void() }),
  }),
  ping: op(() => "pong", { tags: { readOnly: true }, output: z.string() }),
});

Deno.test("the generated client's long-running calls: typed result, handle, cancel, abort, declared error", async () => {
  const source = generateGraphQLClient(tree);
  // The leaf's output types the result; the field's `Task` stays the SDL's type.
  assert.match(source, /export type CatalogReindexResult = \{ indexed: number; label: string \};/);
  assert.match(source, /export type CatalogCompactResult = undefined;/);
  assert.match(source, /export interface Task \{/);
  // Standalone: the task runtime is the module's own.
  assert.doesNotMatch(source, /^\s*import\b|\bfrom\s+["']|\bimport\(/m);
  assert.match(source, /^export interface TaskHandle<T, D> \{$/m);
  assert.match(source, /^function task<T, E = Record<never, never>>\($/m);
  assert.match(source, /as TaskCall<\[variables: CatalogReindexVariables\], /);
  assert.match(source, /as TaskCall<\[\], CatalogCompactResult>/);
  // A leaf that is not long-running keeps its plain call.
  assert.match(source, /"ping": \(\): GraphQLCall<PingResult> =>/);

  const tasks = createTasks();
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-tasks-" });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createHttpGraphQLServer(tree, { tasks, onError: () => {} }),
  );
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    await Deno.writeTextFile(`${dir}/use.ts`, USE_PROGRAM);
    await assertChecksStandalone(`${dir}/use.ts`);
    const { run } = await import(`file://${dir}/use.ts`);
    const outcome = await run(`http://127.0.0.1:${server.addr.port}/graphql`);
    assert.deepEqual(outcome, {
      awaited: { indexed: 2, label: "2 shelves" },
      id: "string",
      location: undefined,
      finished: { indexed: 3, label: "3 shelves" },
      state: { status: "completed", progress: { done: 3, total: 3, message: "shelf 3" } },
      cancelled: "cancelled",
      afterCancel: ["GraphQLClientError", 499],
      declared: { code: "SHELF_MISSING", status: 404, shelf: 1 },
      abort: "AbortError",
      compacted: undefined,
      ping: "pong",
    });
    // The abort cancelled its task: the handler's signal aborted (as the cancel's did).
    for (let waited = 0; !aborted.includes(500) && waited < 5_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(aborted.toSorted((a, b) => a - b), [400, 500]);
  } finally {
    await server.shutdown();
    await tasks.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// What a front end writes with the generated module; type errors fail the check.
const USE_PROGRAM = `
import {
  type CatalogReindexErrors,
  type CatalogReindexResult,
  createClient,
  GraphQLClientError,
  httpTransport,
  safeGraphQL,
  type TaskHandle,
} from "./client.ts";

export async function run(url: string) {
  const client = createClient(httpTransport(url));

  // Awaited by default: the leaf's output, typed.
  const awaited = await client.catalog.reindex({ shelves: 2 });
  const indexed: number = awaited.indexed;
  // @ts-expect-error indexed is a number, not a string: the result is typed (not any)
  const wrong: string = awaited.indexed;
  // @ts-expect-error shelves is a number
  client.catalog.reindex({ shelves: "2" }).catch(() => {});

  // { async: true }: the task's handle at once.
  const handle: TaskHandle<CatalogReindexResult, CatalogReindexErrors> = await client.catalog.reindex(
    { shelves: 3 },
    { async: true },
  );
  const finished = await handle.result();
  const label: string = finished.label;
  // @ts-expect-error the handle's result is typed too
  const none: number = finished.nothing;
  const { status, progress } = await handle.status();
  // The handle answers a task's question too (as the typed client's, see the agreement test).
  const answer = handle.answer;

  // A cancel through the handle: its result rejects with the cancel's status.
  const long = await client.catalog.reindex({ shelves: 400 }, { async: true });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const cancelled = (await long.cancel()).status;
  const afterCancel = await long.result().then(
    () => "no error",
    (error: unknown) =>
      error instanceof GraphQLClientError ? [error.name, error.errors[0].extensions?.status] : String(error),
  );

  // A declared error: its code narrows its details, as for any call.
  const outcome = await safeGraphQL(client.catalog.reindex({ shelves: 1, fail: true }));
  let declared: { code: string; status: unknown; shelf: number } | undefined;
  if (outcome.error?.code === "SHELF_MISSING") {
    // Typed by the declaration; the task's TaskError carries the data.
    const shelf: number = outcome.error.details.shelf;
    declared = { code: outcome.error.code, status: outcome.error.errors[0].extensions?.status, shelf };
  }

  // An abort of the call's signal cancels its task.
  const controller = new AbortController();
  const waiting = client.catalog.reindex({ shelves: 500 }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const abort = await waiting.then(() => "no abort", (error: Error) => error.name);

  const compacted: undefined = await client.catalog.compact();
  const ping: string = await client.ping();
  void [indexed, wrong, label, none, answer];
  return {
    awaited,
    id: typeof handle.id,
    location: handle.location,
    finished,
    state: { status, progress },
    cancelled,
    afterCancel,
    declared,
    abort,
    compacted,
    ping,
  };
}
`;

Deno.test("a tree without a long-running leaf gets no task runtime", () => {
  const source = generateGraphQLClient(api({ ping: op(() => "pong", { output: z.string() }) }));
  assert.doesNotMatch(source, /TaskHandle|TaskCall|TaskState|function task|TASK_/);
});

Deno.test("a schema type named like the task runtime's own is refused, only where the runtime is", () => {
  const state = z.object({ done: z.boolean() }).meta({ id: "TaskState" });
  const tree = (longRunning: boolean) =>
    api({
      state: op(() => ({ done: true }), { tags: { readOnly: true }, output: state }),
      run: op(() => "ran", { tags: { longRunning }, output: z.string() }),
    });
  assert.throws(
    () => generateGraphQLClient(tree(true)),
    /the type TaskState would take a name that is the generated client's own/,
  );
  assert.match(generateGraphQLClient(tree(false)), /export interface TaskState \{/);
});
