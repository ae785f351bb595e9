/**
 * What a handler may tell or ask the one who called it, decided once for
 * every surface: {@linkcode log} a line, report {@linkcode progress}, and
 * {@linkcode ask} a question answered by a small form. A handler calls them
 * with its context; each surface renders them its own way (MCP sends
 * notifications and elicitation requests, the command line writes to
 * standard error and asks on the terminal). Where nothing renders them, `log`
 * and `progress` do nothing and `ask` answers `{ action: "unsupported" }`.
 *
 * The confirmation of a `destructive` leaf is decided here too
 * ({@linkcode needsConfirmation}), so that every surface that asks asks the
 * same question and refuses the same way.
 *
 * @example
 * ```ts
 * import { api, ask, log, op, progress } from "@ramify/api/tree";
 *
 * const tree = api({
 *   import: op(async (_input, ctx) => {
 *     log(ctx, "info", "import started");
 *     progress(ctx, 0, 2);
 *     const answer = await ask(ctx, {
 *       message: "Overwrite existing books?",
 *       schema: { type: "object", properties: { overwrite: { type: "boolean" } } },
 *     });
 *     progress(ctx, 2, 2);
 *     return answer.action === "accept" ? answer.content : "kept";
 *   }),
 * });
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { HandlerContext, Node } from "./node.ts";
import { isStandardSchema, toJsonSchema, validateInput } from "./schema.ts";
import { isPlainObject } from "./plain_data.ts";
import { tagsOf } from "./tags.ts";
import { formProblem, type FormSchema } from "./form_check.ts";

/**
 * A log line's severity: the syslog levels (RFC 5424) MCP uses, least severe first.
 *
 * @example
 * ```ts
 * import type { LogLevel } from "@ramify/api/tree";
 *
 * const level: LogLevel = "warning";
 * ```
 */
export type LogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/**
 * The levels in order of severity: a threshold lets through its own and every later one.
 *
 * @example
 * ```ts
 * import { LOG_LEVELS } from "@ramify/api/tree/catalogue";
 *
 * console.log(LOG_LEVELS.indexOf("error") > LOG_LEVELS.indexOf("info")); // true
 * ```
 */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
]);

export type { FormField, FormSchema } from "./form_check.ts";

/**
 * What {@linkcode ask} resolves with: the answer (checked against the form),
 * a refusal, a dismissal, or `unsupported` where nobody can be asked.
 *
 * @example
 * ```ts
 * import type { AskResult } from "@ramify/api/tree";
 *
 * const said = (result: AskResult) => result.action === "accept" ? result.content : result.action;
 * ```
 */
export type AskResult<T = Record<string, unknown>> =
  | { readonly action: "accept"; readonly content: T }
  | { readonly action: "decline" }
  | { readonly action: "cancel" }
  | { readonly action: "unsupported" };

/**
 * A question for {@linkcode ask}: the message and the form of the answer, as
 * a {@linkcode FormSchema} or a Standard Schema of a flat object (zod's, say)
 * whose JSON Schema is sent.
 *
 * @example
 * ```ts
 * import type { Question } from "@ramify/api/tree";
 *
 * const question: Question = {
 *   message: "Which shelf?",
 *   schema: { type: "object", properties: { shelf: { type: "integer", minimum: 1 } } },
 * };
 * ```
 */
export interface Question<S extends FormSchema | StandardSchemaV1 = FormSchema | StandardSchemaV1> {
  /** What the person is asked. */
  readonly message: string;
  /** The answer's form. */
  readonly schema: S;
  /**
   * The question's name, the same on every run of the handler: where a
   * surface asks between runs (MCP's 2026 revision) the answer comes back
   * under it, so a client may answer it before it is asked. Unique within
   * the leaf. Default: its order in the run (`ask-1`, `ask-2`, ...).
   */
  readonly key?: string;
}

/**
 * What a surface does with a handler's log lines, progress and questions;
 * each part is optional (left out: nothing happens, or `unsupported`).
 * `ask` is given the form as JSON Schema and answers as the person did; the
 * answer is checked against the form afterwards, here.
 *
 * @example
 * ```ts
 * import type { Interaction } from "@ramify/api/tree/catalogue";
 *
 * const lines: string[] = [];
 * const recording: Interaction = { log: (level, message) => void lines.push(`${level}: ${message}`) };
 * ```
 */
