// The command line's rendering of a handler's `log`, `progress` and `ask`
// (tree/interaction.ts), for calls in process (with `--url` the handler runs
// on the server, which renders them its own way). Log lines go to standard
// error, `level: message`, at `info` and above by default (`logLevel`).
// Progress and questions are for a person: only when standard input is a
// terminal (as the confirmation of a destructive command is); otherwise
// progress is not written and `ask` answers `unsupported`. A question asks
// each field in turn; an empty answer takes the field's default (or leaves
// an optional field out), end of input (Ctrl-D) cancels.

import { LOG_LEVELS, type LogLevel } from "../tree/interaction.ts";
import type { AskResult, FormField, FormSchema, Interaction } from "../tree/interaction.ts";
import { isPlainObject } from "../tree/plain_data.ts";
import type { CliIo } from "./io.ts";

/** What a call in process renders on the command line's io. */
export function cliInteraction(io: CliIo, logLevel: LogLevel | "off" = "info"): Interaction {
  const threshold = logLevel === "off" ? LOG_LEVELS.length : LOG_LEVELS.indexOf(logLevel);
  const person = io.stdinIsTerminal;
  return {
    log(level, message, data) {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      io.err(`${level}: ${message}${data === undefined ? "" : ` ${textOf(data)}`}\n`);
    },
    progress: person
      ? (done, total, message) =>
        io.err(
          `progress: ${done}${total === undefined ? "" : `/${total}`}${
            message === undefined ? "" : ` ${message}`
          }\n`,
        )
      : undefined,
    ask: person ? (message, form) => askOnTerminal(io, message, form) : undefined,
  };
}

/**
 * Asks a question on the terminal, field by field: a handler's `ask()` in
 * process, and a waiting command's task that became `input_required`.
 */
export async function askOnTerminal(
  io: CliIo,
  message: string,
  form: FormSchema,
): Promise<AskResult> {
  io.err(`${message}\n`);
  const content: Record<string, unknown> = {};
  const required = new Set(form.required ?? []);
  for (const [name, field] of Object.entries(form.properties)) {
    const line = await io.prompt(questionOf(name, field));
    if (line === undefined) return { action: "cancel" };
    const typed = line.trim();
    if (typed === "") {
      if (field.default !== undefined) content[name] = field.default;
      else if (required.has(name)) return { action: "cancel" };
      continue;
    }
    // What cannot be read as the field's type stays text: the form check refuses it.
    content[name] = valueOf(typed, field);
  }
  return { action: "accept", content };
}

/** `Shelf (integer) [1]: `, `Colour (red, green): `. */
function questionOf(name: string, field: FormField): string {
  const title = typeof field.title === "string" ? field.title : name;
  const choices = choicesOf(field);
  const kind = choices === undefined
    ? field.type === "array" ? "comma-separated" : field.type === "boolean" ? "y/n" : field.type
    : choices.join(", ");
  const fallback = field.default === undefined ? "" : ` [${textOf(field.default)}]`;
  return `${title} (${kind})${fallback}: `;
}

function valueOf(typed: string, field: FormField): unknown {
  switch (field.type) {
    case "boolean":
      return /^y(es)?$|^true$/i.test(typed) ? true : /^no?$|^false$/i.test(typed) ? false : typed;
    case "integer":
    case "number":
      return Number.isFinite(Number(typed)) ? Number(typed) : typed;
    case "array":
      return typed.split(",").map((item) => item.trim()).filter((item) => item !== "");
    default:
      return typed;
  }
}

function choicesOf(field: FormField): string[] | undefined {
  const holder = field.type === "array" && isPlainObject(field.items) ? field.items : field;
  if (Array.isArray(holder.enum)) return holder.enum.map(String);
  const titled = Array.isArray(holder.oneOf) ? holder.oneOf : holder.anyOf;
  return Array.isArray(titled)
    ? titled.map((choice) => String(isPlainObject(choice) ? choice.const : choice))
    : undefined;
}

function textOf(value: unknown): string {
  try {
    return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
