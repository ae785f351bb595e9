// The tree's prompts on MCP: `prompts/list`, `prompts/get` through the one
// call path (the leaf's value is the GetPromptResult every surface serves),
// and completion of their arguments for `completion/complete`.

import type {
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { ContextFunction, ContextSource } from "../../tree/context.ts";
import { call, perform } from "../../engine/engine.ts";
import { failureLine } from "../../tree/failure.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { setOwn } from "../../tree/plain_data.ts";
import { failureOf } from "../../tree/run.ts";
import type { JsonSchema } from "../../tree/schema.ts";
import type { PromptEntry } from "../projection/prompts.ts";
import { observe } from "./_result.ts";
import { firstValues } from "./_completion.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** What serving a prompt needs of the server's options. */
export interface PromptServing {
  readonly timeoutMs?: number;
  readonly context?: ContextFunction;
  readonly onError: (error: unknown) => void;
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
      const input: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(args ?? {})) setOwn(input, key, value);
      return await call(entry.call, input, context, serving, source) as GetPromptResult;
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
    : await perform(completer, { value, arguments: { ...args } }, context, timeoutMs);
  if (!Array.isArray(candidates)) {
    throw new TypeError(`the completer of "${argument}" of "${name}" did not return a list`);
  }
  return firstValues(
    candidates.filter((candidate): candidate is string =>
      typeof candidate === "string" && candidate.startsWith(value)
    ),
  );
}

function choicesOf(field: JsonSchema): unknown[] {
  if (Array.isArray(field.enum)) return field.enum;
  const titled = Array.isArray(field.oneOf) ? field.oneOf : field.anyOf;
  return Array.isArray(titled) ? titled.map((choice) => choice?.const) : [];
}
