// Runs a tool through the one call path and writes the outcome as an MCP tool
// result: the value as JSON text (and as structured content when the leaf has
// an output schema), a stream's items collected, and every failure a result
// with isError whose text starts with the HTTP status the other surfaces give.

import type { HandlerContext } from "../tree/node.ts";
import { createCall, InputError } from "../tree/call.ts";
import { isAsyncIterable, isPlainObject, setOwn } from "../tree/object.ts";
import { httpErrorOf, issuesLine, problemLine } from "../http/web/problem.ts";
import { isCancellation, withDeadline } from "../tree/deadline.ts";
import { extended } from "../tree/context.ts";
import type { ToolEntry } from "./_collect.ts";

/** A `tools/call` result as plain data. */
export interface ToolResult {
  readonly content: { readonly type: "text"; readonly text: string }[];
  readonly structuredContent?: unknown;
  readonly isError?: true;
}

export interface RunOptions {
  /** Each item of a stream, as it comes. */
  readonly onItem?: (item: unknown, index: number) => void | Promise<void>;
  /** Observes a crash before the masked result is sent. */
  readonly onError: (error: unknown) => void;
  /** Milliseconds the call may run before its signal aborts and it fails with 503. */
  readonly timeoutMs?: number;
  /** The server's `context` option: values added to the call's context. */
  readonly context?: (
    request: Request | undefined,
  ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
}

/** Calls the tool with the client's arguments; never throws. */
export async function runTool(
  entry: ToolEntry,
  args: unknown,
  context: HandlerContext,
  opts: RunOptions,
): Promise<ToolResult> {
  const ms = opts.timeoutMs;
  if (ms === undefined) return await run(entry, args, context, opts);
  return await withDeadline(
    ms,
    (timeout) => {
      const signal = context.signal === undefined
        ? timeout
        : AbortSignal.any([context.signal, timeout]);
      return run(entry, args, { ...context, signal }, opts);
    },
    () => errorResult(`503 Service Unavailable: the tool did not finish within ${ms} ms`),
  );
}

async function run(
  entry: ToolEntry,
  args: unknown,
  context: HandlerContext,
  opts: RunOptions,
): Promise<ToolResult> {
  try {
    const input = inputOf(entry, args);
    const call = createCall(entry.leaf, { captures: entry.captures });
    const made = opts.context === undefined ? undefined : await opts.context(context.request);
    const result = await call(input, extended(context, made));
    if (isAsyncIterable(result)) {
      const items: unknown[] = [];
      for await (const item of result) {
        // A cancelled call stops pulling; leaving the loop ends the handler's stream.
        if (context.signal?.aborted === true) break;
        const json = jsonOf(item);
        await opts.onItem?.(json, items.length);
        items.push(json);
      }
      return success(items, entry);
    }
    if (result instanceof Response) return await fromResponse(result);
    return success(jsonOf(result), entry);
  } catch (error) {
    return failure(error, opts.onError);
  }
}

/** The arguments as the call path's flat input; captures must be strings. */
function inputOf(entry: ToolEntry, args: unknown): Record<string, unknown> {
  if (args !== undefined && !isPlainObject(args)) {
    throw new InputError([{ message: "The arguments must be an object", path: [] }]);
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args ?? {})) setOwn(input, key, value);
  const issues = entry.captures.filter((name) => typeof input[name] !== "string").map((name) => ({
    message: `${name} is required: a string`,
    path: [name],
  }));
  if (issues.length > 0) throw new InputError(issues);
  return input;
}

function jsonOf(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function success(value: unknown, entry: ToolEntry): ToolResult {
  const content = value === undefined
    ? []
    : [{ type: "text" as const, text: JSON.stringify(value) }];
  return entry.descriptor.outputSchema === undefined || value === undefined
    ? { content }
    : { content, structuredContent: value };
}

async function fromResponse(response: Response): Promise<ToolResult> {
  const text = await response.text();
  const content = text === "" ? [] : [{ type: "text" as const, text }];
  return response.ok ? { content } : { content, isError: true };
}

function failure(error: unknown, onError: (error: unknown) => void): ToolResult {
  if (error instanceof InputError) {
    return errorResult(
      `422 Unprocessable Content: the arguments do not match the tool's input schema: ${
        issuesLine(error.issues)
      }`,
    );
  }
  const http = httpErrorOf(error);
  if (http !== undefined) {
    const { title, detail, code, data } = http.problem;
    const line = problemLine(http.status, title, detail, code);
    return errorResult(data === undefined ? line : `${line}\n${JSON.stringify(data)}`);
  }
  // A call that gave up because its signal aborted (a timeout, a cancel) did not crash.
  if (isCancellation(error)) {
    return errorResult("503 Service Unavailable: the tool was cancelled");
  }
  // A crash, or a result that breaks its output schema: the server's fault, never shown.
  try {
    onError(error);
  } catch {
    // An observer that throws must not change what the client sees.
  }
  return errorResult("500 Internal Server Error: the tool failed");
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
