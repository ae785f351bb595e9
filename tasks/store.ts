/**
 * Where tasks are kept: the {@linkcode TaskRecord} every surface reads, the
 * {@linkcode TaskStore} interface, and {@linkcode memoryTasks}, its store for
 * one process (the default). Several instances share one store on Redis
 * (`redisTasks` from `@ramify/api/redis`): any of them answers a task's
 * status, and a cancel reaches the one running it.
 *
 * The store knows records, not runs: the runtime (`createTasks`) writes a
 * whole record at each change, and a record that reached a terminal status
 * (`completed`, `failed`, `cancelled`) is never written again, so that of a
 * cancel and a late result, the first to land stands.
 *
 * @example
 * ```ts
 * import { createTasks, memoryTasks } from "@ramify/api/tasks";
 *
 * const tasks = createTasks({ store: memoryTasks(), ttlMs: 60 * 60_000 });
 * ```
 *
 * @module
 */

import type { AskResult, FormSchema, LogLevel } from "../tree/interaction.ts";
import type { FailureKind } from "../tree/failure.ts";
import type { ValidationIssue } from "../tree/schema.ts";

/**
 * Where a task stands. `working` and `input_required` (its handler asked a
 * question and waits for the answer) are live; the others are terminal.
 *
 * @example
 * ```ts
 * import type { TaskStatus } from "@ramify/api/tasks";
 *
 * const done: TaskStatus[] = ["completed", "failed", "cancelled"];
 * ```
 */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * Whether a status is terminal: the task will not change again.
 *
 * @example
 * ```ts
 * import { isTerminal } from "@ramify/api/tasks";
 *
 * console.log(isTerminal("working"), isTerminal("cancelled")); // false true
 * ```
 */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * A failed or cancelled task's failure, as `classify` made it (tree/failure.ts)
 * and as every surface renders it: a fault keeps nothing but its status.
 *
 * @example
 * ```ts
 * import type { TaskFailure } from "@ramify/api/tasks";
 *
 * const gone: TaskFailure = {
 *   kind: "declared", status: 404, title: "Not Found", code: "NOT_FOUND",
 *   declaredCode: false, type: "about:blank", detail: "No book 9",
 * };
 * ```
 */
export interface TaskFailure {
  /** Which of the five kinds. */
  readonly kind: FailureKind;
  /** The HTTP status every surface reports. */
  readonly status: number;
  /** The status's reason phrase, or a problem's own title. */
  readonly title: string;
  /** The declared code, else the status's. */
  readonly code: string;
  /** Whether the leaf or the thrower declared the code. */
  readonly declaredCode: boolean;
  /** The problem type URI. */
  readonly type: string;
  /** What went wrong; never set for a fault. */
  readonly detail?: string;
  /** The schema's issues, for `input`. */
  readonly issues?: readonly ValidationIssue[];
  /** A declared error's data. */
  readonly data?: unknown;
  /** Headers a declared `HttpError` asked for, as pairs. */
  readonly headers?: readonly (readonly [string, string])[];
}

/**
 * One log line of a task, from `log(ctx, ...)` in its handler.
 *
 * @example
 * ```ts
 * import type { TaskLog } from "@ramify/api/tasks";
 *
 * const line: TaskLog = { at: 1_767_225_600_000, level: "info", message: "halfway" };
 * ```
 */
export interface TaskLog {
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** Its severity. */
  readonly level: LogLevel;
  /** The line. */
  readonly message: string;
  /** What the handler gave beside it (JSON data). */
  readonly data?: unknown;
}

/**
 * A task as kept, and as every surface reads it.
 *
 * @example
 * ```ts
 * import type { TaskRecord } from "@ramify/api/tasks";
 *
 * const line = (task: TaskRecord) => `${task.id} ${task.status} ${task.progress?.done ?? 0}`;
 * ```
 */
export interface TaskRecord {
  /** Random and unguessable (144 bits, base64url). */
  readonly id: string;
  /** A fingerprint (SHA-256) of the identity that started it; none for an anonymous start. */
  readonly owner: string | undefined;
  /** The leaf's label (`catalog/reindex`). */
  readonly leaf: string;
  /** Where it stands. */
  readonly status: TaskStatus;
  /** When it started, in epoch milliseconds. */
  readonly createdAt: number;
  /** When it last changed, in epoch milliseconds. */
  readonly updatedAt: number;
  /** Milliseconds the record is kept after its last change. */
  readonly ttlMs: number;
  /**
   * Until when (epoch milliseconds) the instance running it is known alive:
   * it renews this at each heartbeat. A live task past it is failed by the
   * next reader, so that no task stays pending for ever.
   */
  readonly lease: number;
  /** The last progress its handler reported. */
  readonly progress?: {
    readonly done: number;
    readonly total?: number;
    readonly message?: string;
  };
  /** Its handler's log lines, the latest kept. */
  readonly logs: readonly TaskLog[];
  /** The question its handler asked, while `input_required` (the first, when it asked several). */
  readonly question?: { readonly message: string; readonly schema: FormSchema };
  /**
   * Every question it waits on, by key (the question's own `key`, else
   * `ask-1`, `ask-2`, ... in the order asked): questions asked together
   * (`Promise.all`) are answered one by one.
   */
  readonly questions?: {
    readonly [key: string]: { readonly message: string; readonly schema: FormSchema };
  };
  /** The result, as JSON data, once `completed` (absent for a result of nothing). */
  readonly result?: unknown;
  /** The failure, once `failed` or `cancelled`. */
  readonly failure?: TaskFailure;
}

