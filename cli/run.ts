/**
 * The command-line projection: every tree is also a command line. Words select
 * branches and leaves by the tree's own names (a fallback takes the next word
 * as its capture), flags come from the leaf's input schema, and the leaf runs
 * through the one call path, in this process or, with `--url`, on a running
 * server through the typed HTTP client. See `docs/cli.md` for the grammar.
 *
 * Exit codes: 0 done; 1 the command failed (invalid input, an `HttpError`, a
 * crash, a refused confirmation); 2 the command line is wrong.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { runCli } from "@ramify/api/cli";
 *
 * const tree = api({ greet: op(({ name }: { name: string }) => `hi ${name}`) });
 * const code = await runCli(tree, ["greet", "--name", "Ann"]); // prints "hi Ann"
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import process from "node:process";
import type { Node } from "../tree/node.ts";
import { isLeaf, type Leaf } from "../tree/node.ts";
import { createCall } from "../tree/call.ts";
import { extended } from "../tree/context.ts";
import { isAsyncIterable, isPlainObject } from "../tree/object.ts";
import { toJsonSchema } from "../tree/schema.ts";
import { tagsOf } from "../tree/tags.ts";
import { createClient, type FetchLike } from "../http/client/client.ts";
import { commandOf, GLOBAL_OPTIONS, select, type Selected } from "./_command.ts";
import { applyFlags, type Flag, flagsOf } from "./_flags.ts";
import { helpOf } from "./_help.ts";
import { describeError } from "./_errors.ts";
import { didYouMean, UsageError } from "./_usage.ts";
import { completionScript, completionsFor } from "./completion.ts";
import { type CliIo, processIo } from "./io.ts";

/**
 * Options of {@linkcode runCli}.
 *
 * @example
 * ```ts
 * import type { CliOptions } from "@ramify/api/cli";
 *
 * const opts: CliOptions = { name: "bookstore", baseUrl: "http://localhost:8000" };
 * ```
 */
export interface CliOptions {
  /** The program's name, in help and completion scripts. Default `"cli"`. */
  readonly name?: string;
  /** Call this server instead of the handlers in this process (`--url` overrides). */
  readonly baseUrl?: string;
  /** The fetch remote calls use. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Where to read and write. Default: this process's stdio. */
  readonly io?: CliIo;
  /** A bearer token for guarded commands (`--token` overrides). */
  readonly token?: string;
  /**
   * Headers every call carries: sent to the server with `--url`; in process,
   * handlers and guards see a request holding them.
   */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /** Makes the values handlers and middleware see in their context, in process. */
  readonly context?: () =>
    | Readonly<Record<string, unknown>>
    | Promise<Readonly<Record<string, unknown>>>;
}

/**
 * Runs one command line against the tree and resolves with its exit code;
 * it never exits the process itself.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { runCli } from "@ramify/api/cli";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * console.log(await runCli(tree, ["ping"])); // prints "pong", then 0
 * ```
 */
