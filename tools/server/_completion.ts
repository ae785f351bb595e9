// `completion/complete`: candidate values for a resource template's variable
// (`ref/resource`) or a prompt's argument (`ref/prompt`, answered by the
// prompts' own completer). A variable's candidates are the `enum` its
// capture's schema gives, else what the leaf `meta.tools.complete` names
// returns for `{ value, arguments }` (called through the one call path, as
// `tools/call` calls), else none. Candidates are filtered by the typed
// prefix, and at most MAX_VALUES are sent, with the total and `hasMore`.

import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { failureOf } from "../../tree/run.ts";
import type { Resources } from "../projection/resources.ts";
import { type Caller, callLeaf, protocolErrorOf } from "./_resource_read.ts";
import { MAX_URI_LENGTH } from "../projection/uri_template.ts";

type Sdk = typeof import("@modelcontextprotocol/server");

/** MCP's bound on the values of one completion. */
const MAX_VALUES = 100;

/** A completion as `completion/complete` answers it. */
type Completion = {
  values: string[];
  total?: number;
  hasMore?: boolean;
};

/**
 * Completes a prompt's argument; undefined when there is no such prompt or
 * argument (the caller's mistake: -32602).
 */
export type PromptCompleter = (
  name: string,
  argument: string,
  value: string,
  args: Record<string, string>,
  ctx: ServerContext,
) => Promise<Completion | undefined>;

/** Registers `completion/complete` over the templates and, when given, the prompts. */
export function registerCompletion(
  server: Server,
  loaded: Sdk,
  resources: Resources,
  caller: Caller,
  prompts: PromptCompleter | undefined,
): void {
  const invalid = (message: string) =>
    new loaded.ProtocolError(loaded.ProtocolErrorCode.InvalidParams, message);
  server.setRequestHandler("completion/complete", async (request, ctx) => {
    const { ref, argument } = request.params;
    const args = stringsOf(request.params.context?.arguments);
    if (argument.value.length > MAX_URI_LENGTH) {
      throw invalid(`A value to complete is at most ${MAX_URI_LENGTH} characters`);
    }
    if (ref.type === "ref/prompt") {
      const done = await prompts?.(ref.name, argument.name, argument.value, args, ctx);
      if (done === undefined) {
        throw invalid(`No prompt ${JSON.stringify(ref.name)} with an argument to complete`);
      }
      return { completion: done };
    }
    const entry = resources.templates.find((template) => template.uri === ref.uri);
    if (entry === undefined || !entry.captures.includes(argument.name)) {
      throw invalid(
        `No resource template ${JSON.stringify(ref.uri)} with a variable ${
          JSON.stringify(argument.name)
        }`,
      );
    }
    const listed = enumOf(entry.captureSchemas[argument.name]);
    const completer = entry.completers[argument.name];
    let candidates: readonly string[] = listed ?? [];
    if (listed === undefined && completer !== undefined) {
      const found = await callLeaf(
        loaded,
        completer.call,
        { value: argument.value, arguments: args },
        ctx,
        caller,
      );
      if (!Array.isArray(found) || found.some((value) => typeof value !== "string")) {
        const error = new TypeError(`The completer ${completer.label} returned no list of strings`);
        throw protocolErrorOf(loaded, failureOf(error), caller.onError);
      }
      candidates = found;
    }
    return { completion: completionOf(candidates, argument.value) };
  });
}

/** The candidates starting with the typed prefix: at most MAX_VALUES, with the total. */
function completionOf(candidates: readonly string[], prefix: string): Completion {
  return firstValues([...new Set(candidates)].filter((value) => value.startsWith(prefix)));
}

/** What a completion answers of the values that match: at most MAX_VALUES, with the total. */
export function firstValues(matching: readonly string[]): Required<Completion> {
  return {
    values: matching.slice(0, MAX_VALUES),
    total: matching.length,
    hasMore: matching.length > MAX_VALUES,
  };
}

/** The string values of a schema's `enum` (or of its `anyOf`/`oneOf` constants), if it lists them. */
function enumOf(schema: { readonly [keyword: string]: unknown } | undefined): string[] | undefined {
  if (schema === undefined) return undefined;
  if (Array.isArray(schema.enum)) {
    return schema.enum.filter((value): value is string => typeof value === "string");
  }
  const members = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  const constants = members?.map((member) => (member as { const?: unknown })?.const);
  return constants !== undefined && constants.length > 0 &&
      constants.every((value) => typeof value === "string")
    ? constants as string[]
    : undefined;
}

/** The already-chosen arguments, strings only: anything else a client sends is dropped. */
function stringsOf(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof args !== "object" || args === null) return out;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === "string") Object.defineProperty(out, key, { value, enumerable: true });
  }
  return out;
}
