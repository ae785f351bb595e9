// What a generated client module holds for long-running fields (leaves tagged
// `longRunning`), and only when the tree has one: a second text of the typed
// client's task code (`_tasks.ts`), so that the module still imports nothing.
// A call sends the field's mutation, then reads `task(id)` with the same
// backoff until the task ends (its result, or the module's `GraphQLClientError`
// with the failure's `code` and `status` in `extensions`); `{ async: true }`
// gives a `TaskHandle` (`status`, `result`, `cancel`, `answer`, through
// `task`, `cancelTask` and `answerTask`); an abort of the call's signal
// cancels the task. Its `TaskHandle`, `TaskState` and `TaskQuestionState` are
// the typed client's, written out. Two texts of one decision:
// tests/graphql/client/generate_tasks_agreement_test.ts runs one leaf through
// both clients against one server and asserts the same outcomes, the same
// pauses between reads and the same types.

// The poll schedule and the task documents are the typed client's values,
// written into the module: one source.
import { TASK_DOCUMENTS } from "./_tasks.ts";
import { TASK_POLL_MS } from "../../client/task_poll.ts";

/** The names this part of the runtime takes (a schema type of one of them would clash). */
export const TASK_RUNTIME_TYPES: readonly string[] = [
  "TaskCall",
  "TaskCallOptions",
  "TaskHandle",
  "TaskState",
  "TaskQuestionState",
  "TaskFields",
];

/**
 * The runtime's task part; it follows the runtime, whose transport, `GraphQLCall`
 * and error it uses. A function, not a constant: a bundle of a server that
 * never generates a client then keeps none of this text.
 */
