// MCP's tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) over the
// task runtime every surface shares (tasks/): a 2026-07-28 `tools/call` of a
// long-running leaf (tag `longRunning`) from a client that declared the
// extension starts a task and answers its handle (`resultType: "task"`) at
// once; `tasks/get` reads it (the tool result inlined once done),
// `tasks/update` answers the questions its handler asked, `tasks/cancel`
// aborts its handler, on whichever instance runs it. A client that did not
// declare the extension waits for the result as for any tool, unless the leaf
// requires a task (`meta.tools.task: "required"`): then `-32021`.
//
// What a task's record says, over MCP: a result is the tool result the call
// would have given; a failure the tool reported (a declared error, refused
// input, a timeout) is `completed` with that `isError` result, as the
// extension wants; only a fault (the handler crashed, its instance died) is
// `failed`, with a JSON-RPC error. This module is loaded only by a server
// whose tree has a long-running tool, so that no other call pays for it.

import { type TaskCaller, taskCaller } from "../../tasks/owner.ts";
import { principalOf } from "../../tree/principal.ts";
import type { ClientCapabilities, Server, ServerContext } from "@modelcontextprotocol/server";
import { createTasks, type TaskRuntime } from "../../tasks/runtime.ts";
import type { TaskRecord } from "../../tasks/store.ts";
import { extended } from "../../tree/context.ts";
import { contextOf } from "../../engine/engine.ts";
import { type Failure, failureLine } from "../../tree/failure.ts";
import {
  ask,
  type AskResult,
  type FormSchema,
  log,
  progress,
  type Question,
  withInteraction,
} from "../../tree/interaction.ts";
import type { LeafCall } from "../../tree/call.ts";
import { isPlainObject, MAX_INPUT_DEPTH } from "../../tree/plain_data.ts";
import type { ToolEntry } from "../projection/tools.ts";
import { failureResult, inputOf, success } from "./_result.ts";
import type { McpOptions } from "./options.ts";
import { listenForTasks, type TaskRequest } from "./_task_listen.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** The extension's identifier, under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** How often a client is asked to poll `tasks/get`, in milliseconds. */
const POLL_INTERVAL_MS = 500;
/** JSON-RPC's internal error: a task whose handler crashed. */
const INTERNAL_ERROR = -32603;
const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

/** The tasks of one MCP handler. */
export interface McpTasks {
  /** The server's `capabilities.extensions`: the tasks extension, advertised. */
  readonly extensions: { readonly [TASKS_EXTENSION]: Record<string, never> };
  /**
   * A long-running tool's call: the task's handle; `undefined` when the
   * client takes no task and the tool allows that (it runs as any other).
   */
  call(entry: ToolEntry, args: unknown, request: TaskRequest): Promise<object | undefined>;
  /** Serves `tasks/get`, `tasks/update` and `tasks/cancel` on one SDK server. */
  register(server: Server, requestOf: (ctx: ServerContext) => TaskRequest): void;
  /**
   * Serves a 2026-07-28 `subscriptions/listen` naming `taskIds`: the
   * caller's tasks' status notifications (_task_listen.ts); any other request
   * goes to `next` as it came.
   */
  listen(
    request: Request,
    parsed: unknown,
    next: (request: Request, parsed: unknown) => Promise<Response>,
  ): Promise<Response>;
  /** Closes the runtime the handler made (its tasks still running end `failed`); a given one is the caller's. */
  close(): Promise<void>;
}

/**
 * The tasks of a handler whose tools include `tools`: the runtime is the
 * `tasks` option, or one of the handler's own, in memory, made on first use.
 */
