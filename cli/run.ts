/**
 * The command-line projection: every tree is also a command line. Words select
 * branches and leaves by the tree's own names (a fallback takes the next word
 * as its capture), flags come from the leaf's input schema (a leaf without one
 * takes none), and the leaf runs through its call, prepared once, in this
 * process or, with `--url`, on a running server through the typed HTTP
 * client. See `docs/cli.md` for the grammar.
 *
 * Exit codes: 0 done; 1 the command failed (invalid input, an `HttpError`, a
 * fault, a timeout, a refused confirmation, bytes refused on a terminal); 2
 * the command line is wrong; 130 the call was cancelled (Ctrl-C under
 * {@linkcode mainCli}, or `opts.signal`). A binary result is written as it
 * is, to standard output (never a terminal) or to `--output <file>`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { api, op } from "@ramify/api/tree";
 * import { runCli } from "@ramify/api/cli";
 *
 * const tree = api({
 *   greet: op(({ name }) => `hi ${name}`, { input: z.object({ name: z.string() }) }),
 * });
 * const code = await runCli(tree, ["greet", "--name", "Ann"]); // prints "hi Ann"
 * ```
 *
 * @module
 */

import { inspect, parseArgs } from "node:util";
import process from "node:process";
import type { HandlerContext, Node } from "../tree/node.ts";
import { isLeaf } from "../tree/node.ts";
import type { ContextFunction } from "../tree/context.ts";
import { contextOf, perform } from "../engine/engine.ts";
import {
  confirmQuestion,
  type LogLevel,
  needsConfirmation,
  NOT_CONFIRMED,
  withInteraction,
} from "../tree/interaction.ts";
import { cliInteraction } from "./_interaction.ts";
import { createClient, type FetchLike } from "../client/client.ts";
import {
  type Command,
  commandAt,
  commandOf,
  flagsOfCommand,
  GLOBAL_OPTIONS,
  select,
  type Selected,
} from "./_command.ts";
import { helpOf } from "./_help.ts";
import { CANCELLED_EXIT, failedCall, failedRemoteCall } from "./_errors.ts";
import { UsageError } from "./_usage.ts";
import { readLeafArgs } from "./_args.ts";
import { completionScript, completionsFor } from "./completion.ts";
import { type CliIo, processIo } from "./io.ts";
import { BinaryToTerminal, writeResult } from "./_output.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";
import { taskCaller } from "../tasks/owner.ts";
import { catalogueOf } from "../tree/catalogue.ts";
import { failureLine } from "../tree/failure.ts";
import type { TaskHandle } from "../client/client_types.ts";
import {
  localTask,
  localTaskCommand,
  remoteTask,
  remoteTaskCommand,
  type TaskAnswer,
  type TaskCommand,
  TaskFailed,
  type TaskVerb,
} from "./_tasks.ts";

