// One decision, two texts: the generated client module carries its own task
// runtime (graphql/client/_generated_tasks.ts, so that it imports nothing),
// a second text of the typed GraphQL client's task code
// (graphql/client/_tasks.ts). This suite holds them together: the same
// long-running leaves run through both clients against one real GraphQL
// server over HTTP (progress, result, a void result, a declared error and its
// data, a cancel, an abort, a question answered, answers refused) give the
// same outcomes, their reads of `task(id)` keep the same pauses (50 ms
// doubling to 2 s, the module's values written from the typed client's
// `TASK_POLL_MS`), and the module's `TaskHandle`, `TaskState` and
// `TaskQuestionState` are the typed client's.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, ask, LeafError, op, progress } from "@ramify/api/tree";
import {
  createHttpGraphQLServer,
  generateGraphQLClient,
  toGraphQLClientManifest,
} from "@ramify/api/graphql";
import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
import type { TaskHandle, TaskState } from "@ramify/api/client";
import { createTasks } from "@ramify/api/tasks";
import { assertChecksStandalone, assertChecksWithPackage } from "../../support/standalone.ts";

/** The pauses between two reads of a task: 50 ms, doubled up to 2 s (docs/graphql.md). */
const PAUSES = [50, 100, 200, 400, 800, 1_600, 2_000];

/** Reads of `task(id)` each client's pacing run has had answered, by run. */
const answeredReads = new Map<string, number>();
/** Each run whose handler heard its signal abort. */
const aborted = new Set<string>();

/** Waits until `done` holds (10 s at most: a cancel that never reaches its handler fails the test). */
const until = async (done: () => boolean) => {
  for (const end = Date.now() + 10_000; !done(); await new Promise((ok) => setTimeout(ok, 5))) {
    if (Date.now() > end) throw new Error(`waited 10 s for ${done}`);
  }
};

const SHELF = {
  type: "object",
  properties: { shelf: { type: "integer" } },
  required: ["shelf"],
} as const;

