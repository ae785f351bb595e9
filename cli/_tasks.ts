// Long-running commands (tag `longRunning`, see docs/tasks.md): the call runs
// as a task. By default the command waits for it, drawing its progress on
// standard error (a bar redrawn in place on a terminal, a line per change
// otherwise) and writes its result as any command's; `--detach` writes the
// task's id instead, and `status <id>` / `cancel <id>` read or cancel it
// later, `answer <id>` answers its question (a waiting command asks it on a
// terminal itself, see `_task_questions.ts`). In process the task runs in a task runtime (`CliOptions.tasks`, else
// one of this command's own, which only waiting can use); with `--url`, on the
// server through the typed HTTP client's task handle and `{base}/.tasks/{id}`.

import { delay } from "../tree/deadline.ts";
import type { TaskCaller } from "../tasks/owner.ts";
import type { HandlerContext } from "../tree/node.ts";
import { principalOf } from "../tree/principal.ts";
import type { Failure } from "../tree/failure.ts";
import type { TaskHandle, TaskState } from "../client/client_types.ts";
import { ClientError } from "../client/client_error.ts";
import { answerTask, taskQuestions } from "../tasks/answer.ts";
import { createTasks, type TaskLeaf, type TaskRuntime } from "../tasks/runtime.ts";
import { isTerminal, type TaskRecord } from "../tasks/store.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./_usage.ts";
import { questionsHandler } from "./_task_questions.ts";

/** The longest pause between two reads of a remote task's status, in milliseconds. */
const LONGEST_POLL_MS = 1_000;
/** The cells of a progress bar on a terminal. */
const BAR_CELLS = 24;

/** A task that ended failed or cancelled, in process: its failure as the tree classified it. */
export class TaskFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.title);
  }
}

/** What one long-running command is told: where it writes, and its caller's signal. */
export interface TaskCommand {
  readonly io: CliIo;
  /** The program's name, in the line that says how to read a detached task. */
  readonly program: string;
  readonly detach: boolean;
  readonly signal: AbortSignal | undefined;
  /** Milliseconds the task's handler may run (`CliOptions.timeoutMs`). */
  readonly timeoutMs: number | undefined;
}

/** The task commands beside the tree's: `status <id>`, `cancel <id>`, `answer <id>`. */
export type TaskVerb = "status" | "cancel" | "answer";

/** What `answer <id>` sends: the answer (`--json`) and the question's key (`--key`). */
export interface TaskAnswer {
  readonly answer: unknown;
  readonly key: string | undefined;
}

/** A task's state as the command line writes it (`status`, `cancel`, `--detach --json`). */
export interface TaskLine {
  readonly id: string;
  readonly status: TaskState["status"];
  readonly operation?: string;
  readonly progress?: TaskState["progress"];
  readonly questions?: TaskState["questions"];
  readonly result?: unknown;
  readonly error?: TaskState["error"];
}

