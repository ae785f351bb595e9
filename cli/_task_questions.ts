// A waiting command's task that asks a question (`input_required`): on a
// terminal the command asks it, field by field as a handler's `ask()` in
// process is asked (`askOnTerminal`), and answers the task with it, asking
// again while the answer does not fit the question's form; without a terminal
// it writes how to answer it (`<program> answer <id> ...`) and keeps waiting,
// for another command to answer.

import type { TaskQuestionState } from "../client/client_types.ts";
import { askOnTerminal } from "./_interaction.ts";
import type { CliIo } from "./io.ts";

/** What of a waiting command asking needs (a `TaskCommand` is one). */
export interface Asking {
  readonly io: CliIo;
  /** The program's name, in the line that says how to answer. */
  readonly program: string;
  /** The caller's signal: no question is asked once it aborted. */
  readonly signal: AbortSignal | undefined;
}

/** How a waiting command answers its task: an accepted answer, or a refusal (Ctrl-D). */
export interface TaskAnswerer {
  /** Sends the answer; rejects with the surface's `422` when it does not fit. */
  answer(content: Record<string, unknown>, key: string): Promise<unknown>;
  /** The person gave no answer (input ended): what the task is told, if anything. */
  refuse(key: string): Promise<unknown>;
}

/**
 * What a waiting command does with the questions its task waits on, each
 * time it reads them: a question is asked (or told about) once, again only
 * after it was answered and asked anew. `clear` takes the progress bar off
 * the terminal before a prompt.
 */
export function questionsHandler(
  id: string,
  command: Asking,
  answerer: TaskAnswerer,
  clear: () => void,
): (questions: readonly TaskQuestionState[]) => void {
  const { io, program } = command;
  const seen = new Set<string>();
  let asking: Promise<void> = Promise.resolve();
  return (questions) => {
    for (const key of seen) {
      if (!questions.some((question) => question.key === key)) seen.delete(key);
    }
    for (const question of questions) {
      if (seen.has(question.key)) continue;
      seen.add(question.key);
      if (!io.stdinIsTerminal) {
        io.err(
          `task ${id} asks: ${question.message}\n  answer it: ${program} answer ${id} --key ${question.key} --json '<answer>'\n`,
        );
        continue;
      }
      // One prompt at a time: questions asked together are answered in turn.
      asking = asking.then(() => ask(question, command, answerer, clear)).catch((error) => {
        io.err(`error: the answer was not sent: ${messageOf(error)}\n`);
      });
    }
  };
}

async function ask(
  question: TaskQuestionState,
  command: Asking,
  answerer: TaskAnswerer,
  clear: () => void,
): Promise<void> {
  const { io } = command;
  for (;;) {
    if (command.signal?.aborted) return;
    clear();
    const said = await askOnTerminal(io, question.message, formOf(question.schema));
    if (said.action !== "accept") {
      await answerer.refuse(question.key);
      return;
    }
    try {
      await answerer.answer(said.content, question.key);
      return;
    } catch (error) {
      // An answer that does not fit is asked again; anything else ends the asking.
      if ((error as { status?: unknown }).status !== 422) throw error;
      io.err(`${messageOf(error)}\n`);
    }
  }
}

/** The question's schema as a form: a flat object of fields, whatever the wire carried. */
function formOf(schema: TaskQuestionState["schema"]): Parameters<typeof askOnTerminal>[2] {
  const properties = schema.properties;
  return {
    ...schema,
    type: "object",
    properties: typeof properties === "object" && properties !== null
      ? properties as Parameters<typeof askOnTerminal>[2]["properties"]
      : {},
  };
}

/** The problem's detail (an `HttpError` in process, a `ClientError` with `--url`), else the message. */
function messageOf(error: unknown): string {
  const detail = (error as { problem?: { detail?: unknown } }).problem?.detail;
  if (typeof detail === "string") return detail;
  return error instanceof Error ? error.message : String(error);
}