export interface Interaction {
  /** Renders a log line; `data` is what the handler gave beside its message. */
  log?(level: LogLevel, message: string, data: unknown): void | Promise<void>;
  /** Renders progress: `done` out of `total` (when known). */
  progress?(
    done: number,
    total: number | undefined,
    message: string | undefined,
  ): void | Promise<void>;
  /**
   * Asks the person; `signal` aborts when the call ends (cancelled or past
   * its deadline); `key` is the question's own name, when it has one.
   */
  ask?(
    message: string,
    schema: FormSchema,
    signal: AbortSignal | undefined,
    key?: string,
  ): Promise<AskResult>;
}

// A symbol, so that no value a client or a context function sets can stand for a surface's renderer.
const INTERACTION: unique symbol = Symbol("ramify.interaction");

/**
 * Installs a surface's renderer on a call's context (the context object is
 * changed and returned). Copies of the context (middleware's, the deadline's)
 * keep it; values merged in by `context` options or `next(values)` cannot
 * replace it.
 *
 * @example
 * ```ts
 * import { log } from "@ramify/api/tree";
 * import { withInteraction } from "@ramify/api/tree/catalogue";
 *
 * const context = withInteraction({}, { log: (level, message) => console.log(level, message) });
 * log(context, "info", "hello"); // prints "info hello"
 * ```
 */
export function withInteraction<C extends HandlerContext>(context: C, interaction: Interaction): C {
  Object.defineProperty(context, INTERACTION, { value: interaction, configurable: true });
  return context;
}

function interactionOf(context: HandlerContext): Interaction | undefined {
  return (context as { [INTERACTION]?: Interaction })[INTERACTION];
}

/**
 * Logs a line for the caller to see (MCP: a `notifications/message` at or
 * above the client's level; the command line: standard error). Never throws:
 * a renderer's failure is not the handler's.
 *
 * @example
 * ```ts
 * import { log, op } from "@ramify/api/tree";
 *
 * const sync = op((_input, ctx) => {
 *   log(ctx, "info", "sync started", { shelves: 3 });
 *   return "synced";
 * });
 * ```
 */
export function log(
  context: HandlerContext,
  level: LogLevel,
  message: string,
  data?: unknown,
): void {
  const interaction = interactionOf(context);
  if (interaction?.log === undefined || !LOG_LEVELS.includes(level)) return;
  quietly(() => interaction.log!(level, String(message), data));
}

/**
 * Reports how far the call is: `done` out of `total` when known (MCP: a
 * `notifications/progress` when the client asked for progress; the command
 * line: a line on standard error when it is a terminal). Never throws.
 *
 * @example
 * ```ts
 * import { op, progress } from "@ramify/api/tree";
 *
 * const count = op((_input, ctx) => {
 *   for (let done = 0; done <= 10; done++) progress(ctx, done, 10);
 *   return 10;
 * });
 * ```
 */
export function progress(
  context: HandlerContext,
  done: number,
  total?: number,
  message?: string,
): void {
  const interaction = interactionOf(context);
  if (interaction?.progress === undefined || !Number.isFinite(done)) return;
  const whole = total !== undefined && Number.isFinite(total) ? total : undefined;
  quietly(() => interaction.progress!(done, whole, message));
}

/**
 * Asks the caller a question answered by a form (MCP: elicitation in form
 * mode, when the client declared it; the command line: a prompt per field on
 * a terminal). An accepted answer is checked against the form: one that does
 * not fit it is `{ action: "cancel" }`, never handed on unchecked. Where
 * nobody can be asked (HTTP, GraphQL, a client without elicitation, no
 * terminal) it resolves `{ action: "unsupported" }`. It rejects only when the
 * call itself ends (cancelled, or past its deadline), or, on a surface that
 * asks between runs (MCP's 2026 revision), to end this run: the handler runs
 * again with the answer, so ask before any side effect and let it reject.
 *
 * @example
 * ```ts
 * import { ask, HttpError, op } from "@ramify/api/tree";
 *
 * const rename = op(async (_input, ctx) => {
 *   const answer = await ask(ctx, {
 *     message: "New name?",
 *     schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 *   });
 *   if (answer.action !== "accept") throw new HttpError(409, "Not renamed");
 *   return answer.content.name;
 * });
 * ```
 */
