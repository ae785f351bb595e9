// Runs a tool through its prepared call and writes the outcome as an MCP tool
// result: a string as its own text, any other value as JSON text (and as
// structured content when the leaf has an output schema), bytes as one image,
// audio or resource block (_bytes.ts), a `content()` value as its blocks, a
// stream's items collected, and every failure a result
// with isError whose text is the tree's one line for it (the status the other
// surfaces give first).

import type { HandlerContext } from "../../tree/node.ts";
import { InputError } from "../../tree/call.ts";
import type { ContextFunction, ContextSource } from "../../tree/context.ts";
import { call } from "../../engine/engine.ts";
import { Cancelled, type Failure, failureLine } from "../../tree/failure.ts";
import { isPlainObject, nestsDeeper, setOwn } from "../../tree/plain_data.ts";
import { tooDeep } from "../../web/request.ts";
import { failureOf } from "../../tree/run.ts";
import { bytesOf, responseBytes } from "../../tree/bytes.ts";
import { resultKindOf } from "../../tree/result_kind.ts";
import { type GapNotice, StreamEvent, StreamGap } from "../../tree/stream_events.ts";
import type { ToolEntry } from "../projection/tools.ts";
import { Content, type ContentBlock } from "../../tree/content.ts";
import { bytesContent } from "./_bytes.ts";
import { structuredContentOf } from "../projection/structured.ts";

/** A `tools/call` result as plain data. */
export interface ToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: true;
}

/**
 * A stream's step as it comes, counted from 1 (items and gaps alike): an
 * item's JSON value (and its position in its topic), or a gap's notice.
 */
export type StreamStep =
  & { readonly count: number }
  & ({ readonly value: unknown; readonly eventId?: string } | { readonly gap: GapNotice });

export interface RunOptions {
  /** Each item of a stream, as it comes. */
  readonly onItem?: (step: StreamStep) => void | Promise<void>;
  /** Observes a fault before the masked result is sent. */
  readonly onError: (error: unknown) => void;
  /** Milliseconds the call may run (the server's `timeoutMs`). */
  readonly timeoutMs?: number;
  /** How deep the arguments may nest (the server's `maxInputDepth`). */
  readonly maxDepth: number;
  /** The server's `context` option: values added to the call's context. */
  readonly context?: ContextFunction;
  /** The scheme of the URIs of embedded resources the server names. Default `"ramify"`. */
  readonly resourceScheme?: string;
}

/**
 * Calls the tool with the client's arguments; never throws. `context` is the
 * call's own (fresh) context, holding the client's signal; `source` is what
 * the `context` option is told.
 */
export async function runTool(
  entry: ToolEntry,
  args: unknown,
  context: HandlerContext,
  source: ContextSource,
  opts: RunOptions,
): Promise<ToolResult> {
  try {
    const input = inputOf(entry, args, opts.maxDepth);
    const result = await call(entry.call, input, context, opts, source);
    const kind = resultKindOf(result);
    if (kind === "bytes") {
      const bytes = bytesOf(result, entry.bytesType);
      const name = entry.descriptor.name;
      return { content: [await bytesContent(bytes, name, context.signal, opts.resourceScheme)] };
    }
    // A value to every other surface, a `content()` is MCP's own: its blocks as they are.
    if (result instanceof Content) return { content: result.blocks };
    if (kind === "stream") {
      const items: unknown[] = [];
      let steps = 0;
      for await (const step of result as AsyncIterable<unknown>) {
        // A cancelled call stops pulling; leaving the loop ends the handler's stream.
        if (context.signal?.aborted === true) throw new Cancelled(context.signal.reason);
        if (step instanceof StreamGap) {
          await opts.onItem?.({ gap: step.notice(), count: ++steps });
          continue;
        }
        const item = step instanceof StreamEvent ? step.value : step;
        // Bytes are a whole result's content, never an item's JSON (which would be `{}`).
        const itemKind = resultKindOf(item);
        if (itemKind === "bytes" || itemKind === "response") {
          throw new TypeError(
            `${entry.descriptor.name}: a stream's item is bytes, which MCP carries only as a whole result`,
          );
        }
        const json = jsonOf(item);
        await opts.onItem?.(
          step instanceof StreamEvent
            ? { value: json, count: ++steps, eventId: step.id }
            : { value: json, count: ++steps },
        );
        items.push(json);
      }
      return success(items, entry);
    }
    if (kind === "response") {
      return await fromResponse(result as Response, entry, context.signal, opts);
    }
    return success(result, entry);
  } catch (error) {
    return failed(failureOf(error, context), opts.onError);
  }
}

