/**
 * The task runtime: a call of a long-running leaf (tag `longRunning`) made a
 * task with a durable handle, the one runtime every surface starts, reads,
 * watches and cancels tasks through (HTTP's `202` and status resource, MCP's
 * tasks extension, GraphQL's handle, the command line's `--detach`).
 *
 * - A task runs the leaf's one prepared call (`entry.call`: its middleware
 *   and guards, schemas and declared errors) with the starter's context, its
 *   `signal` the task's own (a cancel aborts it, not the starter leaving).
 * - `progress`, `log` and `ask` from the handler's context are kept in the
 *   record (writes coalesced, so a tight loop of progress is not a write per
 *   call); `ask` makes it `input_required` until `answer()` (only where the
 *   starter's surface can answer: `answers: true`).
 * - A failure is kept as `classify` made it: the one classification; a fault
 *   goes to `onError` and keeps nothing but its status.
 * - A task belongs to the principal its leaf's guards established (`owner`,
 *   decided when they let the call through; kept as a SHA-256 fingerprint):
 *   asked for by another, it is not found (tasks/owner.ts).
 * - The instance running a task renews its lease every `heartbeatMs`; a live
 *   task whose lease lapsed (three heartbeats missed: its instance died) is
 *   failed by the next reader, so none stays pending for ever.
 *
 * @example
 * ```ts
 * import { api, op, progress } from "@ramify/api/tree";
 * import { catalogueOf } from "@ramify/api/tree/catalogue";
 * import { createTasks } from "@ramify/api/tasks";
 *
 * const tree = api({
 *   reindex: op(async (_input, ctx) => {
 *     progress(ctx, 1, 1);
 *     return { indexed: 1 };
 *   }, { tags: { longRunning: true } }),
 * });
 * const tasks = createTasks();
 * const [reindex] = catalogueOf(tree).entries;
 * const task = await tasks.start(reindex, {}, {}, { owner: "ann" });
 * const done = await tasks.settled(task.id, "ann", 1_000);
 * console.log(done?.status, done?.result); // "completed" { indexed: 1 }
 * await tasks.close();
 * ```
 *
 * @module
 */

import type { LeafCall } from "../tree/call.ts";
import { httpTaskRoutes } from "./http.ts";
import { onAdmitted } from "../engine/admission.ts";
import { whileWatched } from "./_watch.ts";
import { taskId } from "./_id.ts";
import { extended } from "../tree/context.ts";
import { Cancelled, classify } from "../tree/failure.ts";
import { HttpError } from "../tree/http_error.ts";
import { isUnreachable, logFault } from "../tree/outage.ts";
import { withInteraction } from "../tree/interaction.ts";
import type { HandlerContext } from "../tree/node.ts";
import { principalOf } from "../tree/principal.ts";
import type { TaskCaller, TaskOwner } from "./owner.ts";
import type { TaskRuntime } from "./types.ts";
import { resultKindOf } from "../tree/result_kind.ts";
import { failureOf } from "../tree/run.ts";
import { perform } from "../engine/engine.ts";
import { Run, stored } from "./_run.ts";
import {
  isTerminal,
  memoryTasks,
  type TaskFailure,
  type TaskListener,
  type TaskRecord,
  type TaskStore,
} from "./store.ts";
import { sha256 } from "../tree/digest.ts";

/**
 * Options of {@linkcode createTasks}.
 *
 * @example
 * ```ts
 * import { createTasks, type TasksOptions } from "@ramify/api/tasks";
 *
 * const opts: TasksOptions = { ttlMs: 24 * 60 * 60_000, heartbeatMs: 2_000 };
 * const tasks = createTasks(opts);
 * ```
 */
export interface TasksOptions {
  /** Where records are kept: share one (`redisTasks`) between instances. Default `memoryTasks()`. */
  readonly store?: TaskStore;
  /** Milliseconds a record is kept after its last change. Default an hour. */
  readonly ttlMs?: number;
  /**
   * Milliseconds between the running instance's renewals of its lease; three
   * missed, the task is failed. Default 5,000.
   */
  readonly heartbeatMs?: number;
  /** The most log lines a record keeps (the latest). Default 100. */
  readonly maxLogs?: number;
  /**
   * Observes a task's fault, unless its start gave its own. Default: written
   * to standard error, a store out of reach once per outage (not per task).
   */
  readonly onError?: (error: unknown) => void;
}

// Where every surface has read them.
export type { StartOptions, TaskLeaf, TaskRuntime } from "./types.ts";

/** The failure of a task whose instance stopped before it finished. */
const STOPPED = "The instance running the task stopped before it finished";
const UNREACHABLE = "Tasks are unavailable; try again";