/** A long-running command in process: started in `tasks`, then waited for or detached. */
export async function localTask(
  tasks: TaskRuntime | undefined,
  leaf: TaskLeaf,
  input: unknown,
  context: HandlerContext,
  command: TaskCommand,
  onFault: (error: unknown) => void,
): Promise<unknown> {
  if (command.detach && tasks === undefined) throw new UsageError(NO_SHARED_RUNTIME("--detach"));
  const runtime = tasks ?? createTasks();
  // The principal the guards established, as on every surface: a command in
  // process sharing a store with a server finds the same caller's tasks.
  let owner: string | undefined;
  try {
    const started = await runtime.start(leaf, input, context, {
      owner: (guarded) => owner = principalOf(guarded),
      // Asked on this terminal, or answered by another command sharing the runtime.
      answers: command.io.stdinIsTerminal || tasks !== undefined,
      onError: onFault,
      ...(command.timeoutMs === undefined ? {} : { timeoutMs: command.timeoutMs }),
    });
    if (command.detach) return detached(lineOf(started), command);
    const draw = progressDrawer(command.io);
    const asked = questionsHandler(started.id, command, {
      answer: (content, key) => answerTask(runtime, started.id, owner, content, key),
      // Input ended at the prompt: the handler hears `cancel`, as its `ask()` in process would.
      refuse: (key) => runtime.answer(started.id, owner, { action: "cancel" }, key),
    }, () => draw(undefined));
    // No bar is drawn while a question is asked: a prompt may be on the terminal.
    const seen = (record: TaskRecord) => {
      if (record.status !== "input_required") draw(record.progress);
      asked(taskQuestions(record));
    };
    const stop = await runtime.watch(started.id, owner, seen);
    // A question asked before the watch began is not missed.
    const now = await runtime.get(started.id, owner);
    if (now !== undefined) seen(now);
    const cancel = () => void runtime.cancel(started.id, owner).catch(() => {});
    command.signal?.addEventListener("abort", cancel, { once: true });
    let record: TaskRecord | undefined;
    try {
      do record = await runtime.settled(started.id, owner, 60_000); while (
        record !== undefined && !isTerminal(record.status)
      );
    } finally {
      command.signal?.removeEventListener("abort", cancel);
      await stop?.();
      draw(undefined);
    }
    if (record === undefined) throw new TaskFailed(failureOfRecord(undefined));
    if (record.status === "completed") return record.result;
    throw new TaskFailed(failureOfRecord(record));
  } finally {
    // A runtime of this command's own ends with it; a shared one is its owner's.
    if (tasks === undefined) await runtime.close();
  }
}

/** `status <id>`, `cancel <id>` or `answer <id>` in process. */
export async function localTaskCommand(
  tasks: TaskRuntime | undefined,
  verb: TaskVerb,
  id: string,
  owner: TaskCaller,
  given?: TaskAnswer,
): Promise<TaskLine> {
  if (tasks === undefined) throw new UsageError(NO_SHARED_RUNTIME(verb));
  // An answer's refusals (404, 409, 422) are `HttpError`s: each command's line and exit code.
  if (verb === "answer") {
    return lineOf(await answerTask(tasks, id, owner, given?.answer, given?.key));
  }
  const record = verb === "status" ? await tasks.get(id, owner) : await tasks.cancel(id, owner);
  if (record === undefined) throw new TaskFailed(failureOfRecord(undefined));
  return lineOf(record);
}

/** A long-running command on a server: the client's task handle, waited for or detached. */
export async function remoteTask(
  handle: TaskHandle<unknown, unknown>,
  command: TaskCommand,
): Promise<unknown> {
  const first = await handle.status();
  // A server that answered the call at once has no task to wait for.
  if (handle.id === undefined) return await handle.result();
  if (command.detach) return detached(remoteLine(first), command);
  const draw = progressDrawer(command.io);
  const asked = questionsHandler(handle.id, command, {
    answer: (content, key) => handle.answer(content, key),
    // The server takes answers only: a person who gives none leaves the task waiting.
    refuse: (key) =>
      Promise.resolve(command.io.err(
        `no answer given; the task still waits: ${command.program} answer ${handle.id} --key ${key} --json '<answer>'\n`,
      )),
  }, () => draw(undefined));
  const seen = (state: TaskState) => {
    if (state.status !== "input_required") draw(state.progress);
    asked(state.questions ?? []);
  };
  try {
    let state = first;
    let pause = 50;
    // The last progress is drawn too, as a change seen in process would be.
    for (seen(state); !isTerminal(state.status); seen(state)) {
      await delay(pause, command.signal);
      pause = Math.min(pause * 2, LONGEST_POLL_MS);
      state = await handle.status();
    }
  } catch (error) {
    // Ctrl-C: the task is cancelled on the server before the command ends.
    if (command.signal?.aborted) await handle.cancel().catch(() => {});
    throw error;
  } finally {
    draw(undefined);
  }
  return await handle.result();
}

/**
 * `status <id>`, `cancel <id>` or `answer <id>` against a server: its status
 * resource (`answer`: its `/input`), with the call's headers.
 */