export async function runCli(
  tree: Node,
  argv: readonly string[],
  opts: CliOptions = {},
): Promise<number> {
  const io = opts.io ?? processIo();
  const program = opts.name ?? "cli";
  try {
    if (!Object.hasOwn(tree.children ?? {}, argv[0] ?? "")) {
      if (argv[0] === "completion") {
        io.out(completionScript(argv[1] ?? "", program));
        return 0;
      }
      if (argv[0] === "__complete") {
        io.out(completionsFor(tree, argv.slice(1)).map((word) => `${word}\n`).join(""));
        return 0;
      }
    }
    const selected = select(tree, argv);
    const command = commandOf(selected);
    const { node } = selected;
    const leaf = isLeaf(node) ? node : undefined;
    const flags = leaf === undefined ? [] : leafFlags(leaf, selected);
    if (selected.help) {
      io.out(helpOf(program, command, node, flags));
      return 0;
    }
    if (leaf === undefined) {
      io.err(helpOf(program, command, node, flags));
      throw new UsageError(
        command === ""
          ? "give a command"
          : `"${command}" needs a command${
            selected.meant === undefined ? "" : `; did you mean ${selected.meant}?`
          }`,
      );
    }
    const { values, input } = await readLeafArgs(selected, flags, io);
    if (tagsOf(leaf).destructive === true && values.yes !== true) {
      if (!io.stdinIsTerminal) {
        io.err(`error: "${command}" is destructive: pass --yes to run it without a terminal\n`);
        return 1;
      }
      const answer = await io.prompt(`"${command}" is destructive. Proceed? [y/N] `);
      if (!/^\s*y(es)?\s*$/i.test(answer ?? "")) {
        io.err("aborted\n");
        return 1;
      }
    }
    const url = typeof values.url === "string" ? values.url : opts.baseUrl;
    const headers = new Headers(opts.headers);
    const token = typeof values.token === "string" ? values.token : opts.token;
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    const result = url === undefined
      ? await createCall(leaf, { captures: selected.captures.map(([name]) => name) })(
        { ...input, ...Object.fromEntries(selected.captures) },
        extended(
          // A request standing for the command line, so guards read its credentials.
          [...headers].length === 0
            ? {}
            : { request: new Request("http://localhost/", { method: "POST", headers }) },
          await opts.context?.(),
        ),
      )
      : await remoteCall(tree, url, selected, input, opts.fetch, headers);
    await print(result, io, values.json === true);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n`);
      return 2;
    }
    io.err(`error: ${describeError(error)}\n`);
    return 1;
  }
}

/**
 * Runs the command line of this process (`Deno.args`, or `process.argv` on
 * Node and Bun) and sets the process's exit code: the one line a script needs.
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { mainCli } from "@ramify/api/cli";
 *
 * const tree = api({ ping: op(() => "pong") });
 * if (import.meta.main) await mainCli(tree, { name: "pinger" });
 * ```
 */
export async function mainCli(tree: Node, opts: CliOptions = {}): Promise<void> {
  const deno = (globalThis as { Deno?: { args: readonly string[] } }).Deno;
  const argv = deno?.args ?? process.argv.slice(2);
  // `deno task cli -- books list` passes the `--` on.
  process.exitCode = await runCli(tree, argv[0] === "--" ? argv.slice(1) : argv, opts);
}

/** The leaf's flags, or `undefined` when it has no input schema (any `--name value`). */
function leafFlags(leaf: Leaf<never, unknown>, selected: Selected): Flag[] | undefined {
  const schema = leaf.meta.input === undefined ? undefined : toJsonSchema(leaf.meta.input, "input");
  return schema === undefined
    ? undefined
    : flagsOf(schema, selected.captures.map(([name]) => name));
}

async function readLeafArgs(
  selected: Selected,
  flags: readonly Flag[] | undefined,
  io: CliIo,
): Promise<{ values: Record<string, unknown>; input: Record<string, unknown> }> {
  const options: Record<
    string,
    { type: "string" | "boolean"; multiple?: boolean; short?: string }
  > = {
    ...GLOBAL_OPTIONS,
  };
  for (const flag of flags ?? []) {
    for (const name of [flag.name, ...flag.aliases]) {
      options[name] = {
        type: flag.kind === "boolean" ? "boolean" : "string",
        multiple: flag.multiple,
      };
      if (flag.kind === "boolean") options[`no-${name}`] = { type: "boolean" };
    }
  }
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...selected.rest],
      options,
      strict: flags !== undefined,
      allowPositionals: true,
    }));
  } catch (error) {
    throw usageOf(error, Object.keys(options));
  }
  const input: Record<string, unknown> = {};
  if (typeof values.input === "string") Object.assign(input, await inputFlag(values.input, io));
  if (flags === undefined) {
    positionals = openFlags(selected.rest, input);
  } else {
    await applyFlags(flags, values, input, io.readFile);
  }
  if (positionals.length > 0) {
    const word = positionals[0];
    const children = Object.keys(selected.node.children ?? {});
    throw new UsageError(`unexpected argument "${word}"${didYouMean(word, children)}`);
  }
  return { values, input };
}

/** A leaf without an input schema takes any `--name value` (a string) or `--name` (true). */
function openFlags(args: readonly string[], input: Record<string, unknown>): string[] {
  const { tokens } = parseArgs({
    args: [...args],
    options: GLOBAL_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const stray: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === "positional") stray.push(token.value);
    if (token.kind !== "option" || token.name in GLOBAL_OPTIONS) continue;
    const next = tokens[i + 1];
    if (token.value !== undefined) input[token.name] = token.value;
    else if (next?.kind === "positional") {
      input[token.name] = next.value;
      i++;
    } else input[token.name] = true;
  }
  return stray;
}

/** `--input`: JSON text, `@path` for a file's, `-` for standard input's. */
async function inputFlag(value: string, io: CliIo): Promise<Record<string, unknown>> {
  let text = value;
  if (value === "-") text = await io.readStdin();
  else if (value.startsWith("@")) {
    text = new TextDecoder().decode(
      await io.readFile(value.slice(1)).catch(() => {
        throw new UsageError(`--input: cannot read ${value.slice(1)}`);
      }),
    );
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

function usageOf(error: unknown, known: readonly string[]): UsageError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = /'(-{1,2}[^']+)'/.exec(message)?.[1] ?? "";
    const bare = flag.replace(/^-+/, "").split("=")[0];
    return new UsageError(`unknown flag ${flag}${didYouMean(bare, known, "--")}`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return new UsageError(message.replace(/^Option '([^']+)'/, "$1:").replace(/\.$/, ""));
  }
  return new UsageError(message);
}

/** The same call through the typed HTTP client: children by name, fallbacks by value. */
async function remoteCall(
  tree: Node,
  url: string,
  selected: Selected,
  input: Record<string, unknown>,
  fetch: FetchLike | undefined,
  headers: Headers,
): Promise<unknown> {
  let at: unknown = createClient(tree, {
    baseUrl: url,
    headers,
    ...(fetch === undefined ? {} : { fetch }),
  });
  let capture = 0;
  for (const step of selected.steps) {
    const holder = at as Record<string, unknown>;
    at = step.kind === "child"
      ? holder[step.name]
      : (holder[step.name] as (value: string) => unknown)(selected.captures[capture++][1]);
  }
  return await (at as (input: Record<string, unknown>) => Promise<unknown>)(input);
}

async function print(result: unknown, io: CliIo, compact: boolean): Promise<void> {
  if (isAsyncIterable(result)) {
    for await (const item of result) io.out(`${JSON.stringify(item) ?? "null"}\n`);
    return;
  }
  if (result instanceof Response) {
    io.out(await result.text());
    return;
  }
  if (result === undefined) return;
  const pretty = io.stdoutIsTerminal && !compact;
  io.out(`${JSON.stringify(result, null, pretty ? 2 : undefined)}\n`);
}