/**
 * Makes a task runtime.
 *
 * @example
 * ```ts
 * import { createTasks, memoryTasks } from "@ramify/api/tasks";
 *
 * const tasks = createTasks({ store: memoryTasks(), ttlMs: 60_000 });
 * await tasks.close();
 * ```
 *
 * @throws {RangeError} when a duration is not a positive number.
 */
export function createTasks(opts: TasksOptions = {}): TaskRuntime {
  const store = opts.store ?? memoryTasks();
  const ttlMs = positive("ttlMs", opts.ttlMs ?? 60 * 60_000);
  const heartbeatMs = positive("heartbeatMs", opts.heartbeatMs ?? 5_000);
  const maxLogs = opts.maxLogs ?? 100;
  const runs = new Map<string, Run>();
  const watchers = new Map<string, Set<() => void>>();
  const listener: TaskListener = {
    changed(id) {
      for (const watcher of watchers.get(id) ?? []) watcher();
    },
    signal(id, signal) {
      const run = runs.get(id);
      if (run === undefined) return;
      if (signal.kind === "cancel") run.abort(new Cancelled());
      else run.answered(signal.answer, signal.key);
    },
  };
  let listening: Promise<() => Promise<void>> | undefined;
  const listen = () => {
    listening ??= store.listen(listener).catch((error) => {
      listening = undefined;
      throw error;
    });
    return listening;
  };

  const find = async (id: string, caller: TaskCaller) => {
    if (typeof id !== "string" || id === "") return undefined;
    const record = await store.get(id);
    if (record === undefined) return undefined;
    const who = typeof caller === "function" ? await caller(record.leaf) : { owner: caller };
    if (who === undefined || record.owner !== await fingerprint(who.owner)) return undefined;
    if (isTerminal(record.status) || record.lease >= Date.now()) return record;
    // Its instance stopped renewing the lease: it died, so the task did too.
    const failed = ended(record, "failed", stored(classify(new HttpError(500, STOPPED))));
    await store.write(failed);
    return await store.get(id) ?? failed;
  };

  const runtime: TaskRuntime = {
    async start(leaf, input, context, startOpts = {}) {
      const report = startOpts.onError ?? opts.onError ?? defaultOnError;
      // The store's subscriber out of reach refuses the start as its create would.
      await listen().catch((error) => {
        if (!isUnreachable(error)) throw error;
        report(error);
        throw unreachable(error);
      });
      const given = startOpts.owner;
      const ownerOf: TaskOwner = typeof given === "string" ? () => given : given ?? principalOf;
      const controller = new AbortController();
      let run: Run | undefined;
      let record: TaskRecord | undefined;
      let admit = () => {};
      const admitted = new Promise<true>((resolve) => admit = () => resolve(true));
      // Kept once the guards have let the call through, owned by whom they
      // established; the handler begins after, so that its first change finds it.
      const keep = async (guarded: HandlerContext) => {
        const now = Date.now();
        const made: TaskRecord = {
          id: taskId(),
          owner: await fingerprint(await ownerOf(guarded)),
          leaf: leaf.label,
          status: "working",
          createdAt: now,
          updatedAt: now,
          ttlMs,
          lease: now + 3 * heartbeatMs,
          logs: [],
        };
        try {
          await store.create(made);
        } catch (error) {
          report(error);
          throw unreachable(error);
        }
        record = made;
        run = new Run(made, store, { heartbeatMs, maxLogs }, controller);
        runs.set(made.id, run);
        admit();
      };
      const taskContext = withInteraction(
        onAdmitted(extended(context, { signal: controller.signal }), keep),
        {
          log: (level, message, data) => run?.log(level, message, data),
          progress: (done, total, message) => run?.progress(done, total, message),
          ...(startOpts.answers === true
            ? { ask: (...args: Parameters<Run["ask"]>) => run!.ask(...args) }
            : {}),
        },
      );
      const ending = settle(
        leaf.call,
        input,
        taskContext,
        startOpts.timeoutMs,
        report,
        () => run !== undefined,
      );
      ending.then((end) => run?.finish(end.status, end.change))
        .finally(() => record !== undefined && runs.delete(record.id));
      // A task is made of a call its guards and input schema let through: one
      // they refuse is the caller's answer, as for any call.
      const first = await Promise.race([admitted, ending]);
      if (first !== true) {
        if (first.refused !== undefined) throw first.refused;
        // Ended before it could be kept: a leaf that never reached its handler.
        throw new TypeError(`The long-running leaf ${leaf.label} ended before its handler ran`);
      }
      return record!;
    },
    get: find,
    async cancel(id, caller) {
      const record = await find(id, caller);
      if (record === undefined || isTerminal(record.status)) return record;
      await store.write(ended(record, "cancelled", stored(classify(new Cancelled()))));
      // The instance running it aborts its handler (this one's listener too).
      await store.signal(id, { kind: "cancel" });
      return await store.get(id);
    },
    async answer(id, caller, answer, key) {
      const record = await find(id, caller);
      if (record === undefined || record.status !== "input_required") return record;
      await store.signal(
        id,
        key === undefined ? { kind: "answer", answer } : { kind: "answer", answer, key },
      );
      return record;
    },
    async watch(id, caller, onChange) {
      // The subscriber out of reach is the store's: a 503 to try again, as for a start.
      await listen().catch((error) => {
        throw isUnreachable(error) ? unreachable(error) : error;
      });
      const watcher = () => {
        find(id, caller).then((record) => record && onChange(record), () => {});
      };
      let set = watchers.get(id);
      if (set === undefined) watchers.set(id, set = new Set());
      set.add(watcher);
      const stop = () => {
        set.delete(watcher);
        if (set.size === 0) watchers.delete(id);
        return Promise.resolve();
      };
      // Watching before the look-up: a change in between is not missed.
      if (await find(id, caller).catch(async (error) => (await stop(), Promise.reject(error)))) {
        return stop;
      }
      await stop();
      return undefined;
    },
    settled(id, caller, ms) {
      return whileWatched(
        runtime,
        id,
        caller,
        (record) => isTerminal(record.status),
        async (wait) => {
          const first = await find(id, caller);
          if (first === undefined || isTerminal(first.status) || ms <= 0) return first;
          await wait(ms);
          return await find(id, caller);
        },
      );
    },
    async close() {
      for (const run of runs.values()) {
        run.finish("failed", { failure: stored(classify(new HttpError(500, STOPPED))) });
        run.abort(new Cancelled());
      }
      const stop = await listening?.catch(() => undefined);
      listening = undefined;
      await stop?.();
      await Promise.all([...runs.values()].map((run) => run.written()));
    },
    http: (options) => httpTaskRoutes(runtime, options),
  };
  return runtime;
}

