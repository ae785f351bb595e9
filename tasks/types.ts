/**
 * What every surface holds of the task runtime: its interface
 * ({@linkcode TaskRuntime}), what a task runs and how one starts, and what an
 * HTTP router gives it for its status resources. Apart from the runtime
 * itself (tasks/runtime.ts), which makes its HTTP resources (tasks/http.ts):
 * both read these types, so neither imports the other's.
 *
 * @example
 * ```ts
 * import type { TaskLeaf } from "@ramify/api/tasks";
 *
 * const ping: TaskLeaf = { label: "ping", call: () => "pong" };
 * ```
 *
 * @module
 */

import type { LeafCall } from "../tree/call.ts";
import type { ContextFunction, RequestContextSource } from "../tree/context.ts";
import type { Failure } from "../tree/failure.ts";
import type { AskResult } from "../tree/interaction.ts";
import type { HandlerContext, Node } from "../tree/node.ts";
import type { TaskCaller, TaskOwner } from "./owner.ts";
import type { TaskRecord } from "./store.ts";

/**
 * Options of one {@linkcode TaskRuntime.start}.
 *
 * @example
 * ```ts
 * import type { StartOptions } from "@ramify/api/tasks";
 *
 * const opts: StartOptions = { owner: "user-7", answers: true, timeoutMs: 10 * 60_000 };
 * ```
 */
export interface StartOptions {
  /**
   * Who the task belongs to: an identity, or read from the context the leaf's
   * guards made once they let the call through. Only the same identity finds
   * it again. Default `principalOf` (the principal the guards established).
   */
  readonly owner?: string | TaskOwner;
  /** Whether the starter's surface can answer the handler's `ask()` (else `unsupported`). */
  readonly answers?: boolean;
  /** Milliseconds the handler may run; then the task fails with `503`. Default none. */
  readonly timeoutMs?: number;
  /** Observes this task's fault (the surface's `onError`, with its request). */
  readonly onError?: (error: unknown) => void;
}

/**
 * What a task runs: a catalogue entry (`catalogueOf(tree).entries`), or any
 * prepared call with a label.
 *
 * @example
 * ```ts
 * import type { TaskLeaf } from "@ramify/api/tasks";
 *
 * const ping: TaskLeaf = { label: "ping", call: () => "pong" };
 * ```
 */
export interface TaskLeaf {
  /** The leaf's label, kept in the record. */
  readonly label: string;
  /** Its one prepared call (`entry.call`). */
  readonly call: LeafCall;
}

/**
 * The task runtime every surface shares: start, read, watch, answer and
 * cancel. Every method may reject when the store is out of reach.
 *
 * @example
 * ```ts
 * import { createTasks, type TaskRuntime } from "@ramify/api/tasks";
 *
 * const tasks: TaskRuntime = createTasks();
 * console.log(await tasks.get("unknown")); // undefined
 * await tasks.close();
 * ```
 */
export interface TaskRuntime {
  /** Starts a task of `leaf` with `input` and the starter's `context`; resolves once it is kept. */
  start(
    leaf: TaskLeaf,
    input: unknown,
    context: HandlerContext,
    opts?: StartOptions,
  ): Promise<TaskRecord>;
  /** The task `id` as `caller` may see it: undefined when unknown, expired, or another's. */
  get(id: string, caller?: TaskCaller): Promise<TaskRecord | undefined>;
  /**
   * Cancels a live task (it ends `cancelled`, and the running instance aborts
   * its handler's signal); a terminal one is returned as it is.
   */
  cancel(id: string, caller?: TaskCaller): Promise<TaskRecord | undefined>;
  /**
   * Answers the question of a task that is `input_required` (the one `key`
   * names in `questions`, else the first); any other is returned as it is.
   */
  answer(
    id: string,
    caller: TaskCaller,
    answer: AskResult,
    key?: string,
  ): Promise<TaskRecord | undefined>;
  /**
   * Calls `listener` with the record at each change of the task, from any
   * instance; resolves with the way to stop (undefined when not found).
   */
  watch(
    id: string,
    caller: TaskCaller,
    listener: (record: TaskRecord) => void,
  ): Promise<(() => Promise<void>) | undefined>;
  /** The task once terminal, or as it is after `ms` milliseconds. */
  settled(id: string, caller: TaskCaller, ms: number): Promise<TaskRecord | undefined>;
  /** Stops listening; tasks still running here end `failed`, as if the instance had died. */
  close(): Promise<void>;
  /**
   * The status resources an HTTP router serves over this runtime
   * (`{prefix}/{id}`, `/result`, `/input`) and the call a long-running leaf's
   * route makes, written with the router's kit: what `createFetch` and
   * `createRouter` take of the `tasks` option (tasks/http.ts).
   */
  http(options: HttpTaskOptions): HttpTaskRoutes;
}

/**
 * What a router gives its task resources: where they are, whom a task is for,
 * and its web kit (how it reads a body and writes an answer).
 *
 * @example
 * ```ts
 * import type { HttpTaskOptions } from "@ramify/api/tasks";
 *
 * const kit: Pick<HttpTaskOptions, "prefix" | "value"> = {
 *   prefix: "/api/.tasks",
 *   value: (value, status) => Response.json(value, { status }),
 * };
 * ```
 */
export interface HttpTaskOptions {
  /** The path of the status resources, `{basePath}/.tasks`: a task's is `{prefix}/{id}`. */
  readonly prefix: string;
  /** Who a call speaks for, from the context its guards made. Default `principalOf`. */
  readonly taskOwner: TaskOwner | undefined;
  /** The router's `context` option: a status resource's caller gets the same values. */
  readonly context: ContextFunction<RequestContextSource> | undefined;
  /** Observes a fault, with its request. */
  readonly report: (error: unknown, request: Request) => void;
  /** The success status of each long-running leaf, by label (200 where not declared). */
  readonly statuses: ReadonlyMap<string, number>;
  /** Each long-running leaf, by label: a status resource runs its guards for the caller. */
  readonly leaves: ReadonlyMap<string, Node>;
  /** A JSON body's values, read within the router's limits (a refusal thrown as `HttpError`). */
  readonly read: (request: Request) => Promise<Record<string, unknown> | undefined>;
  /** A failure as the router answers it: problem+json with its status and headers. */
  readonly failure: (failure: Failure) => Response;
  /** A failure as the status document's `error`: its problem object. */
  readonly problem: (failure: Failure) => unknown;
  /** A value as the router answers it, with its status. */
  readonly value: (value: unknown, status: number) => Response;
}

/**
 * A router's long-running leaves and status resources.
 *
 * @example
 * ```ts
 * import type { HttpTaskRoutes } from "@ramify/api/tasks";
 *
 * const serveTasks = (routes: HttpTaskRoutes, request: Request, rest: string) =>
 *   routes.answer(request, rest);
 * ```
 */
export interface HttpTaskRoutes {
  /** The call a long-running leaf's route runs: a task started, its handle or answer. */
  starter(leaf: TaskLeaf, status: number): LeafCall;
  /** Answers a request under `{prefix}/`; `rest` is the path after it. */
  answer(request: Request, rest: string): Promise<Response>;
}
