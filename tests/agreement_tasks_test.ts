// The agreement suite for long-running work (issue 47): one long-running leaf,
// run to its end, to a declared error, to a fault, and cancelled, through
// every surface that starts tasks: HTTP (the 202 and its status resource),
// the typed HTTP client, GraphQL (the Task handle, in process and over HTTP),
// the typed GraphQL client, the command line in process and with --url, and
// MCP's tasks extension (tools/call, tasks/get, tasks/cancel, 2026-07-28).
// Each reads the same outcome: the status, the progress, the result, the
// failure's status and declared code; a fault leaks nothing and reaches the
// surface's onError; a cancel aborts the handler. MCP's task carries less
// (`mcpView`): its progress is the message alone (`statusMessage`), a
// cancelled task has no failure, and a failure the tool reports is a
// completed call with `isError`, read here as failed. A leaf that asks is
// agreed on in agreement_task_answers_test.ts.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op, progress } from "@ramify/api/tree";
import { type ClientError, createClient, createFetch } from "@ramify/api/http";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
} from "@ramify/api/graphql";
import { type GraphQLClientError, httpTransport } from "@ramify/api/graphql/client";
import { runCli } from "@ramify/api/cli";
import { createMcpHandler } from "@ramify/api/tools";
import { createTasks } from "@ramify/api/tasks";
import { memoryIo } from "./support/cli_io.ts";
import { mcpTasksCall } from "./support/mcp_tasks.ts";

/** How a run of the leaf ends: the cases every surface goes through. */
type Case = "completed" | "declared" | "fault" | "cancelled";

/** What every surface must read the same. */
interface Outcome {
  readonly status: "completed" | "failed" | "cancelled";
  readonly progress?: { readonly done: number; readonly total?: number; readonly message?: string };
  readonly result?: unknown;
  /** The failure's status, and its code when the leaf declares it. */
  readonly error?: { readonly status: number; readonly code?: string };
}

const SECRET = "/var/secret/disk";
const DECLARED = new Set(["SOLD_OUT"]);
const aborts: string[] = [];

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      aborts.push(String(signal.reason?.name ?? signal.reason));
      reject(signal.reason);
    });
  });

const tree = api({
  job: op(async ({ steps, end }, ctx) => {
    for (let step = 1; step <= steps; step++) {
      // One to cancel runs until it is cancelled, however slow the machine is to send the cancel.
      await pause(end === "cancelled" ? 60_000 : 5, ctx.signal);
      progress(ctx, step, steps, `step ${step}`);
    }
    if (end === "declared") throw new LeafError("SOLD_OUT");
    if (end === "fault") throw new Error(`disk full at ${SECRET}`);
    return { done: steps };
  }, {
    tags: { longRunning: true },
    input: z.object({
      steps: z.number().int().min(1),
      end: z.enum(["declared", "fault", "cancelled"]).optional(),
    }),
    output: z.object({ done: z.number() }),
    errors: { SOLD_OUT: { status: 409, message: "Sold out" } },
  }),
});

const STEPS = 3;
const EXPECTED: Record<Case, Outcome> = {
  completed: {
    status: "completed",
    progress: { done: STEPS, total: STEPS, message: `step ${STEPS}` },
    result: { done: STEPS },
  },
  declared: {
    status: "failed",
    progress: { done: STEPS, total: STEPS, message: `step ${STEPS}` },
    error: { status: 409, code: "SOLD_OUT" },
  },
  fault: {
    status: "failed",
    progress: { done: STEPS, total: STEPS, message: `step ${STEPS}` },
    error: { status: 500 },
  },
  cancelled: { status: "cancelled", error: { status: 499 } },
};

const inputOf = (end: Case) => ({ steps: STEPS, ...(end === "completed" ? {} : { end }) });

/** The runtime every surface shares, and what each one's onError saw. */
const tasks = createTasks({ onError: () => {} });
const faults: unknown[] = [];
const onError = (error: unknown) => void faults.push(error);
const rest = createFetch(tree, { tasks, onError });
const graphql = createGraphQLServer(tree, { tasks, onError });
const graphqlHttp = createHttpGraphQLServer(tree, { tasks, onError });
const mcp = createMcpHandler(tree, { tasks, onError });
const BASE = "http://agree.test";

/** A failure's status, and its code only where the leaf declares it. */
function errorOf(status: number, code: string | undefined): Outcome["error"] {
  return code !== undefined && DECLARED.has(code) ? { status, code } : { status };
}

function progressOf(progress: Outcome["progress"] | null | undefined): Partial<Outcome> {
  if (progress === null || progress === undefined) return {};
  const { done, total, message } = progress;
  return {
    progress: {
      done,
      ...(total === undefined || total === null ? {} : { total }),
      ...(message === undefined || message === null ? {} : { message }),
    },
  };
}