/**
 * How a task ended: its terminal status, and the result or the failure; a
 * call refused before its handler began also holds what it threw.
 */
interface End {
  readonly status: "completed" | "failed" | "cancelled";
  readonly change: Partial<TaskRecord>;
  readonly refused?: unknown;
}

async function settle(
  call: LeafCall,
  input: unknown,
  context: HandlerContext,
  timeoutMs: number | undefined,
  report: (error: unknown) => void,
  began: () => boolean,
): Promise<End> {
  try {
    const value = await perform(call, input, context, timeoutMs);
    return { status: "completed", change: jsonResult(value) };
  } catch (error) {
    const failure = failureOf(error, context);
    // Refused before the handler: the starter answers it (and reports a fault) as any call's.
    if (!began()) {
      return { status: "failed", change: { failure: stored(failure) }, refused: error };
    }
    if (failure.kind === "fault") {
      try {
        report(error);
      } catch {
        // An observer that throws must not leave the task pending.
      }
    }
    return {
      status: failure.kind === "cancelled" ? "cancelled" : "failed",
      change: { failure: stored(failure) },
    };
  }
}

/**
 * A result as a record keeps it: JSON data, as any store keeps it and every
 * surface sends it. Bytes, a stream or a `Response` cannot outlive the
 * request: a long-running leaf giving one is a fault.
 */
function jsonResult(value: unknown): Partial<TaskRecord> {
  const kind = resultKindOf(value);
  if (kind === "none") return {};
  if (kind !== "value") {
    throw new TypeError(`A long-running leaf must give JSON data, not ${kind}`);
  }
  return { result: JSON.parse(JSON.stringify(value)) };
}

function ended(
  record: TaskRecord,
  status: "failed" | "cancelled",
  failure: TaskFailure,
): TaskRecord {
  const { question: _question, questions: _questions, ...rest } = record;
  return { ...rest, status, failure, updatedAt: Date.now() };
}

/** Who owns a task, as kept: a SHA-256 of the identity, never the identity itself. */
async function fingerprint(owner: string | undefined): Promise<string | undefined> {
  return owner === undefined ? undefined : await sha256(owner);
}

/** A store out of reach: one line per outage (tree/outage.ts); any other fault with its stack. */
function defaultOnError(error: unknown): void {
  logFault("ramify: a task crashed:", error);
}

/** The store is out of reach: nothing was started, the caller may try again. */
function unreachable(error: unknown): HttpError {
  return new HttpError(503, UNREACHABLE, { headers: { "retry-after": "1" }, cause: error });
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`createTasks: ${name} must be a positive number, got ${value}`);
  }
  return value;
}
