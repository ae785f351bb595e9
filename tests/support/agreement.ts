// Shared by the agreement suites: a leaf addressed by the steps a client takes
// (a child's name, or a fallback's name with its captured value), walked on a
// client object or on the tree itself.
import openapiFetch from "openapi-fetch";
import type { Node } from "@ramify/api/tree/node";
import { listOperations } from "@ramify/api/http";
import { httpProjection } from "@ramify/api/http/dx";
import { type CliOptions, runCli } from "@ramify/api/cli";
import { memoryIo } from "./cli_io.ts";

/** A step to a leaf: a child's name, or a fallback's name with its captured value. */
export type Step = string | readonly [string, string];

/** Walks a client object along the steps and calls the leaf. */
export function callThrough(
  client: unknown,
  steps: readonly Step[],
  input?: Record<string, unknown>,
): Promise<unknown> {
  let at = client as Record<string, unknown>;
  for (const step of steps) {
    at = typeof step === "string"
      ? at[step] as Record<string, unknown>
      : (at[step[0]] as (value: string) => Record<string, unknown>)(step[1]);
  }
  return (at as unknown as (input?: Record<string, unknown>) => Promise<unknown>)(input);
}

/** The leaf at the steps, and the captures along the way. */
export function leafAt(root: Node, steps: readonly Step[]): {
  node: Node;
  captures: Record<string, string>;
} {
  let node = root;
  const captures: Record<string, string> = {};
  for (const step of steps) {
    if (typeof step === "string") node = node.children![step];
    else {
      captures[step[0]] = step[1];
      node = node.fallback!.subtree;
    }
  }
  return { node, captures };
}

/**
 * Calls through openapi-fetch as a user of the served document would: the
 * leaf's method and path template from the route, captures as path
 * parameters, the input as the query (GET) or the JSON body. A non-OK answer
 * throws an error with its `status`.
 */
export function openapiCall(
  base: string,
  root: Node,
  fetchImpl: typeof fetch = fetch,
  headers: Record<string, string> = {},
): (steps: readonly Step[], input?: Record<string, unknown>) => Promise<unknown> {
  const client = openapiFetch({ baseUrl: base, fetch: fetchImpl, headers });
  const operations = listOperations(httpProjection(root));
  const send = client as unknown as Record<
    string,
    (path: string, init: Record<string, unknown>) => Promise<
      { data?: unknown; error?: unknown; response: Response }
    >
  >;
  return async (steps, input) => {
    const names = steps.map((step) => typeof step === "string" ? step : step[0]);
    const operation = operations.find((o) =>
      o.steps.map((s) => s.name).join("/") === names.join("/")
    )!;
    const path: Record<string, string> = {};
    for (const step of steps) if (typeof step !== "string") path[step[0]] = step[1];
    const inQuery = operation.method === "GET";
    const withFiles = Object.values(input ?? {}).some((value) =>
      value instanceof Blob || (Array.isArray(value) && value.some((item) => item instanceof Blob))
    );
    const { data, error, response } = await send[operation.method](operation.path, {
      params: { path, query: inQuery ? input : undefined },
      ...(inQuery ? {} : withFiles
        // The document says multipart/form-data: files as parts, arrays repeated.
        ? { body: input, bodySerializer: formOf }
        : { body: JSON.parse(JSON.stringify(input ?? {})) }),
    });
    if (error !== undefined) {
      throw Object.assign(new Error(`${operation.method} ${operation.path}`), {
        status: response.status,
        body: error,
      });
    }
    return data;
  };
}

function formOf(input: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      form.append(name, item instanceof Blob ? item : String(item));
    }
  }
  return form;
}

/** What an MCP client gives back: the tool result, and the progress the call sent. */
interface McpLike {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: { onprogress?: (progress: { message?: string }) => void },
  ): Promise<{ content?: unknown; isError?: boolean }>;
}

/**
 * Calls through an MCP client as an agent would: the tool named by the child
 * steps joined with ".", captures as arguments. A tool error throws with the
 * status its text starts with; a stream's items come from the progress the
 * call sent, then its error if it failed.
 */
export function mcpCall(
  client: McpLike,
): (steps: readonly Step[], input?: Record<string, unknown>, stream?: boolean) => Promise<unknown> {
  return async (steps, input, stream = false) => {
    const names = steps.filter((step) => typeof step === "string");
    const captures = Object.fromEntries(
      steps.filter((step) => typeof step !== "string").map((step) => [step[0], step[1]]),
    );
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: names.join("."), arguments: { ...input, ...captures } },
      { onprogress: ({ message }) => void progress.push(JSON.parse(message!)) },
    );
    const text = (result.content as { text: string }[])[0]?.text;
    const failure = result.isError === true
      ? Object.assign(new Error(text), { status: Number(/^(\d{3}) /.exec(text ?? "")?.[1]) })
      : undefined;
    if (stream) {
      return (async function* () {
        yield* failure === undefined ? JSON.parse(text!) as unknown[] : progress;
        if (failure !== undefined) throw failure;
      })();
    }
    if (failure !== undefined) throw failure;
    return text === undefined ? undefined : valueOfText(text);
  };
}

/** A string result is its own text (docs/tools.md), any other value its JSON. */
function valueOfText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Calls through the command line as a person would: the steps as words
 * (captures as their values), files as `--<name> <path>` flags over files the
 * io holds, the rest as `--input <json>`; `--url` for remote mode. Output is
 * parsed back: one JSON value, or a stream's JSON lines; a failure throws with
 * the status its one line starts with.
 */
export function cliCall(
  root: Node,
  url?: string,
  options: Omit<CliOptions, "io"> = {},
): (steps: readonly Step[], input?: Record<string, unknown>, stream?: boolean) => Promise<unknown> {
  return async (steps, input = {}, stream = false) => {
    const words = steps.map((step) => typeof step === "string" ? step : step[1]);
    const files: Record<string, Uint8Array> = {};
    const flags: string[] = [];
    const json: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const blobs = (Array.isArray(value) ? value : [value]).filter((item) => item instanceof Blob);
      if (blobs.length === 0) {
        json[key] = value;
        continue;
      }
      for (const blob of blobs) {
        const path = blob instanceof File ? blob.name : "blob";
        files[path] = new Uint8Array(await blob.arrayBuffer());
        flags.push(`--${key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}`, path);
      }
    }
    const io = memoryIo({ files });
    const argv = [...words, "--input", JSON.stringify(json), ...flags, "--yes"];
    const code = await runCli(root, url === undefined ? argv : ["--url", url, ...argv], {
      ...options,
      io,
    });
    const lines = io.stdout.join("").split("\n").filter((line) => line !== "");
    const failure = code === 0 ? undefined : Object.assign(new Error(io.stderr.join("")), {
      status: Number(/^error: (\d{3}) /.exec(io.stderr.join(""))?.[1]),
      code: /^error: \d{3} [^[\n]*\[([^\]]+)\]/.exec(io.stderr.join(""))?.[1],
      exitCode: code,
    });
    if (stream) {
      return (async function* () {
        yield* lines.map((line) => JSON.parse(line));
        if (failure !== undefined) throw failure;
      })();
    }
    if (failure !== undefined) throw failure;
    return lines.length === 0 ? undefined : JSON.parse(lines.join("\n"));
  };
}
