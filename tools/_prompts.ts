// The tree's prompts (leaves made by `prompt()`, marked `meta.prompt`) on
// MCP: `prompts/list` (arguments from the input schema), `prompts/get`
// through the one call path (the leaf's value is the GetPromptResult every
// surface serves), and completion of their arguments for `completion/complete`.

import type {
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { LeafCall } from "../tree/call.ts";
import { createCall } from "../tree/call.ts";
import { assignOwn, type ContextFunction, type ContextSource } from "../tree/context.ts";
import { failureLine } from "../tree/failure.ts";
import { leavesOf } from "../tree/leaves.ts";
import type { HandlerContext, Node } from "../tree/node.ts";
import { isPlainObject, setOwn } from "../tree/plain_data.ts";
import { failureOf, runCall } from "../tree/run.ts";
import { type JsonSchema, toJsonSchema } from "../tree/schema.ts";
import { joinPath, TOOL_NAME } from "./_names.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** A prompt as `prompts/list` describes it, with what serving it needs. */
export interface PromptEntry {
  readonly descriptor: ListPromptsResult["prompts"][number];
  /** The leaf's call, prepared once. */
  readonly call: LeafCall;
  /** Each argument's JSON Schema, for completion from an `enum`. */
  readonly fields: Readonly<Record<string, JsonSchema>>;
  /** Completer leaves' calls, by argument. */
  readonly completers: ReadonlyMap<string, LeafCall>;
}

/** What serving a prompt needs of the server's options. */
export interface PromptServing {
  readonly timeoutMs?: number;
  readonly context?: ContextFunction;
  readonly onError: (error: unknown) => void;
}

/** Every prompt of the tree, in tree order; a name given twice, or an unknown completer, is an error. */
export function collectPrompts(root: Node, caller: string): PromptEntry[] {
  const entries = leavesOf(root);
  const byLabel = new Map(entries.map((entry) => [entry.label, entry]));
  const prompts: PromptEntry[] = [];
  const names = new Set<string>();
  for (const { leaf, names: path, captures, label } of entries) {
    const meta = leaf.meta.prompt;
    if (meta === undefined || leaf.meta.tools === false) continue;
    const name = meta.name ?? (path.length === 0 ? "root" : joinPath(path));
    if (!TOOL_NAME.test(name) || names.has(name)) {
      throw new Error(
        `${caller}: the prompt at ${label} gets the name "${name}", ${
          names.has(name) ? "which another prompt has" : "which is not [A-Za-z0-9._-]{1,128}"
        }; give another with prompt(..., { name })`,
      );
    }
    names.add(name);
    const input = leaf.meta.input === undefined
      ? undefined
      : toJsonSchema(leaf.meta.input, "input");
    const properties = isPlainObject(input?.properties)
      ? input.properties as Record<string, JsonSchema>
      : {};
    const fields: Record<string, JsonSchema> = { ...properties };
    for (const capture of captures) fields[capture] ??= { type: "string" };
    const required = new Set([...(input?.required as string[] | undefined ?? []), ...captures]);
    const completers = new Map<string, LeafCall>();
    for (const [argument, place] of Object.entries(meta.complete ?? {})) {
      const completer = byLabel.get(place);
      if (completer === undefined || !Object.hasOwn(fields, argument)) {
        throw new Error(
          `${caller}: the prompt "${name}" completes "${argument}" with "${place}", ${
            completer === undefined ? "which is no leaf" : "which is no argument of it"
          }`,
        );
      }
      completers.set(argument, createCall(completer.leaf));
    }
    const description = leaf.meta.description;
    prompts.push({
      descriptor: {
        name,
        ...(meta.title === undefined ? {} : { title: meta.title }),
        ...(typeof description === "string" ? { description } : {}),
        arguments: Object.entries(fields).map(([field, schema]) => ({
          name: field,
          ...(typeof schema.title === "string" ? { title: schema.title } : {}),
          ...(typeof schema.description === "string" ? { description: schema.description } : {}),
          required: required.has(field),
        })),
      },
      call: createCall(leaf, { captures }),
      fields,
      completers,
    });
  }
  return prompts;
}

/** Answers `prompts/list` and `prompts/get`. */
export function registerPrompts(
  server: Server,
  loaded: Sdk,
  prompts: readonly PromptEntry[],
  serving: PromptServing,
  contextOf: (ctx: ServerContext) => {
    context: HandlerContext;
    source: ContextSource;
    rounds?: { pending(): InputRequiredResult | undefined };
  },
): void {
  const byName = new Map(prompts.map((entry) => [entry.descriptor.name, entry]));
  server.setRequestHandler("prompts/list", (): ListPromptsResult => ({
    prompts: prompts.map(({ descriptor }) => descriptor),
  }));
  server.setRequestHandler("prompts/get", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const entry = byName.get(name);
    if (entry === undefined) {
      throw new loaded.ProtocolError(
        loaded.ProtocolErrorCode.InvalidParams,
        `Unknown prompt: ${JSON.stringify(name)}`,
      );
    }
    const { context, source, rounds } = contextOf(ctx);
    try {
      if (serving.context !== undefined) assignOwn(context, await serving.context(source));
      const input: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(args ?? {})) setOwn(input, key, value);
      return await runCall(entry.call, input, context, serving.timeoutMs) as GetPromptResult;
    } catch (error) {
      // A question left to the client (2026 era): the render runs again with its answer.
      const unanswered = rounds?.pending();
      if (unanswered !== undefined) return unanswered;
      const failure = failureOf(error, context);
      if (failure.kind === "fault") observe(serving.onError, failure.error);
      // The caller's arguments (refused by the schema, or by the handler with a 4xx): -32602.
      const theirs = failure.kind === "input" ||
        (failure.kind === "declared" && failure.status < 500);
      throw new loaded.ProtocolError(
        theirs ? loaded.ProtocolErrorCode.InvalidParams : loaded.ProtocolErrorCode.InternalError,
        failureLine(failure),
      );
    }
  });
}

