/**
 * Answering a task's question, the one way every surface does it (HTTP's
 * `POST {base}/.tasks/{id}/input`, GraphQL's `answerTask`, the command line's
 * `answer <id>`): the task is found as its owner may see it, the question
 * chosen by key (default the first), the answer checked against the
 * question's form, and only then handed to {@linkcode TaskRuntime.answer}.
 * Each refusal is an `HttpError` every surface renders as it renders any call's:
 *
 * - `404` the task is unknown, expired, or another identity's;
 * - `409` it is not `input_required`, or asks no question of that key;
 * - `422` the answer does not fit the question's form (`issues` say where).
 *
 * The runtime's `ask()` would turn an answer that does not fit into a
 * `cancel` the handler hears; checking it here first lets the one who
 * answers correct it instead.
 *
 * @example
 * ```ts
 * import { api, ask, op } from "@ramify/api/tree";
 * import { catalogueOf } from "@ramify/api/tree/catalogue";
 * import { answerTask, createTasks } from "@ramify/api/tasks";
 *
 * const tree = api({
 *   rename: op(async (_input, ctx) => {
 *     const said = await ask(ctx, {
 *       message: "New name?",
 *       schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 *     });
 *     return said.action === "accept" ? said.content.name : "kept";
 *   }, { tags: { longRunning: true } }),
 * });
 * const tasks = createTasks();
 * const [rename] = catalogueOf(tree).entries;
 * const task = await tasks.start(rename, {}, {}, { owner: "ann", answers: true });
 * while ((await tasks.get(task.id, "ann"))?.status !== "input_required") {
 *   await new Promise((resolve) => setTimeout(resolve, 5));
 * }
 * await answerTask(tasks, task.id, "ann", { name: "Dune" });
 * console.log((await tasks.settled(task.id, "ann", 1_000))?.result); // "Dune"
 * await tasks.close();
 * ```
 *
 * @module
 */

import { HttpError } from "../tree/http_error.ts";
import type { FormSchema } from "../tree/interaction.ts";
import { formIssue, formProblem } from "../tree/form_check.ts";
import type { TaskCaller } from "./owner.ts";
import type { TaskRuntime } from "./types.ts";
import { isTerminal, type TaskRecord } from "./store.ts";
import { whileWatched } from "./_watch.ts";

/**
 * One question a task waits on, with the key that answers it.
 *
 * @example
 * ```ts
 * import type { TaskQuestion } from "@ramify/api/tasks";
 *
 * const line = (question: TaskQuestion) => `${question.key}: ${question.message}`;
 * ```
 */
export interface TaskQuestion {
  /** What names it in an answer (its own `key`, else `ask-1`, `ask-2`, ...). */
  readonly key: string;
  /** What the handler asks. */
  readonly message: string;
  /** The form of the answer. */
  readonly schema: FormSchema;
}

/**
 * The questions a task waits on, in the order asked (none unless it is
 * `input_required`); the first is the one an answer without a key answers.
 *
 * @example
 * ```ts
 * import { taskQuestions, type TaskRecord } from "@ramify/api/tasks";
 *
 * const first = (record: TaskRecord) => taskQuestions(record)[0]?.message;
 * ```
 */
export function taskQuestions(record: TaskRecord): TaskQuestion[] {
  if (record.status !== "input_required") return [];
  return Object.entries(record.questions ?? {}).map(([key, { message, schema }]) => ({
    key,
    message,
    schema,
  }));
}

/**
 * How long {@linkcode answerTask} waits, at most, for the running instance to
 * take the answer in, in milliseconds: the record it resolves with then says
 * `working` (or further) rather than the question just answered.
 */
const TAKEN_IN_MS = 2_000;

/**
 * Answers the question `key` names (default the first) of the task `id`, as
 * `caller` may see it, with `answer` (the form's content); resolves with the
 * task once the running instance has taken the answer in (or after a short
 * wait, as it then stands).
 *
 * @example
 * ```ts
 * import { answerTask, createTasks } from "@ramify/api/tasks";
 * import { HttpError } from "@ramify/api/tree";
 *
 * const tasks = createTasks();
 * await answerTask(tasks, "unknown", "ann", { name: "Dune" }).catch((error: HttpError) => {
 *   console.log(error.status); // 404
 * });
 * await tasks.close();
 * ```
 *
 * @throws {HttpError} `404` for a task `caller` cannot see, `409` for one not
 * waiting on that question, `422` for an answer that does not fit its form.
 */
export async function answerTask(
  tasks: TaskRuntime,
  id: string,
  caller: TaskCaller,
  answer: unknown,
  key?: string,
): Promise<TaskRecord> {
  const record = await tasks.get(id, caller);
  if (record === undefined) throw new HttpError(404, "No such task");
  const question = questionOf(record, key);
  const issue = formIssue(question.schema, answer);
  if (issue !== undefined) {
    const problem = formProblem(question.schema, answer);
    throw new HttpError(422, `The answer does not fit the question: ${problem}`, {
      issues: [{ message: issue.message, path: [...issue.path] }],
    });
  }
  // Watched before the answer goes out, so that the change it makes is not missed.
  const taken = await whileWatched(
    tasks,
    record.id,
    caller,
    (now) => isTerminal(now.status) || now.questions?.[question.key] === undefined,
    async (wait) => {
      const asked = await tasks.answer(
        record.id,
        caller,
        { action: "accept", content: answer as Record<string, unknown> },
        question.key,
      );
      if (asked === undefined) throw new HttpError(404, "No such task");
      // Ended or answered in between: nothing was sent, as for any task not waiting.
      questionOf(asked, question.key);
      await wait(TAKEN_IN_MS);
      return await tasks.get(record.id, caller) ?? asked;
    },
  );
  if (taken === undefined) throw new HttpError(404, "No such task");
  return taken;
}

/** The question `key` names (default the first), or the `409` of a task not asking it. */
function questionOf(record: TaskRecord, key: string | undefined): TaskQuestion {
  if (record.status !== "input_required") {
    throw new HttpError(409, `The task is not waiting for an answer (${record.status})`);
  }
  const questions = taskQuestions(record);
  const question = key === undefined ? questions[0] : questions.find((asked) => asked.key === key);
  if (question === undefined) {
    const keys = questions.map((asked) => asked.key).join(", ");
    throw new HttpError(
      409,
      key === undefined
        ? "The task asks no question now"
        : `The task asks no question "${key}"; it asks: ${keys}`,
    );
  }
  return question;
}