/**
 * What one instance tells the instance running a task: cancel it, or here is
 * the answer to its question.
 *
 * @example
 * ```ts
 * import type { TaskSignal } from "@ramify/api/tasks";
 *
 * const stop: TaskSignal = { kind: "cancel" };
 * ```
 */
export type TaskSignal =
  | { readonly kind: "cancel" }
  | { readonly kind: "answer"; readonly answer: AskResult; readonly key?: string };

/**
 * What a {@linkcode TaskStore} tells its listeners, from every instance.
 *
 * @example
 * ```ts
 * import type { TaskListener } from "@ramify/api/tasks";
 *
 * const listener: TaskListener = { changed: (id) => console.log("changed", id), signal: () => {} };
 * ```
 */
export interface TaskListener {
  /** A task's record was written. */
  changed(id: string): void;
  /** A signal was sent to a task. */
  signal(id: string, signal: TaskSignal): void;
}

/**
 * The records of tasks, shared by the instances of a service. Every method
 * may reject (a store out of reach): the surface answers `503`.
 *
 * @example
 * ```ts
 * import type { TaskStore } from "@ramify/api/tasks";
 *
 * const logged = (store: TaskStore): TaskStore => ({
 *   ...store,
 *   create: (record) => (console.log("task", record.id), store.create(record)),
 * });
 * ```
 */
export interface TaskStore {
  /** Keeps a new record for its `ttlMs`. */
  create(record: TaskRecord): Promise<void>;
  /** The record of `id`, if kept. */
  get(id: string): Promise<TaskRecord | undefined>;
  /**
   * Replaces the record (its retention starting again) and tells the
   * listeners, unless the kept one is terminal or gone: `false` then, and
   * nothing changes.
   */
  write(record: TaskRecord): Promise<boolean>;
  /** Sends `signal` to the listeners of every instance. */
  signal(id: string, signal: TaskSignal): Promise<void>;
  /** Listens to every task's changes and signals; resolves with the way to stop. */
  listen(listener: TaskListener): Promise<() => Promise<void>>;
}

/**
 * Options of {@linkcode memoryTasks}.
 *
 * @example
 * ```ts
 * import type { MemoryTasksOptions } from "@ramify/api/tasks";
 *
 * const opts: MemoryTasksOptions = { maxEntries: 1_000 };
 * ```
 */
export interface MemoryTasksOptions {
  /** The most records kept; past it the oldest is forgotten. Default 10,000. */
  readonly maxEntries?: number;
  /** The current time in epoch milliseconds (injectable for tests). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The task records of one process. Records are kept as JSON text, as Redis
 * keeps them, so that a result reads the same from either store.
 *
 * @example
 * ```ts
 * import { memoryTasks } from "@ramify/api/tasks";
 *
 * const store = memoryTasks({ maxEntries: 100 });
 * console.log(await store.get("nope")); // undefined
 * ```
 */
export function memoryTasks(opts: MemoryTasksOptions = {}): TaskStore {
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const kept = new Map<string, { readonly text: string; readonly until: number }>();
  const listeners = new Set<TaskListener>();
  const read = (id: string): TaskRecord | undefined => {
    const found = kept.get(id);
    if (found === undefined) return undefined;
    if (found.until <= now()) {
      kept.delete(id);
      return undefined;
    }
    return JSON.parse(found.text) as TaskRecord;
  };
  const keep = (record: TaskRecord) => {
    kept.delete(record.id);
    kept.set(record.id, { text: JSON.stringify(record), until: now() + record.ttlMs });
    // A Map iterates in insertion order: the first key is the least recently written.
    while (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
  };
  // Told after the writer's own step, as a listener on Redis hears it.
  const tell = (deliver: (listener: TaskListener) => void) =>
    queueMicrotask(() => {
      for (const listener of listeners) deliver(listener);
    });
  return {
    create(record) {
      keep(record);
      return Promise.resolve();
    },
    get(id) {
      return Promise.resolve(read(id));
    },
    write(record) {
      const found = read(record.id);
      if (found === undefined || isTerminal(found.status)) return Promise.resolve(false);
      keep(record);
      tell((listener) => listener.changed(record.id));
      return Promise.resolve(true);
    },
    signal(id, signal) {
      tell((listener) => listener.signal(id, signal));
      return Promise.resolve();
    },
    listen(listener) {
      listeners.add(listener);
      return Promise.resolve(() => {
        listeners.delete(listener);
        return Promise.resolve();
      });
    },
  };
}
