// The resolvers of long-running leaves and of the task fields (see
// `_tasks.ts`), over the one task runtime every surface shares (the `tasks`
// option; else one of the schema's own, loaded with the first task, so a
// server whose tree has none never loads it). A long-running leaf's field
// starts a task of the leaf's call, its guards and schemas applying as for any
// call, owned by the principal they established; the task fields run the
// starting leaf's guards for the caller, and any other identity finds no task. A
// task that cannot be found is `NOT_FOUND` (404), cancelling one that ended is
// `CONFLICT` (409), a store out of reach is 503: the HTTP surface's answers.
// Answering a question is `answerTask` (tasks/answer.ts), as on every surface:
// `CONFLICT` for a task not waiting on it, 422 for an answer that does not fit.

import { type TaskCaller, taskCaller } from "../../tasks/owner.ts";
import type { HandlerContext, Node } from "../../tree/node.ts";
import { principalOf } from "../../tree/principal.ts";
import { labelOf } from "../../tree/leaves.ts";
import { HttpError } from "../../tree/http_error.ts";
import { answerTask, type TaskQuestion, taskQuestions } from "../../tasks/answer.ts";
import type { TaskRuntime } from "../../tasks/runtime.ts";
import { isTerminal, type TaskRecord } from "../../tasks/store.ts";
import type { GraphQLLeafField } from "./projection.ts";
import { handlerContext, inputOf, type InputTypes, type Resolver } from "./_resolve.ts";
import { type ClientError, observer, type ResolveOptions } from "./errors.ts";

/** A task as the `Task` type gives it. */
interface TaskObject {
  readonly id: string;
  readonly status: string;
  readonly operation: string;
  readonly progress: TaskRecord["progress"] | null;
  readonly question: TaskQuestion | null;
  readonly questions: readonly TaskQuestion[] | null;
  readonly result: unknown;
  readonly error: { status: number; code: string; message: string; data: unknown } | null;
}

/** The resolvers of one schema's tasks. */
export interface TaskResolvers {
  /** A long-running leaf's field: starts its task, answers its handle. */
  start(field: GraphQLLeafField): Resolver;
  /** `Query.task`. */
  readonly get: Resolver;
  /** `Mutation.cancelTask`. */
  readonly cancel: Resolver;
  /** `Mutation.answerTask`. */
  readonly answer: Resolver;
  /** `Subscription.task`. */
  readonly watch: { subscribe: Resolver; resolve: (payload: unknown) => unknown };
}