/** Waits for `read` to give a terminal outcome. */
async function settled(read: () => Promise<Outcome | undefined>): Promise<Outcome> {
  for (;;) {
    const outcome = await read();
    if (outcome !== undefined) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A status document or a Task, as JSON on the wire. */
interface Wire {
  readonly status: string;
  readonly progress?: Outcome["progress"] | null;
  readonly result?: unknown;
  readonly error?: { readonly status: number; readonly code?: string } | null;
}

/** HTTP's status document as an outcome; undefined while the task runs. */
function fromDocument(document: Wire): Outcome | undefined {
  if (document.status === "working") return undefined;
  return {
    status: document.status as Outcome["status"],
    ...progressOf(document.progress),
    ...(document.result === undefined ? {} : { result: document.result }),
    ...(document.error === undefined || document.error === null
      ? {}
      : { error: errorOf(document.error.status, document.error.code) }),
  };
}

/** GraphQL's Task as an outcome; undefined while the task runs. */
function fromTask(task: Wire): Outcome | undefined {
  if (task.status === "WORKING") return undefined;
  return {
    status: task.status.toLowerCase() as Outcome["status"],
    ...progressOf(task.progress),
    ...(task.result === null ? {} : { result: task.result }),
    ...(task.error === null || task.error === undefined
      ? {}
      : { error: errorOf(task.error.status, task.error.code) }),
  };
}

const TASK = "id status progress { done total message } result error { status code }";

/** Each surface: runs the leaf to `end` and reads its outcome as its users would. */
const SURFACES: Record<string, (end: Case) => Promise<Outcome>> = {
  async http(end) {
    const started = await rest(
      new Request(`${BASE}/job`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(inputOf(end)),
      }),
    );
    assert.equal(started.status, 202);
    const location = `${BASE}${started.headers.get("location")}`;
    await started.body?.cancel();
    if (end === "cancelled") {
      const cancelled = await rest(new Request(location, { method: "DELETE" }));
      return fromDocument(await cancelled.json())!;
    }
    return await settled(async () =>
      fromDocument(await (await rest(new Request(location))).json())
    );
  },
  async "http client"(end) {
    const client = createClient(tree, { baseUrl: BASE, fetch: rest });
    const handle = await client.job(inputOf(end), { async: true });
    if (end === "cancelled") {
      const state = await handle.cancel();
      return {
        status: state.status as Outcome["status"],
        error: errorOf(state.error!.status, state.error!.code),
      };
    }
    const awaited = await client.job(inputOf(end)).then(
      (result) => ({ result }),
      (error: ClientError) => ({ error: errorOf(error.status, error.code) }),
    );
    const state = await handle.status();
    await handle.result().catch(() => {});
    const last = await handle.status();
    assert.ok(["working", "completed", "failed"].includes(state.status));
    return { status: last.status as Outcome["status"], ...progressOf(last.progress), ...awaited };
  },
  async graphql(end) {
    const run = async (query: string) =>
      JSON.parse(JSON.stringify(await graphql.execute({ query })));
    const started = await run(
      `mutation { job(steps: ${STEPS}${end === "completed" ? "" : `, end: ${end}`}) { ${TASK} } }`,
    );
    const { id } = started.data.job;
    if (end === "cancelled") {
      return fromTask(
        (await run(`mutation { cancelTask(id: "${id}") { ${TASK} } }`)).data.cancelTask,
      )!;
    }
    return await settled(async () =>
      fromTask((await run(`{ task(id: "${id}") { ${TASK} } }`)).data.task)
    );
  },
  async "graphql client"(end) {
    const client = createGraphQLClient(tree, {
      transport: httpTransport({ url: `${BASE}/graphql`, fetch: graphqlHttp }),
    });
    const handle = await client.job(inputOf(end), { async: true });
    if (end === "cancelled") {
      const state = await handle.cancel();
      return {
        status: state.status as Outcome["status"],
        error: errorOf(state.error!.status, state.error!.code),
      };
    }
    const awaited = await client.job(inputOf(end)).then(
      (result) => ({ result }),
      (error: GraphQLClientError) => {
        const extensions = error.errors[0].extensions as { status: number; code: string };
        return { error: errorOf(extensions.status, error.code ?? extensions.code) };
      },
    );
    await handle.result().catch(() => {});
    const last = await handle.status();
    return { status: last.status as Outcome["status"], ...progressOf(last.progress), ...awaited };
  },
  cli: (end) => cliOutcome(end, []),
  "cli --url": (end) => cliOutcome(end, ["--url", BASE]),
  async mcp(end) {
    const started = await mcpCall("tools/call", { name: "job", arguments: inputOf(end) });
    assert.equal(started.resultType, "task");
    const taskId = started.taskId as string;
    if (end === "cancelled") {
      // tasks/cancel answers an empty result; the task says how it ended.
      await mcpCall("tasks/cancel", { taskId });
      return fromMcp(await mcpCall("tasks/get", { taskId }))!;
    }
    return await settled(async () => fromMcp(await mcpCall("tasks/get", { taskId })));
  },
};

/** One 2026-07-28 request from a client declaring the tasks extension; its result. */
const mcpCall = (method: string, params: Record<string, unknown>) =>
  mcpTasksCall(mcp, BASE, method, params);

/** MCP's detailed task as an outcome; undefined while it runs. */
function fromMcp(task: Record<string, unknown>): Outcome | undefined {
  if (task.status === "working") return undefined;
  const message = task.statusMessage as string | undefined;
  const progress = message === undefined ? {} : { progress: { done: -1, message } };
  const result = task.result as
    | { isError?: boolean; structuredContent?: unknown; content: { text: string }[] }
    | undefined;
  if (task.status === "failed") {
    const line = (task.error as { message: string }).message;
    return { status: "failed", ...progress, error: errorOf(...lineOf(line)) };
  }
  if (result?.isError === true) {
    return { status: "failed", ...progress, error: errorOf(...lineOf(result.content[0].text)) };
  }
  return {
    status: task.status as Outcome["status"],
    ...progress,
    ...(result === undefined ? {} : { result: result.structuredContent }),
  };
}

/** What MCP's task carries of an outcome. */
function mcpView(outcome: Outcome): Outcome {
  const { progress, error, ...rest } = outcome;
  return {
    ...rest,
    ...(progress?.message === undefined
      ? {}
      : { progress: { done: -1, message: progress.message } }),
    ...(error === undefined || outcome.status === "cancelled" ? {} : { error }),
  };
}

/** A failure's line (`409 Conflict [SOLD_OUT]: Sold out`): its status and code. */
function lineOf(line: string): [number, string | undefined] {
  const [, status, code] = /^(\d+) [^[\n]*(?:\[(\w+)\])?/.exec(line) ?? [];
  return [Number(status), code];
}

/** The command line: waits for the task (or, to cancel, detaches and cancels it by id). */
async function cliOutcome(end: Case, url: readonly string[]): Promise<Outcome> {
  const run = async (argv: readonly string[]) => {
    const io = memoryIo();
    const code = await runCli(tree, [...url, ...argv], { io, tasks, fetch: rest, onError });
    return { code, out: io.stdout.join(""), err: io.stderr.join("") };
  };
  const flags = ["job", "--steps", String(STEPS), ...(end === "completed" ? [] : ["--end", end])];
  if (end === "cancelled") {
    const { id } = JSON.parse((await run([...flags, "--detach", "--json"])).out);
    const cancelled = await run(["cancel", id, "--json"]);
    if (cancelled.out === "") throw new Error(`cancel: ${cancelled.code} ${cancelled.err}`);
    const line = JSON.parse(cancelled.out);
    return { status: line.status, error: errorOf(line.error.status, line.error.code) };
  }
  const { code, out, err } = await run([...flags, "--json"]);
  const lines = err.split("\n").filter((line) => line.startsWith("progress: "));
  const [, done, total, message] = /^progress: (\d+)\/(\d+) (.*)$/.exec(lines.at(-1) ?? "") ?? [];
  const shown = done === undefined
    ? {}
    : { progress: { done: Number(done), total: Number(total), message } };
  if (code === 0) return { status: "completed", ...shown, result: JSON.parse(out) };
  const [, status, codeText] = /^error: (\d+) [^[\n]*(?:\[(\w+)\])?/.exec(
    err.split("\n").find((l) => l.startsWith("error: ")) ?? "",
  ) ?? [];
  return { status: "failed", ...shown, error: errorOf(Number(status), codeText) };
}

for (const [surface, outcome] of Object.entries(SURFACES)) {
  for (const end of ["completed", "declared", "fault", "cancelled"] as const) {
    Deno.test(`agreement tasks: ${surface}, ${end}`, async () => {
      faults.length = 0;
      aborts.length = 0;
      const read = await outcome(end);
      assert.deepEqual(read, surface === "mcp" ? mcpView(EXPECTED[end]) : EXPECTED[end]);
      assert.doesNotMatch(JSON.stringify(read), /secret/);
      if (end === "fault") {
        assert.ok(
          faults.some((fault) => String(fault).includes(SECRET)),
          `${surface}: onError saw the fault`,
        );
      }
      if (end === "cancelled") {
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(aborts.length > 0, `${surface}: the handler's signal aborted`);
      }
    });
  }
}

Deno.test("agreement tasks: the runtime closes", async () => {
  await mcp.close();
  await tasks.close();
});