export function mcpTasks(loaded: Sdk, tools: readonly ToolEntry[], opts: McpOptions): McpTasks {
  let made: TaskRuntime | undefined;
  const runtime = (): TaskRuntime => opts.tasks ?? (made ??= createTasks());
  const byLabel = new Map(tools.map((entry) => [entry.label, entry]));
  const ownerOf = opts.taskOwner ?? principalOf;
  const onError = opts.onError;
  const maxDepth = opts.maxInputDepth ?? MAX_INPUT_DEPTH;
  const needed = (what: string) =>
    new loaded.MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `${what} needs the ${TASKS_EXTENSION} extension: declare it in the client's capabilities`,
    );
  const unknown = (id: unknown) =>
    new loaded.ProtocolError(
      loaded.ProtocolErrorCode.InvalidParams,
      `No task ${JSON.stringify(id)}`,
    );
  /**
   * The caller of a task request, from its context once the `context` option
   * has added to it: the task's leaf's guards run for it.
   */
  const callerOf = async ({ context, source }: TaskRequest): Promise<TaskCaller> => {
    await contextOf(context, opts.context, source);
    return taskCaller((label) => byLabel.get(label)?.leaf, context, ownerOf);
  };
  /** The task a request names, as its caller may see it; -32021 or -32602 otherwise. */
  const found = async (method: string, params: unknown, request: TaskRequest) => {
    if (!declaresTasks(request.capabilities)) throw needed(method);
    const id = isPlainObject(params) ? params.taskId : undefined;
    if (typeof id !== "string") throw unknown(id);
    const owner = await callerOf(request);
    const record = await runtime().get(id, owner);
    if (record === undefined) throw unknown(id);
    return { record, owner };
  };

  const listenDeps = {
    loaded,
    get: (id: string, owner: TaskCaller) => runtime().get(id, owner),
    watch: (id: string, owner: TaskCaller, listener: (record: TaskRecord) => void) =>
      runtime().watch(id, owner, listener),
    callerOf,
    detailOf: (record: TaskRecord) => detailed(record, byLabel.get(record.leaf)),
    declares: (capabilities: unknown) => declaresTasks(capabilities as ClientCapabilities),
    serverInfo: { name: opts.name ?? "ramify", version: opts.version ?? "0.0.0" },
  };

  return {
    extensions: { [TASKS_EXTENSION]: {} },
    close: async () => await made?.close(),
    listen: (request, parsed, next) => listenForTasks(listenDeps, request, parsed, next),
    async call(entry, args, request) {
      if (!declaresTasks(request.capabilities)) {
        if (entry.task === "required") throw needed(`"${entry.descriptor.name}"`);
        return undefined;
      }
      let input: Record<string, unknown>;
      try {
        input = inputOf(entry, args, maxDepth);
      } catch {
        // Arguments no call could take start no task: the call answers the refusal, as any call.
        return undefined;
      }
      // Its questions asked before the task (meta.tools.askFirst): one left to the client ends
      // the call here, rejecting with the round's abort, so that it answers `input_required`.
      const answers: Record<string, AskResult> = {};
      for (const question of entry.askFirst ?? []) {
        answers[question.key] = await ask(request.context, question as Question<FormSchema>);
      }
      await contextOf(request.context, opts.context, request.source);
      const http = request.source.surface === "mcp" ? request.source.request : undefined;
      let record: TaskRecord;
      try {
        record = await runtime().start(
          { label: entry.label, call: answered(entry.call, answers) },
          input,
          request.context,
          {
            owner: ownerOf,
            answers: true,
            timeoutMs: opts.timeoutMs,
            ...(onError === undefined ? {} : {
              onError: (error: unknown) =>
                http === undefined ? onError(error) : onError(error, http),
            }),
          },
        );
      } catch {
        // Refused before its handler began (a guard, the input schema), or no store to keep
        // a task: the call answers, as any call.
        return undefined;
      }
      return { ...handleOf(record), resultType: "task" };
    },
    register(server, requestOf) {
      const params = paramsSchema();
      server.setRequestHandler("tasks/get", { params }, async (given, ctx) => {
        const { record } = await found("tasks/get", given, requestOf(ctx));
        return detailed(record, byLabel.get(record.leaf)) as never;
      });
      server.setRequestHandler("tasks/cancel", { params }, async (given, ctx) => {
        const { record, owner } = await found("tasks/cancel", given, requestOf(ctx));
        // A task already ended is acknowledged as one cancelled now: the ack is the same.
        await runtime().cancel(record.id, owner);
        return {} as never;
      });
      server.setRequestHandler("tasks/update", { params }, async (given, ctx) => {
        const { record, owner } = await found("tasks/update", given, requestOf(ctx));
        // The SDK takes `inputResponses` out of the params, as for a retried call.
        const responses = ctx.mcpReq.inputResponses ??
          (isPlainObject(given) ? given.inputResponses : undefined);
        if (!isPlainObject(responses)) {
          throw new loaded.ProtocolError(
            loaded.ProtocolErrorCode.InvalidParams,
            "tasks/update needs inputResponses: an object of answers by input request",
          );
        }
        // Answers to questions no longer pending (or never asked) are dropped, as the extension says.
        for (const key of Object.keys(record.questions ?? {})) {
          if (Object.hasOwn(responses, key)) {
            await runtime().answer(record.id, owner, answerOf(responses[key]), key);
          }
        }
        return {} as never;
      });
    },
  };
}