export async function remoteTaskCommand(
  fetcher: (request: Request) => Promise<Response>,
  baseUrl: string,
  verb: TaskVerb,
  id: string,
  headers: Headers,
  given?: TaskAnswer,
): Promise<TaskLine> {
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  const resource = `.tasks/${encodeURIComponent(id)}${verb === "answer" ? "/input" : ""}`;
  const url = new URL(resource, base).href;
  const method = verb === "status" ? "GET" : verb === "cancel" ? "DELETE" : "POST";
  const sent = new Headers(headers);
  let sending: string | undefined;
  if (verb === "answer") {
    sent.set("content-type", "application/json");
    const { answer, key } = given ?? { answer: undefined, key: undefined };
    sending = JSON.stringify(key === undefined ? { answer } : { answer, key });
  }
  const response = await fetcher(new Request(url, { method, headers: sent, body: sending }));
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ClientError({
      status: response.status,
      statusText: response.statusText,
      method,
      url,
      headers: response.headers,
      body,
    });
  }
  return remoteLine(body as TaskState);
}

function detached(line: TaskLine, command: TaskCommand): TaskLine {
  const { io, program } = command;
  io.err(
    `task started: ${program} status ${line.id}; ${program} cancel ${line.id}; ${program} answer ${line.id} --json '<answer>'\n`,
  );
  return line;
}

function lineOf(record: TaskRecord): TaskLine {
  const failure = record.failure;
  return {
    id: record.id,
    status: record.status,
    operation: record.leaf,
    ...(record.progress === undefined ? {} : { progress: record.progress }),
    ...(record.status === "input_required" ? { questions: taskQuestions(record) } : {}),
    ...(record.status === "completed" && record.result !== undefined
      ? { result: record.result }
      : {}),
    ...(failure === undefined ? {} : {
      error: {
        status: failure.status,
        title: failure.title,
        // A fault says no more than its status, as on every surface.
        ...(failure.detail === undefined ? {} : { detail: failure.detail }),
        code: failure.code,
      },
    }),
  };
}

function remoteLine(state: TaskState & { readonly result?: unknown }): TaskLine {
  return {
    id: state.id ?? "",
    status: state.status,
    ...(state.operation === undefined ? {} : { operation: state.operation }),
    ...(state.progress === undefined ? {} : { progress: state.progress }),
    ...(state.questions === undefined ? {} : { questions: state.questions }),
    ...(state.result === undefined ? {} : { result: state.result }),
    ...(state.error === undefined ? {} : {
      error: {
        status: state.error.status,
        title: state.error.title,
        ...(state.error.detail === undefined ? {} : { detail: state.error.detail }),
        ...(state.error.code === undefined ? {} : { code: state.error.code }),
      },
    }),
  };
}

/** A task's failure as a command's: an unknown task (or another's) is not found. */
function failureOfRecord(record: TaskRecord | undefined): Failure {
  const failure = record?.failure;
  if (failure === undefined) {
    return {
      kind: "declared",
      status: 404,
      title: "Not Found",
      code: "NOT_FOUND",
      declaredCode: false,
      type: "about:blank",
      detail: "No such task",
      headers: new Headers(),
      error: null,
    };
  }
  return {
    ...failure,
    headers: new Headers(failure.headers?.map(([k, v]) => [k, v])),
    error: null,
  };
}

/**
 * Draws a task's progress on standard error: redrawn in place on a terminal,
 * a line per change otherwise (a log keeps each); `undefined` ends it.
 */
function progressDrawer(io: CliIo): (progress: TaskRecord["progress"]) => void {
  const terminal = io.stderrIsTerminal ?? io.stdoutIsTerminal;
  let last = "";
  return (progress) => {
    if (progress === undefined) {
      if (terminal && last !== "") io.err("\r\x1b[K");
      last = "";
      return;
    }
    const { done, total, message } = progress;
    const count = total === undefined ? `${done}` : `${done}/${total}`;
    const text = message === undefined ? count : `${count} ${message}`;
    if (text === last) return;
    last = text;
    if (!terminal) return io.err(`progress: ${text}\n`);
    const share = total === undefined || total <= 0 ? 0 : Math.min(1, Math.max(0, done / total));
    const filled = Math.round(share * BAR_CELLS);
    io.err(`\r\x1b[K[${"#".repeat(filled)}${"-".repeat(BAR_CELLS - filled)}] ${text}`);
  };
}

const NO_SHARED_RUNTIME = (what: string) =>
  `${what} needs a task runtime later commands share: --url, or the tasks option of runCli`;