/**
 * Options of {@linkcode runCli}.
 *
 * @example
 * ```ts
 * import type { CliOptions } from "@ramify/api/cli";
 *
 * const opts: CliOptions = {
 *   name: "bookstore",
 *   context: ({ surface }) => ({ caller: surface }),
 *   timeoutMs: 30_000,
 * };
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
  /**
   * A bearer token for guarded commands (`--token` overrides); {@linkcode mainCli}
   * takes the environment variable `RAMIFY_TOKEN` when this is not given.
   */
  readonly token?: string;
  /**
   * Headers every call carries: sent to the server with `--url`; in process,
   * handlers and guards see a request holding them.
   */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /**
   * Makes the values handlers and middleware see in their context, in
   * process. It is told `{ surface: "cli" }`; an `HttpError` it throws is the
   * command's failure.
   */
  readonly context?: ContextFunction;
  /**
   * Milliseconds a call in process may run: then its `signal` aborts and the
   * command fails with `503 Service Unavailable` (exit 1). Default none.
   */
  readonly timeoutMs?: number;
  /**
   * Cancels the call: the handler's signal (or the request to the server)
   * aborts and the command exits 130. {@linkcode mainCli} gives one that
   * Ctrl-C aborts.
   */
  readonly signal?: AbortSignal;
  /**
   * Observes a fault in process (a crash, a result breaking its output
   * schema), after the line `error: 500 Internal Server Error`. Default: the
   * error is written under that line (the process is yours: nothing to mask).
   */
  readonly onError?: (error: unknown) => void;
  /** Handlers' log lines written to standard error, in process: this level and above. Default `"info"`. */
  readonly logLevel?: LogLevel | "off";
  /**
   * Where long-running commands run in process (`createTasks()`, a shared
   * store for `--detach`, `status <id>` and `cancel <id>` across commands).
   * Default: one of the command's own, which only waiting can use.
   */
  readonly tasks?: TaskRuntime;
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
  // What a failure is judged against: the caller's signal tells a cancellation.
  const caller: HandlerContext = opts.signal === undefined ? {} : { signal: opts.signal };
  let remote = false;
  // A long-running task's fault, observed after the command's line as any fault is.
  let taskFault: { error: unknown } | undefined;
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
    const verb = taskVerb(tree, argv);
    if (verb !== undefined) {
      const { values, positionals } = parseArgs({
        args: [...argv],
        options: verb === "answer" ? ANSWER_OPTIONS : GLOBAL_OPTIONS,
        strict: true,
        allowPositionals: true,
      });
      if (positionals.length !== 2) throw new UsageError(`${verb} takes one task id`);
      const given = verb === "answer" ? answerOf(values) : undefined;
      const url = typeof values.url === "string" ? values.url : opts.baseUrl;
      const headers = authorized(opts, values);
      remote = url !== undefined;
      const line = url === undefined
        ? await localTaskCommand(
          opts.tasks,
          verb,
          positionals[1],
          taskCaller(
            (label) => catalogueOf(tree).entries.find((entry) => entry.label === label)?.leaf,
            await cliContext(headers, { ...opts, io }),
          ),
          given,
        )
        : await remoteTaskCommand(opts.fetch ?? fetch, url, verb, positionals[1], headers, given);
      await writeResult(line, io, {
        // `answer`'s `--json` is the answer it sends.
        compact: values.json === true,
        file: undefined,
        signal: opts.signal,
      });
      return 0;
    }
    const selected = select(tree, argv);
    const words = commandOf(selected);
    const { node } = selected;
    const command = isLeaf(node) ? commandAt(tree, selected.steps) : undefined;
    const flags = command === undefined ? [] : flagsOfCommand(command);
    if (selected.help) {
      io.out(helpOf(program, words, node, flags));
      return 0;
    }
    if (command === undefined) {
      io.err(helpOf(program, words, node, flags));
      throw new UsageError(
        words === ""
          ? "give a command"
          : `"${words}" needs a command${
            selected.meant === undefined ? "" : `; did you mean ${selected.meant}?`
          }`,
      );
    }
    const { values, input } = await readLeafArgs(selected, command, flags, io, words || program);
    if (needsConfirmation(node) && values.yes !== true) {
      if (!io.stdinIsTerminal) {
        io.err(`error: "${words}" is destructive: pass --yes to run it without a terminal\n`);
        return 1;
      }
      const answer = await io.prompt(`${confirmQuestion(words)} [y/N] `);
      if (!/^\s*y(es)?\s*$/i.test(answer ?? "")) {
        io.err(`${NOT_CONFIRMED}\n`);
        return 1;
      }
    }
    const url = typeof values.url === "string" ? values.url : opts.baseUrl;
    const headers = authorized(opts, values);
    remote = url !== undefined;
    const task = command.longRunning
      ? {
        io,
        program,
        // `--wait` beside `--detach` keeps the default: waiting.
        detach: values.detach === true && values.wait !== true,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
      }
      : undefined;
    const onFault = (error: unknown) => void (taskFault = { error });
    const result = url === undefined
      ? await localCall(command, selected, input, headers, { ...opts, io }, task, onFault)
      : await remoteCall(tree, url, selected, input, headers, opts, task);
    await writeResult(result, io, {
      compact: values.json === true,
      // A leaf whose input has an `output` property keeps `--output` for it.
      file: typeof values.output === "string" && !flags.some((flag) => flag.name === "output")
        ? values.output
        : undefined,
      signal: opts.signal,
    });
    return 0;
  } catch (error) {
    const fault = opts.onError ?? ((thrown) => io.err(`  ${textOf(thrown)}\n`));
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof BinaryToTerminal) {
      io.err(`error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof TaskFailed) {
      io.err(`error: ${failureLine(error.failure)}\n`);
      if (taskFault !== undefined) observe(fault, taskFault.error);
      return error.failure.kind === "cancelled" ? CANCELLED_EXIT : 1;
    }
    const failed = remote ? failedRemoteCall(error, caller) : failedCall(error, caller);
    io.err(`error: ${failed.line}\n`);
    if (failed.fault) observe(fault, error);
    return failed.exitCode;
  }
}

/**
 * Runs the command line of this process (`Deno.args`, or `process.argv` on
 * Node and Bun) and sets the process's exit code: the one line a script needs.
 * Ctrl-C cancels the call (its handler's signal aborts; exit code 130); a
 * second Ctrl-C exits at once. A guarded command's bearer token is `--token`,
 * else `opts.token`, else the environment variable `RAMIFY_TOKEN`.
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
  const interrupt = new AbortController();
  const interrupted = () => {
    // A handler that ignores its signal must not keep the user waiting twice.
    if (interrupt.signal.aborted) process.exit(CANCELLED_EXIT);
    interrupt.abort(new DOMException("The command was interrupted", "AbortError"));
  };
  process.on("SIGINT", interrupted);
  try {
    // `deno task cli -- books list` passes the `--` on.
    process.exitCode = await runCli(tree, argv[0] === "--" ? argv.slice(1) : argv, {
      ...opts,
      token: opts.token ?? environmentToken(),
      signal: opts.signal === undefined
        ? interrupt.signal
        : AbortSignal.any([opts.signal, interrupt.signal]),
    });
  } finally {
    process.off("SIGINT", interrupted);
  }
}

/** `RAMIFY_TOKEN`, where the program may read the environment (Deno asks a permission). */
function environmentToken(): string | undefined {
  try {
    const token = process.env.RAMIFY_TOKEN;
    return token === undefined || token === "" ? undefined : token;
  } catch {
    return undefined;
  }
}

/** The call's headers: the options', and the bearer token (`--token` over `opts.token`). */
function authorized(opts: CliOptions, values: Record<string, unknown>): Headers {
  const headers = new Headers(opts.headers);
  const token = typeof values.token === "string" ? values.token : opts.token;
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  return headers;
}

/** `answer <id>`'s flags: `--json` is the answer (not compact output), `--key` its question. */
const ANSWER_OPTIONS = {
  ...GLOBAL_OPTIONS,
  json: { type: "string" },
  key: { type: "string" },
} as const;

/** `answer <id> --json '<answer>' [--key <key>]`: the answer parsed, or a usage error. */
function answerOf(values: Record<string, unknown>): TaskAnswer {
  if (typeof values.json !== "string") {
    throw new UsageError("answer takes the answer as --json '<answer>' (and --key <question>)");
  }
  let answer: unknown;
  try {
    answer = JSON.parse(values.json);
  } catch {
    throw new UsageError(`answer: --json is not JSON: ${values.json}`);
  }
  return { answer, key: typeof values.key === "string" ? values.key : undefined };
}

/**
 * `status`, `cancel` or `answer` when it is the command line's first word and
 * names no child of the root, in a tree with a long-running leaf (where a
 * task can be).
 */
function taskVerb(tree: Node, argv: readonly string[]): TaskVerb | undefined {
  const [word] = parseArgs({
    args: [...argv],
    options: GLOBAL_OPTIONS,
    strict: false,
    allowPositionals: true,
  }).positionals;
  if (word !== "status" && word !== "cancel" && word !== "answer") return undefined;
  if (Object.hasOwn(tree.children ?? {}, word)) return undefined;
  return catalogueOf(tree).entries.some((entry) => entry.longRunning) ? word : undefined;
}

/** Calls the leaf in this process, as the server would: context made, deadline kept. */
async function localCall(
  command: Command,
  selected: Selected,
  input: Record<string, unknown>,
  headers: Headers,
  opts: CliOptions,
  task: TaskCommand | undefined,
  onFault: (error: unknown) => void,
): Promise<unknown> {
  const context = await cliContext(headers, opts);
  const whole = { ...input, ...Object.fromEntries(selected.captures) };
  if (task !== undefined) {
    return await localTask(
      opts.tasks,
      command,
      whole,
      context,
      task,
      onFault,
    );
  }
  return await perform(command.call, whole, context, opts.timeoutMs);
}

/** The context a command's call sees in process, as the server would make it. */
async function cliContext(headers: Headers, opts: CliOptions): Promise<HandlerContext> {
  const context: HandlerContext = withInteraction({
    surface: "cli" as const,
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    // A request standing for the command line, so guards read its credentials.
    ...([...headers].length === 0
      ? {}
      : { request: new Request("http://localhost/", { method: "POST", headers }) }),
  }, cliInteraction(opts.io ?? processIo(), opts.logLevel));
  return await contextOf(context, opts.context, { surface: "cli" });
}

/** The same call through the typed HTTP client: children by name, fallbacks by value. */
async function remoteCall(
  tree: Node,
  url: string,
  selected: Selected,
  input: Record<string, unknown>,
  headers: Headers,
  opts: CliOptions,
  task: TaskCommand | undefined,
): Promise<unknown> {
  let at: unknown = createClient(tree, {
    baseUrl: url,
    headers,
    ...(opts.fetch === undefined ? {} : { fetch: opts.fetch }),
  });
  let capture = 0;
  for (const step of selected.steps) {
    const holder = at as Record<string, unknown>;
    at = step.kind === "child"
      ? holder[step.name]
      : (holder[step.name] as (value: string) => unknown)(selected.captures[capture++][1]);
  }
  const send = at as (
    input: Record<string, unknown>,
    options: { signal?: AbortSignal; async?: true },
  ) => Promise<unknown>;
  if (task !== undefined) {
    // The handle, so that the command draws progress and cancels on Ctrl-C itself.
    return await remoteTask(
      await send(input, { async: true }) as TaskHandle<unknown, unknown>,
      task,
    );
  }
  return await send(input, opts.signal === undefined ? {} : { signal: opts.signal });
}

/** An observer that throws must not change the exit code. */
function observe(onError: (error: unknown) => void, error: unknown): void {
  try {
    onError(error);
  } catch {
    // Nothing more to tell: the line is written.
  }
}

/** A fault as one line of text: `Error: the disk is full`. */
function textOf(error: unknown): string {
  return error instanceof Error ? String(error) : inspect(error);
}