export function taskRuntime(): string {
  return `/**
 * A question a task waits on: \`key\` names it in \`TaskHandle.answer\`, \`schema\`
 * is the JSON Schema (a flat form) of the answer.
 */
export interface TaskQuestionState {
  /** What names it in an answer. */
  readonly key: string;
  /** What the handler asks. */
  readonly message: string;
  /** The answer's form, as JSON Schema. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** Where a task stands (the typed client's \`TaskState\`). */
export interface TaskState {
  /** The task's id. */
  readonly id?: string;
  /** Where it stands. */
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** The operation's label. */
  readonly operation?: string;
  /** When it started and last changed (date-time strings). */
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** The last progress its handler reported. */
  readonly progress?: { readonly done: number; readonly total?: number; readonly message?: string };
  /** Its handler's latest log lines (none over GraphQL). */
  readonly logs: readonly {
    readonly at: string;
    readonly level: string;
    readonly message: string;
    readonly data?: unknown;
  }[];
  /** What its handler asks first, while \`input_required\`. */
  readonly question?: TaskQuestionState;
  /** Every question it waits on, while \`input_required\`, in the order asked. */
  readonly questions?: readonly TaskQuestionState[];
  /** Its failure, once \`failed\` or \`cancelled\`. */
  readonly error?: {
    readonly status: number;
    readonly title: string;
    readonly detail?: string;
    readonly code?: string;
  };
}

/** A long-running call's handle, from a call with \`{ async: true }\` (the typed client's \`TaskHandle\`). */
export interface TaskHandle<T, D> {
  /** The task's id. */
  readonly id: string | undefined;
  /** Undefined: the task is read through \`task(id)\`. */
  readonly location: string | undefined;
  /** Where it stands now. */
  status(): Promise<TaskState>;
  /** Its result once it ends (read with backoff), or the error of its failure. */
  result(): GraphQLCall<T, D>;
  /** Cancels it (its handler's signal aborts); where it stands after. */
  cancel(): Promise<TaskState>;
  /**
   * Answers the question its handler asked while it is \`input_required\`: the
   * one \`key\` names, else the first; where it stands after (a
   * \`GraphQLClientError\` for an answer refused).
   */
  answer(answer: Readonly<Record<string, unknown>>, key?: string): Promise<TaskState>;
}

/** The options of a long-running operation's call. */
export type TaskCallOptions = {
  /** Stops the wait for the result, and cancels the task. */
  readonly signal?: AbortSignal;
  /** \`true\` resolves at once with the task's handle instead of its result. */
  readonly async?: boolean;
};

/**
 * A long-running operation's call (its leaf runs as a task): its result once
 * the task ends, or the error of its failure; with \`{ async: true }\` the
 * task's handle at once (\`id\`, \`status()\`, \`result()\`, \`cancel()\`, \`answer()\`).
 */
export interface TaskCall<A extends unknown[], T, E = Record<never, never>> {
  (...args: [...A, options: TaskCallOptions & { readonly async: true }]): Promise<TaskHandle<T, E>>;
  (...args: [...A, options?: TaskCallOptions]): GraphQLCall<T, E>;
}

/** A \`Task\` as the server answers it: the fields the client reads. */
interface TaskFields {
  readonly id: string;
  readonly status: "WORKING" | "INPUT_REQUIRED" | "COMPLETED" | "FAILED" | "CANCELLED";
  readonly operation: string;
  readonly progress: { readonly done: number; readonly total: number | null; readonly message: string | null } | null;
  readonly question: TaskQuestionState | null;
  readonly questions: readonly TaskQuestionState[] | null;
  readonly result: unknown;
  readonly error: {
    readonly status: number;
    readonly code: string;
    readonly message: string;
    readonly data: unknown;
  } | null;
}

/** The pauses between two reads of a task, in milliseconds: the first, then doubled up to the longest. */
const TASK_POLL_MS = ${
    JSON.stringify({ first: TASK_POLL_MS.first, longest: TASK_POLL_MS.longest })
  };

/** The documents that read, cancel and answer a task. */
const TASK_DOCUMENTS = ${JSON.stringify(TASK_DOCUMENTS, null, 2)};

/**
 * Starts a long-running field's task: its result once it ends, or with
 * \`{ async: true }\` its handle at once. An abort of the signal cancels it.
 */
function task<T, E = Record<never, never>>(
  transport: Transport,
  operation: Operation,
  path: readonly string[],
  voidResult: boolean,
  errors: readonly string[],
  options: TaskCallOptions = {},
): GraphQLCall<T, E> {
  return (async (): Promise<T | TaskHandle<T, E>> => {
    const response = await transport.request(operation);
    if (response.errors !== undefined && response.errors.length > 0) {
      throw new GraphQLClientError(response.errors, response.data, errors);
    }
    let first: unknown = response.data;
    for (const key of path) {
      first = typeof first === "object" && first !== null ? (first as Record<string, unknown>)[key] : undefined;
    }
    const id = (first as TaskFields).id;
    const send = async (document: { query: string; operationName: string; field: string }, variables: Record<string, unknown>) => {
      const read = await transport.request({ query: document.query, operationName: document.operationName, variables });
      if (read.errors !== undefined && read.errors.length > 0) throw new GraphQLClientError(read.errors, read.data);
      return read.data?.[document.field] as TaskFields;
    };
    const read = () => send(TASK_DOCUMENTS.read, { id });
    const handle: TaskHandle<T, E> = {
      id,
      location: undefined,
      status: async () => taskState(await read()),
      result: () => taskSettled<T>(read, voidResult, errors, undefined),
      cancel: async () => taskState(await send(TASK_DOCUMENTS.cancel, { id })),
      answer: async (answer, key) =>
        taskState(await send(TASK_DOCUMENTS.answer, key === undefined ? { id, answer } : { id, answer, key })),
    };
    if (options.async === true) return handle;
    const signal = options.signal;
    if (signal?.aborted === true) {
      // The transport takes no signal, so the start may end after the abort: its task is cancelled then.
      await handle.cancel().catch(() => {});
      throw signal.reason;
    }
    const stop = () => void handle.cancel().catch(() => {});
    signal?.addEventListener("abort", stop, { once: true });
    try {
      return await taskSettled<T>(read, voidResult, errors, signal);
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  })() as GraphQLCall<T, E>;
}

/** Reads the task with backoff until it ends: its result, or its failure thrown. */
async function taskSettled<T>(
  read: () => Promise<TaskFields>,
  voidResult: boolean,
  errors: readonly string[],
  signal: AbortSignal | undefined,
): Promise<T> {
  let pause = TASK_POLL_MS.first;
  for (;;) {
    signal?.throwIfAborted();
    const current = await read();
    if (current.status === "COMPLETED") return (voidResult ? undefined : current.result) as T;
    if (current.status === "FAILED" || current.status === "CANCELLED") {
      const { status, code, message, data } = current.error ??
        { status: 500, code: "INTERNAL_SERVER_ERROR", message: "", data: null };
      // A declared error's data goes where any call's does: \`extensions.data\`, read as \`details\`.
      const extensions = data === null ? { code, status } : { code, status, data };
      throw new GraphQLClientError([{ message, extensions }], null, errors);
    }
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) return reject(signal.reason);
      const aborted = () => (clearTimeout(timer), reject(signal?.reason));
      const timer = setTimeout(() => (signal?.removeEventListener("abort", aborted), resolve()), pause);
      signal?.addEventListener("abort", aborted, { once: true });
    });
    pause = Math.min(pause * 2, TASK_POLL_MS.longest);
  }
}

/** A \`Task\` as a \`TaskState\`, as the typed client reads it. */
function taskState(task: TaskFields): TaskState {
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
    ...(error === null ? {} : { error: { status: error.status, title: error.message, code: error.code } }),
  };
}`;
}
