// Long-running leaves on the GraphQL client (see docs/tasks.md): the field
// answers a `Task` handle. By default the call awaits the task's result, as
// the HTTP client does: it reads `task(id)` with backoff until the task ends,
// then resolves with the result (dates revived) or rejects with a
// `GraphQLClientError` carrying the failure's code and status, as the call's
// own error would; an abort of the call's signal cancels the task. With
// `{ async: true }` it resolves at once with a `TaskHandle`, whose `answer`
// answers the task's question through `answerTask`. The start is sent without
// the call's signal, so that the task's id is known whenever the abort comes.

import { pollTask } from "../../client/task_poll.ts";
import type { CallOptions } from "../../client/extension.ts";
import type { TaskHandle, TaskQuestionState, TaskState } from "../../client/client_types.ts";

/** What the client reads of a `Task`. */
export const TASK_SELECTION =
  "id status operation progress { done total message } question questions result error { status code message data }";

/** One task document: its text, its operation's name, and the root field it answers. */
export interface TaskDocument {
  readonly query: string;
  readonly operationName: string;
  readonly field: string;
}

/**
 * The documents that read, cancel and answer a task, as both clients send
 * them (the generated module carries them to the character) and as
 * `toTrustedDocuments` lists them.
 *
 * @example
 * ```ts ignore
 * const { query, operationName } = TASK_DOCUMENTS.read; // "query Task($id: ID!) { … }", "Task"
 * ```
 */
export const TASK_DOCUMENTS: Readonly<Record<"read" | "cancel" | "answer", TaskDocument>> = {
  read: {
    query: `query Task($id: ID!) { task(id: $id) { ${TASK_SELECTION} } }`,
    operationName: "Task",
    field: "task",
  },
  cancel: {
    query: `mutation CancelTask($id: ID!) { cancelTask(id: $id) { ${TASK_SELECTION} } }`,
    operationName: "CancelTask",
    field: "cancelTask",
  },
  answer: {
    query: `mutation AnswerTask($id: ID!, $answer: JSON!, $key: String) {
  answerTask(id: $id, answer: $answer, key: $key) { ${TASK_SELECTION} }
}`,
    operationName: "AnswerTask",
    field: "answerTask",
  },
};

/** A `Task` as the server answers it. */
export interface GraphQLTask {
  readonly id: string;
  readonly status: "WORKING" | "INPUT_REQUIRED" | "COMPLETED" | "FAILED" | "CANCELLED";
  readonly operation: string;
  readonly progress: { done: number; total: number | null; message: string | null } | null;
  readonly question: TaskQuestionState | null;
  readonly questions: readonly TaskQuestionState[] | null;
  readonly result: unknown;
  readonly error: TaskFailure | null;
}

/** A `TaskError`: `data` is a declared error's data, else null. */
export interface TaskFailure {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly data: unknown;
}

/** What the call lends its task: its transport, and its decoding. */
export interface GraphQLTaskIo {
  /** Sends one of the task documents with its variables; the field's value, or a rejection. */
  send(
    document: TaskDocument,
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
  const read = () => io.send(TASK_DOCUMENTS.read, { id });
  const handle: TaskHandle<unknown, unknown> = {
    id: first.id,
    // No URL: the task is read through `task(id)`.
    location: undefined,
    status: async () => stateOf(await read()),
    result: () => settled(read, io, undefined),
    cancel: async () => stateOf(await io.send(TASK_DOCUMENTS.cancel, { id })),
    answer: async (answer, key) => {
      const variables = key === undefined ? { id, answer } : { id, answer, key };
      return stateOf(await io.send(TASK_DOCUMENTS.answer, variables));
    },
  };
  if (options.async === true) return handle;
  const signal = options.signal;
  if (signal?.aborted === true) {
    // The start is sent without the signal, so that its task's id is known: an
    // abort while it was in flight cancels the task now.
    await handle.cancel().catch(() => {});
    throw signal.reason;
  }
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
  return await pollTask(async () => {
    const task = await read();
    if (task.status === "COMPLETED") return { value: io.revive(task.result) };
    if (task.status === "FAILED" || task.status === "CANCELLED") {
      throw io.fail(
        task.error ?? { status: 500, code: "INTERNAL_SERVER_ERROR", message: "", data: null },
      );
    }
    return undefined;
  }, signal);
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