const tree = api({
  catalog: api({
    reindex: op(async ({ shelves, fail }, ctx) => {
      for (let shelf = 1; shelf <= shelves; shelf++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
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
    // A void output: both clients resolve undefined.
    compact: op(async ({ shelves }) => {
      await new Promise((resolve) => setTimeout(resolve, 5 * shelves));
    }, {
      tags: { longRunning: true },
      input: z.object({ shelves: z.number().int() }),
      output: z.void(),
    }),
    // Runs until cancelled.
    hold: op(async ({ run }, ctx) => {
      await new Promise<void>((_, reject) =>
        ctx.signal?.addEventListener("abort", () => (aborted.add(run), reject(ctx.signal?.reason)))
      );
      return { run };
    }, {
      tags: { longRunning: true },
      input: z.object({ run: z.string() }),
      output: z.object({ run: z.string() }),
    }),
    // Ends once its client has had `reads` reads of it answered: the next read sees it completed.
    paced: op(async ({ run, reads }) => {
      await until(() => (answeredReads.get(run) ?? 0) >= reads);
      return { reads };
    }, {
      tags: { longRunning: true },
      input: z.object({ run: z.string(), reads: z.number().int() }),
      output: z.object({ reads: z.number() }),
    }),
    pick: op(async ({ title }, ctx) => {
      const said = await ask(ctx, { message: `Which shelf for ${title}?`, schema: SHELF });
      return { title, shelf: said.action === "accept" ? Number(said.content.shelf) : 0 };
    }, {
      tags: { longRunning: true },
      input: z.object({ title: z.string() }),
      output: z.object({ title: z.string(), shelf: z.number() }),
    }),
  }),
});

/** What the suite calls on either client (both are shaped like the tree). */
interface Calls {
  readonly catalog: {
    reindex(input: { shelves: number; fail?: boolean }, options?: Options): Promise<unknown>;
    compact(input: { shelves: number }, options?: Options): Promise<unknown>;
    hold(input: { run: string }, options?: Options): Promise<unknown>;
    paced(input: { run: string; reads: number }, options?: Options): Promise<unknown>;
    pick(input: { title: string }, options?: Options): Promise<unknown>;
  };
}
type Options = { readonly async?: boolean; readonly signal?: AbortSignal };
type Handle = TaskHandle<unknown, unknown>;
type Fetch = (request: Request) => Promise<Response>;

/** A fetch that counts, for `run`, the reads of `task(id)` answered, and notes when each was sent. */
function pacing(run: string, sent: number[]): Fetch {
  return async (request) => {
    const { operationName } = await request.clone().json();
    if (operationName !== "Task") return await fetch(request);
    sent.push(performance.now());
    const response = await fetch(request);
    const body = await response.text();
    answeredReads.set(run, (answeredReads.get(run) ?? 0) + 1);
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** A rejection as data: its class's name, message, code, details and the response's errors. */
function failure(error: unknown) {
  if (!(error instanceof Error)) return { thrown: String(error) };
  const { name, message, code, details, errors, data } = error as Error & Record<string, unknown>;
  return { name, message, code, details, errors, data };
}

/** Each rejection's `extensions.code`, `extensions.status` and declared `code`. */
function statuses(outcome: Record<string, unknown>) {
  const of = (key: string) => {
    const { errors, code } = outcome[key] as {
      errors: { extensions: Record<string, unknown> }[];
      code?: string;
    };
    return [errors[0].extensions.code, errors[0].extensions.status, code];
  };
  return Object.fromEntries(
    ["declared", "afterCancel", "misfit", "unknown"].map((key) => [key, of(key)]),
  );
}

/** A task state without its id (each run's task has its own). */
function state(read: TaskState) {
  const { id, ...rest } = read;
  return { ...rest, id: typeof id };
}

/** Every outcome of the scenario on one client; `client(fetch)` makes one over that fetch. */
async function outcomes(label: string, client: (fetch: Fetch) => Calls) {
  const { catalog } = client(fetch);
  const awaited = await catalog.reindex({ shelves: 2 });

  const handle = await catalog.reindex({ shelves: 3 }, { async: true }) as Handle;
  const finished = await handle.result();
  const ended = state(await handle.status());

  const declared = await catalog.reindex({ shelves: 1, fail: true }).then(String, failure);

  const compacted = await catalog.compact({ shelves: 2 });
  const compacting = await catalog.compact({ shelves: 1 }, { async: true }) as Handle;
  const compactedLater = await compacting.result();

  const held = await catalog.hold({ run: `${label} cancel` }, { async: true }) as Handle;
  const cancelled = state(await held.cancel());
  const afterCancel = await held.result().then(String, failure);
  await until(() => aborted.has(`${label} cancel`));

  const controller = new AbortController();
  const waiting = catalog.hold({ run: `${label} abort` }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const abort = await waiting.then(String, failure);
  await until(() => aborted.has(`${label} abort`));

  const picking = await catalog.pick({ title: "Dune" }, { async: true }) as Handle;
  let asked = await picking.status();
  while (asked.status !== "input_required") asked = await picking.status();
  const misfit = await picking.answer({ shelf: "x" }).then(String, failure);
  const unknown = await picking.answer({ shelf: 3 }, "no-such-question").then(String, failure);
  await picking.answer({ shelf: 3 });
  const picked = await picking.result();

  // Its own client, whose fetch notes the reads of `task(id)`.
  const sent: number[] = [];
  const paced = await client(pacing(label, sent)).catalog.paced({
    run: label,
    reads: PAUSES.length,
  });
  return {
    outcome: {
      awaited,
      id: typeof handle.id,
      location: handle.location,
      finished,
      ended,
      declared,
      compacted,
      compactedLater,
      cancelled,
      afterCancel,
      abort,
      asked: state(asked),
      misfit,
      unknown,
      picked,
      paced,
    },
    pauses: sent.slice(1).map((at, i) => at - sent[i]),
  };
}

Deno.test("the generated client's task runtime agrees with the typed client's task code", async () => {
  const source = generateGraphQLClient(tree);
  const tasks = createTasks({ onError: () => {} });
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-agreement-" });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createHttpGraphQLServer(tree, { tasks, onError: () => {} }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    await Deno.writeTextFile(`${dir}/same.ts`, SAME_TYPES);
    await assertChecksStandalone(`${dir}/client.ts`);
    // The module's task types are the typed client's (this program alone reads @ramify/api).
    await assertChecksWithPackage(`${dir}/same.ts`);
    const generated = await import(`file://${dir}/client.ts`);
    const manifest = toGraphQLClientManifest(tree);
    const [typed, module] = await Promise.all([
      outcomes("typed", (fetch) =>
        createGraphQLClientFromManifest<typeof tree>(manifest, {
          transport: httpTransport({ url, fetch }),
        }) as Calls),
      outcomes(
        "generated",
        (fetch) => generated.createClient(generated.httpTransport(url, { fetch })) as Calls,
      ),
    ]);
    assert.deepEqual(module.outcome, typed.outcome);
    // What both give, in short.
    const { outcome } = typed;
    assert.deepEqual(outcome.awaited, { indexed: 2, label: "2 shelves" });
    assert.deepEqual(outcome.ended, {
      status: "completed",
      operation: "catalog/reindex",
      progress: { done: 3, total: 3, message: "shelf 3" },
      logs: [],
      id: "string",
    });
    assert.deepEqual(statuses(outcome), {
      declared: ["SHELF_MISSING", 404, "SHELF_MISSING"],
      afterCancel: ["CANCELLED", 499, undefined],
      misfit: ["BAD_USER_INPUT", 422, undefined],
      unknown: ["CONFLICT", 409, undefined],
    });
    // A declared error's data is its details, as for any other call.
    assert.deepEqual(
      typeof outcome.declared === "object" && outcome.declared.details,
      { shelf: 1 },
    );
    assert.equal(outcome.compacted, undefined);
    assert.equal(outcome.compactedLater, undefined);
    assert.ok("compacted" in outcome && "compactedLater" in outcome);
    assert.equal(outcome.cancelled.status, "cancelled");
    assert.equal(typeof outcome.abort === "object" && outcome.abort.name, "AbortError");
    assert.equal(outcome.asked.question?.key, "ask-1");
    assert.deepEqual(outcome.picked, { title: "Dune", shelf: 3 });
    assert.deepEqual(outcome.paced, { reads: PAUSES.length });
    // The same pauses between reads: one after each read that found the task working.
    for (const { pauses } of [typed, module]) {
      assert.equal(pauses.length, PAUSES.length, String(pauses));
      pauses.forEach((pause, i) => {
        assert.ok(pause >= PAUSES[i] - 2 && pause < PAUSES[i] * 1.1 + 30, `${pauses}`);
      });
    }
  } finally {
    await server.shutdown();
    await tasks.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// The module's task types against the typed client's: identical, member for member.
const SAME_TYPES = `
import type {
  TaskHandle as ModuleHandle,
  TaskQuestionState as ModuleQuestion,
  TaskState as ModuleState,
} from "./client.ts";
import type { TaskHandle, TaskQuestionState, TaskState } from "@ramify/api/client";

type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false;
type Result = { indexed: number };
type Errors = { SHELF_MISSING: { shelf: number } };

export const state: Same<ModuleState, TaskState> = true;
export const question: Same<ModuleQuestion, TaskQuestionState> = true;
export const handle: Same<ModuleHandle<Result, Errors>, TaskHandle<Result, Errors>> = true;
`;
