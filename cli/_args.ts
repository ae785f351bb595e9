// A leaf command's arguments: its flags (from its input schema), the global
// ones, `--input` (JSON, a file's, standard input's) and, for a leaf without
// an input schema, any `--name value`; a mistake is a usage error naming the
// nearest flag.

import { parseArgs } from "node:util";
import { isPlainObject, setOwn } from "../tree/plain_data.ts";
import { utf8Text } from "../tree/utf8.ts";
import { type Command, GLOBAL_OPTIONS, type Selected } from "./_command.ts";
import { applyFlags, type Flag } from "./_flags.ts";
import { freeFlags } from "./_free_flags.ts";
import { didYouMean, UsageError } from "./_usage.ts";
import type { CliIo } from "./io.ts";

/** Reads the command line's flags into the leaf's input, and the global flags' values. */
export async function readLeafArgs(
  selected: Selected,
  command: Command,
  flags: readonly Flag[],
  io: CliIo,
  typed: string,
): Promise<{ values: Record<string, unknown>; input: Record<string, unknown> }> {
  const options: Record<
    string,
    { type: "string" | "boolean"; multiple?: boolean; short?: string }
  > = {
    ...GLOBAL_OPTIONS,
    // A long-running command waits for its task (`--wait`, the default) or writes its handle.
    ...(command.longRunning ? { wait: { type: "boolean" }, detach: { type: "boolean" } } : {}),
  };
  for (const flag of flags) {
    for (const name of [flag.name, ...flag.aliases]) {
      options[name] = {
        type: flag.kind === "boolean" ? "boolean" : "string",
        multiple: flag.multiple,
      };
      if (flag.kind === "boolean") options[`no-${name}`] = { type: "boolean" };
    }
  }
  // A leaf without an input schema takes any `--name value` too.
  const free = command.input === "open"
    ? freeFlags(selected.rest, new Set(Object.keys(options)))
    : undefined;
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: free?.rest ?? [...selected.rest],
      options,
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw usageOf(
      error,
      Object.keys(options),
      command.input === "schema" && flags.length === 0 ? typed : undefined,
    );
  }
  const input: Record<string, unknown> = {};
  if (typeof values.input === "string") {
    for (const [key, value] of Object.entries(await inputFlag(values.input, io))) {
      setOwn(input, key, value);
    }
  }
  // Free flags over `--input`, as named flags are.
  if (free !== undefined) {
    for (const key of Object.keys(free.values)) setOwn(input, key, free.values[key]);
  }
  await applyFlags(flags, values, input, io.readFile);
  if (positionals.length > 0) {
    const word = positionals[0];
    const children = Object.keys(selected.node.children ?? {});
    throw new UsageError(`unexpected argument "${word}"${didYouMean(word, children)}`);
  }
  return { values, input };
}

/** `--input`: JSON text, `@path` for a file's, `-` for standard input's. */
async function inputFlag(value: string, io: CliIo): Promise<Record<string, unknown>> {
  let text = value;
  if (value === "-") {
    text = await io.readStdin().catch((error) => {
      throw new UsageError(`--input: ${error instanceof Error ? error.message : String(error)}`);
    });
  } else if (value.startsWith("@")) {
    const path = value.slice(1);
    const decoded = utf8Text(
      await io.readFile(path).catch(() => {
        throw new UsageError(`--input: cannot read ${path}`);
      }),
    );
    if (decoded === undefined) throw new UsageError(`--input: ${path} is not valid UTF-8`);
    text = decoded;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError("--input expects a JSON object");
  }
  if (!isPlainObject(parsed)) throw new UsageError("--input expects a JSON object");
  return parsed;
}

/** `inputless`: the command as typed, when its leaf takes no input (so no flag of its own). */
function usageOf(error: unknown, known: readonly string[], inputless?: string): UsageError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = /'(-{1,2}[^']+)'/.exec(message)?.[1] ?? "";
    const bare = flag.replace(/^-+/, "").split("=")[0];
    const hint = didYouMean(bare, known, "--") ||
      (inputless === undefined ? "" : `; "${inputless}" takes no input`);
    return new UsageError(`unknown flag ${flag}${hint}`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return new UsageError(message.replace(/^Option '([^']+)'/, "$1:").replace(/\.$/, ""));
  }
  return new UsageError(message);
}