/** The task resolvers of a schema made with `opts`. */
export function taskResolvers(
  opts: ResolveOptions,
  inputs: InputTypes,
  toClient: ClientError,
  fields: readonly GraphQLLeafField[],
): TaskResolvers {
  const leaves = new Map<string, Node>();
  for (const field of fields) {
    if (field.longRunning === true) leaves.set(labelOf(field.steps), field.node);
  }
  let made: Promise<TaskRuntime> | undefined;
  const runtime = () =>
    opts.tasks === undefined
      ? made ??= import("../../tasks/runtime.ts").then(({ createTasks }) => createTasks())
      : Promise.resolve(opts.tasks);
  const ownerOf = opts.taskOwner ?? principalOf;
  const report = observer(opts.onError, "ramify: a GraphQL task failed:");
  // Each resolver's failure rendered as any field's; a store out of reach is a 503.
  const resolver = (
    work: (
      tasks: TaskRuntime,
      owner: TaskCaller,
      args: Record<string, unknown>,
      context: HandlerContext,
    ) => Promise<unknown>,
  ): Resolver =>
  async (_parent, args, context) => {
    const ctx = handlerContext(context);
    try {
      const caller = taskCaller((label) => leaves.get(label), ctx, ownerOf);
      return await work(await runtime(), caller, args, ctx);
    } catch (error) {
      if (error instanceof HttpError) throw toClient(error, ctx);
      report(error, ctx.request as Request | undefined);
      throw toClient(new HttpError(503, "Tasks are out of reach for now; try again"), ctx);
    }
  };
  const found = async (tasks: TaskRuntime, id: unknown, owner: TaskCaller) => {
    const record = typeof id === "string" ? await tasks.get(id, owner) : undefined;
    if (record === undefined) throw new HttpError(404, "No such task");
    return record;
  };
  return {
    start(field) {
      const leaf = field.entry;
      return resolver(async (tasks, _caller, args, ctx) =>
        taskObject(
          await tasks.start(leaf, inputOf(field, args, inputs), ctx, {
            owner: ownerOf,
            // Its questions are answered with `answerTask`.
            answers: true,
            onError: (error) => report(error, ctx.request as Request | undefined),
          }),
        )
      );
    },
    get: resolver(async (tasks, owner, { id }) => taskObject(await found(tasks, id, owner))),
    cancel: resolver(async (tasks, owner, { id }) => {
      const before = await found(tasks, id, owner);
      if (isTerminal(before.status)) {
        throw new HttpError(409, `The task has already ended (${before.status})`);
      }
      return taskObject((await tasks.cancel(before.id, owner)) ?? before);
    }),
    answer: resolver(async (tasks, owner, { id, answer, key }) =>
      taskObject(
        await answerTask(
          tasks,
          String(id),
          owner,
          answer,
          typeof key === "string" ? key : undefined,
        ),
      )
    ),
    watch: {
      subscribe: resolver(async (tasks, owner, { id }) => {
        const stream = new TaskStream();
        const stop = await tasks.watch(String(id), owner, (record) => stream.push(record));
        if (stop === undefined) throw new HttpError(404, "No such task");
        stream.stop = stop;
        // Read after watching: a change in between is not missed, only repeated.
        const first = await tasks.get(String(id), owner).catch(async (error) => {
          await stop();
          throw error;
        });
        if (first !== undefined) stream.push(first);
        return stream;
      }),
      resolve: (payload) => payload,
    },
  };
}

/**
 * The task at each change, once each, until it ends; returning early (the
 * client unsubscribing) stops watching at once, even while it waits.
 */
class TaskStream implements AsyncIterableIterator<TaskObject> {
  /** Stops watching the task. */
  stop: () => Promise<void> = () => Promise.resolve();
  #changes: TaskRecord[] = [];
  #wake: (() => void) | undefined;
  #done = false;
  #last = "";

  push(record: TaskRecord): void {
    this.#changes.push(record);
    this.#wake?.();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<TaskObject>> {
    while (!this.#done) {
      const record = this.#changes.shift();
      if (record === undefined) {
        await new Promise<void>((resolve) => this.#wake = resolve);
        this.#wake = undefined;
        continue;
      }
      const task = taskObject(record);
      const text = JSON.stringify(task);
      if (text === this.#last) continue;
      this.#last = text;
      if (isTerminal(record.status)) await this.#finish();
      return { value: task, done: false };
    }
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<TaskObject>> {
    await this.#finish();
    return { value: undefined, done: true };
  }

  async #finish(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    this.#wake?.();
    await this.stop();
  }
}

/**
 * A record as the `Task` type: the status as its enum value; a fault's error
 * says only its status; a declared error's data is its `data` (null for any other).
 */
function taskObject(record: TaskRecord): TaskObject {
  const failure = record.failure;
  const questions = taskQuestions(record);
  return {
    id: record.id,
    status: record.status.toUpperCase(),
    operation: record.leaf,
    progress: record.progress ?? null,
    question: questions[0] ?? null,
    questions: questions.length === 0 ? null : questions,
    result: record.status === "completed" ? record.result ?? null : null,
    error: failure === undefined ? null : {
      status: failure.status,
      code: failure.code,
      message: failure.detail ?? failure.title,
      data: failure.kind === "declared" ? failure.data ?? null : null,
    },
  };
}