/** At most this many values in one completion, as MCP allows. */
const MAX_VALUES = 100;

/**
 * The completions of a prompt's argument from what was typed (`value`):
 * the argument's `enum` (or titled `oneOf`/`anyOf` consts) starting with it,
 * else what the prompt's completer leaf returns for
 * `{ value, arguments }`; at most 100, with `total` and `hasMore`.
 * `undefined` when there is no such prompt or argument (a -32602).
 */
export async function completePromptArgument(
  prompts: readonly PromptEntry[],
  name: string,
  argument: string,
  value: string,
  args: Readonly<Record<string, string>> | undefined,
  context: HandlerContext,
  timeoutMs?: number,
): Promise<{ values: string[]; total: number; hasMore: boolean } | undefined> {
  const entry = prompts.find((prompt) => prompt.descriptor.name === name);
  if (entry === undefined || !Object.hasOwn(entry.fields, argument)) return undefined;
  const completer = entry.completers.get(argument);
  const candidates = completer === undefined
    ? choicesOf(entry.fields[argument])
    : await runCall(completer, { value, arguments: { ...args } }, context, timeoutMs);
  if (!Array.isArray(candidates)) {
    throw new TypeError(`the completer of "${argument}" of "${name}" did not return a list`);
  }
  const matching = candidates.filter((candidate): candidate is string =>
    typeof candidate === "string" && candidate.startsWith(value)
  );
  return {
    values: matching.slice(0, MAX_VALUES),
    total: matching.length,
    hasMore: matching.length > MAX_VALUES,
  };
}

function choicesOf(field: JsonSchema): unknown[] {
  if (Array.isArray(field.enum)) return field.enum;
  const titled = Array.isArray(field.oneOf) ? field.oneOf : field.anyOf;
  return Array.isArray(titled) ? titled.map((choice) => choice?.const) : [];
}

function observe(onError: (error: unknown) => void, error: unknown): void {
  try {
    onError(error);
  } catch {
    // An observer that throws must not change the answer.
  }
}