/** The arguments as the call path's flat input; captures must be strings. */
export function inputOf(
  entry: ToolEntry,
  args: unknown,
  maxDepth: number,
): Record<string, unknown> {
  if (args !== undefined && !isPlainObject(args)) {
    throw new InputError([{ message: "The arguments must be an object", path: [] }]);
  }
  // The SDK parses any depth; a handler walking its input must not meet more than a body may hold.
  if (nestsDeeper(args, maxDepth)) throw tooDeep(maxDepth);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args ?? {})) setOwn(input, key, value);
  const issues = entry.captures.filter((name) => typeof input[name] !== "string").map((name) => ({
    message: "Expected a string",
    path: [name],
  }));
  if (issues.length > 0) throw new InputError(issues);
  return input;
}

function jsonOf(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * A value as a result, serialized once: its JSON text, parsed back only where
 * the output schema asks for structured content. A string, or a value whose
 * JSON is one (a `Date`), is that string, as text and as value.
 */
export function success(result: unknown, entry: ToolEntry): ToolResult {
  if (result === undefined) return { content: [] };
  let value: unknown = result;
  let text: string;
  if (typeof result === "string") text = result;
  else {
    const json = JSON.stringify(result);
    if (json === undefined) throw new TypeError(`${entry.descriptor.name}: the result has no JSON`);
    value = json.charCodeAt(0) === 0x22 ? JSON.parse(json) : undefined;
    text = value === undefined ? json : value as string;
  }
  const content = [{ type: "text" as const, text }];
  const advertised = entry.descriptor.outputSchema;
  return advertised === undefined
    ? { content }
    : { content, structuredContent: structuredContentOf(value ?? JSON.parse(text), advertised) };
}

/** A `Response`'s body: text as it is, any other media type (or none) as bytes. */
async function fromResponse(
  response: Response,
  entry: ToolEntry,
  signal: AbortSignal | undefined,
  opts: RunOptions,
): Promise<ToolResult> {
  const bytes = response.ok ? responseBytes(response, entry.bytesType) : undefined;
  if (bytes !== undefined) {
    const name = entry.descriptor.name;
    return { content: [await bytesContent(bytes, name, signal, opts.resourceScheme)] };
  }
  const text = await response.text();
  const content = text === "" ? [] : [{ type: "text" as const, text }];
  return response.ok ? { content } : { content, isError: true };
}

/** The failure's one line, and a declared error's data as JSON below it; a fault is observed first. */
function failed(failure: Failure, onError: (error: unknown) => void): ToolResult {
  if (failure.kind === "fault") observe(onError, failure.error);
  return failureResult(failure);
}

/** Tells `onError` of a fault: an observer that throws must not change what the client sees. */
export function observe(onError: (error: unknown) => void, error: unknown): void {
  try {
    onError(error);
  } catch {
    // Nothing more to tell.
  }
}

/** A failure as the tool's `isError` result: its one line, and a declared error's data below. */
export function failureResult(failure: Omit<Failure, "error" | "headers">): ToolResult {
  const line = failureLine(failure as Failure);
  const data = failure.data === undefined ? undefined : jsonText(failure.data);
  return {
    content: [{ type: "text", text: data === undefined ? line : `${line}\n${data}` }],
    isError: true,
  };
}

/** Data that cannot be JSON (a cycle, a bigint) is left out rather than failing the result. */
function jsonText(data: unknown): string | undefined {
  try {
    return JSON.stringify(data);
  } catch {
    return undefined;
  }
}