/**
 * The call with the answers given before its task: the handler's `ask()` of
 * one of their keys gets it at once; its other questions, log lines and
 * progress are the task's, as for any task.
 */
function answered(call: LeafCall, answers: Readonly<Record<string, AskResult>>): LeafCall {
  if (Object.keys(answers).length === 0) return call;
  return (input, context) =>
    call(
      input,
      withInteraction(extended(context, {}), {
        log: (level, message, data) => log(context, level, message, data),
        progress: (done, total, message) => progress(context, done, total, message),
        ask: (message, schema, _signal, key) =>
          key !== undefined && Object.hasOwn(answers, key)
            ? Promise.resolve(answers[key])
            : ask(context, { message, schema, ...(key === undefined ? {} : { key }) }),
      }),
    );
}

/** Whether the client declared the extension (at its handshake, or in the request's envelope). */
function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** The status MCP reports: a failure the tool reported is a completed call with `isError`. */
function statusOf(record: TaskRecord): TaskRecord["status"] {
  if (record.status !== "failed" || record.failure === undefined) return record.status;
  return protocolError(record.failure) ? "failed" : "completed";
}

/** A crash, or an instance that died: no tool result, a JSON-RPC error. */
function protocolError(failure: NonNullable<TaskRecord["failure"]>): boolean {
  return failure.kind === "fault" || (failure.status === 500 && !failure.declaredCode);
}

/** The extension's `Task`: what `tools/call` answers and every `tasks/get` starts with. */
function handleOf(record: TaskRecord): Record<string, unknown> {
  const message = record.progress?.message;
  return {
    taskId: record.id,
    status: statusOf(record),
    ...(message === undefined ? {} : { statusMessage: message }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/** `tasks/get`'s `DetailedTask`: the handle, and the questions, the result or the error. */
function detailed(record: TaskRecord, entry: ToolEntry | undefined): Record<string, unknown> {
  const handle = handleOf(record);
  const failure = record.failure;
  switch (handle.status) {
    case "input_required":
      return { ...handle, inputRequests: inputRequestsOf(record) };
    case "completed": {
      // The tool result as the call would have answered it, its `resultType` with it.
      const result = failure !== undefined
        ? failureResult(failure)
        : entry === undefined
        ? { content: [] }
        : success(record.result, entry);
      return { ...handle, result: { ...result, resultType: "complete" } };
    }
    case "failed":
      return {
        ...handle,
        error: { code: INTERNAL_ERROR, message: failureLine(failure as Failure) },
      };
    default:
      return handle;
  }
}

/** Each pending question as the form elicitation the client shows. */
function inputRequestsOf(record: TaskRecord): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record.questions ?? {}).map(([key, { message, schema }]) => [
      key,
      { method: "elicitation/create", params: { mode: "form", message, requestedSchema: schema } },
    ]),
  );
}

/** An elicitation's answer as `ask` gives it; anything but the three actions is a cancel. */
function answerOf(response: unknown): AskResult {
  if (!isPlainObject(response) || !ACTIONS.has(response.action)) return { action: "cancel" };
  return (response.action === "accept"
    ? { action: "accept", content: isPlainObject(response.content) ? response.content : {} }
    : { action: response.action }) as AskResult;
}

/** The params of the three methods: an object (its `taskId` is checked by the handler). */
function paramsSchema() {
  return {
    "~standard": {
      version: 1 as const,
      vendor: "ramify",
      validate: (value: unknown) =>
        isPlainObject(value)
          ? { value }
          : { issues: [{ message: "The params must be an object" }] },
    },
  };
}