export async function ask<S extends FormSchema | StandardSchemaV1>(
  context: HandlerContext,
  question: Question<S>,
): Promise<
  AskResult<S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, unknown>>
> {
  type Result = AskResult<
    S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, unknown>
  >;
  const form = formOf(question.schema);
  const interaction = interactionOf(context);
  if (interaction?.ask === undefined) return { action: "unsupported" };
  context.signal?.throwIfAborted();
  let answer: AskResult;
  try {
    answer = await interaction.ask(
      String(question.message),
      form,
      context.signal,
      question.key === undefined ? undefined : String(question.key),
    );
  } catch {
    // The call ended (cancelled, past its deadline): so does the handler. Else the question failed: no answer.
    context.signal?.throwIfAborted();
    return { action: "cancel" };
  }
  context.signal?.throwIfAborted();
  if (answer.action !== "accept") return { action: answer.action };
  if (formProblem(form, answer.content) !== undefined) return { action: "cancel" };
  if (!isStandardSchema(question.schema)) return answer as Result;
  const checked = await validateInput(question.schema, answer.content);
  return (checked.ok
    ? { action: "accept", content: checked.value }
    : { action: "cancel" }) as Result;
}

/**
 * The form a question's schema is, as JSON Schema.
 *
 * @throws {TypeError} when it is not a flat object of strings, numbers, integers, booleans and enum arrays.
 */
function formOf(schema: FormSchema | StandardSchemaV1): FormSchema {
  const json = isStandardSchema(schema) ? toJsonSchema(schema, "input") : schema;
  if (json === undefined) {
    throw new TypeError("ask(): the schema's library offers no JSON Schema for it");
  }
  const properties = json.properties;
  if (json.type !== "object" || !isPlainObject(properties)) {
    throw new TypeError('ask(): the schema must be a flat object ({ type: "object", properties })');
  }
  for (const [name, field] of Object.entries(properties)) {
    const type = isPlainObject(field) ? field.type : undefined;
    if (!["string", "number", "integer", "boolean", "array"].includes(type as string)) {
      throw new TypeError(
        `ask(): field "${name}" must be a string, number, integer, boolean or enum array`,
      );
    }
  }
  return json as FormSchema;
}

/**
 * Whether calling `node` needs the caller's confirmation first: a leaf
 * tagged `destructive`. Every surface that can ask asks
 * {@linkcode confirmQuestion}; a refusal fails with {@linkcode NOT_CONFIRMED}.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { needsConfirmation } from "@ramify/api/tree/catalogue";
 *
 * console.log(needsConfirmation(op(() => null, { tags: { destructive: true } }))); // true
 * ```
 */
export function needsConfirmation(node: Node): boolean {
  return tagsOf(node).destructive === true;
}

/**
 * The confirmation question for a leaf, by the name the caller knows it by
 * (the command as typed, the tool's name).
 *
 * @example
 * ```ts
 * import { confirmQuestion } from "@ramify/api/tree/catalogue";
 *
 * console.log(confirmQuestion("books 7 remove")); // '"books 7 remove" is destructive. Proceed?'
 * ```
 */
export function confirmQuestion(name: string): string {
  return `"${name}" is destructive. Proceed?`;
}

/**
 * The line a call whose confirmation was refused fails with, on every
 * surface (the command line's `aborted`).
 *
 * @example
 * ```ts
 * import { NOT_CONFIRMED } from "@ramify/api/tree/catalogue";
 *
 * console.log(NOT_CONFIRMED); // "aborted"
 * ```
 */
export const NOT_CONFIRMED = "aborted";

function quietly(render: () => void | Promise<void>): void {
  try {
    // A renderer that fails (a closed stream) must not fail the handler.
    Promise.resolve(render()).catch(() => {});
  } catch {
    // As above, for one that throws at once.
  }
}
