// Long-running leaves on the GraphQL client (see docs/tasks.md): the field
// answers a `Task` handle. By default the call awaits the task's result, as
// the HTTP client does: it reads `task(id)` with backoff until the task ends,
// then resolves with the result (dates revived) or rejects with a
// `GraphQLClientError` carrying the failure's code and status, as the call's
// own error would; an abort of the call's signal cancels the task. With
// `{ async: true }` it resolves at once with a `TaskHandle`, whose `answer`
// answers the task's question through `answerTask`.

import { delay } from "../../tree/deadline.ts";
import type { CallOptions } from "../../http/client/extension.ts";
import type { TaskHandle, TaskQuestionState, TaskState } from "../../http/client/client_types.ts";

/** The first and the longest pause between reads, in milliseconds. */
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 2_000;

/** What the client reads of a `Task`. */
export const TASK_SELECTION =
  "id status operation progress { done total message } question questions result error { status code message }";

const READ = `query Task($id: ID!) { task(id: $id) { ${TASK_SELECTION} } }`;
const CANCEL = `mutation CancelTask($id: ID!) { cancelTask(id: $id) { ${TASK_SELECTION} } }`;
const ANSWER = `mutation AnswerTask($id: ID!, $answer: JSON!, $key: String) {
  answerTask(id: $id, answer: $answer, key: $key) { ${TASK_SELECTION} }
}`;

/** A `Task` as the server answers it. */
export interface GraphQLTask {
  readonly id: string;
  readonly status: "WORKING" | "INPUT_REQUIRED" | "COMPLETED" | "FAILED" | "CANCELLED";
  readonly operation: string;
  readonly progress: { done: number; total: number | null; message: string | null } | null;
  readonly question: TaskQuestionState | null;
  readonly questions: readonly TaskQuestionState[] | null;
  readonly result: unknown;
  readonly error: { status: number; code: string; message: string } | null;
}

/** What the call lends its task: its transport, and its decoding. */
export interface GraphQLTaskIo {
  /** Sends one of the task documents with its variables; the field's value, or a rejection. */
  send(
    query: string,
    operationName: string,
    field: string,
    variables: { readonly id: string; readonly [name: string]: unknown },
  ): Promise<GraphQLTask>;
  /** The call's error for a task's failure. */
  fail(error: NonNullable<GraphQLTask["error"]>): Error;
  /** The result as the call gives it (dates revived). */
  revive(result: unknown): unknown;
}

/** The answer of a call of a long-running leaf: its handle when asked, else its result. */
export async function taskAnswer(
  first: GraphQLTask,
  options: CallOptions,
  io: GraphQLTaskIo,
): Promise<unknown> {
  const id = first.id;
  const read = () => io.send(READ, "Task", "task", { id });
  const handle: TaskHandle<unknown, unknown> = {
    id: first.id,
    // No URL: the task is read through `task(id)`.
    location: undefined,
    status: async () => stateOf(await read()),
    result: () => settled(read, io, undefined),
    cancel: async () => stateOf(await io.send(CANCEL, "CancelTask", "cancelTask", { id })),
    answer: async (answer, key) =>
      stateOf(
        await io.send(ANSWER, "AnswerTask", "answerTask", {
          id,
          answer,
          ...(key === undefined ? {} : { key }),
        }),
      ),
  };
  if (options.async === true) return handle;
  const signal = options.signal;
  const stop = () => void handle.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  try {
    return await settled(read, io, signal);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/** Reads the task with backoff until it ends: its result, or its failure thrown. */
async function settled(
  read: () => Promise<GraphQLTask>,
  io: GraphQLTaskIo,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let pause = FIRST_POLL_MS;
  for (;;) {
    signal?.throwIfAborted();
    const task = await read();
    if (task.status === "COMPLETED") return io.revive(task.result);
    if (task.status === "FAILED" || task.status === "CANCELLED") {
      throw io.fail(task.error ?? { status: 500, code: "INTERNAL_SERVER_ERROR", message: "" });
    }
    await delay(pause, signal);
    pause = Math.min(pause * 2, LONGEST_POLL_MS);
  }
}

/** A `Task` as the HTTP client's `TaskState`, so that a handle reads the same from either. */
function stateOf(task: GraphQLTask): TaskState {
  const { progress, error, question, questions } = task;
  return {
    id: task.id,
    status: task.status.toLowerCase() as TaskState["status"],
    operation: task.operation,
    ...(progress === null ? {} : {
      progress: {
        done: progress.done,
        ...(progress.total === null ? {} : { total: progress.total }),
        ...(progress.message === null ? {} : { message: progress.message }),
      },
    }),
    logs: [],
    ...(question === null ? {} : { question }),
    ...(questions === null ? {} : { questions }),
    ...(error === null ? {} : {
      error: { status: error.status, title: error.message, code: error.code },
    }),
  };
}
