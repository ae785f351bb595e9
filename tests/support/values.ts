// Shared by the value agreement suite (tests/agreement_values_test.ts): each
// surface called the way its users call it, its answer read back in one form
// the table can compare: JSON as it arrives, a stream's items as an array, and
// bytes as `{ type, bytes }` (the media type where the surface carries one).
import assert from "node:assert/strict";
import type { Node } from "@ramify/api/tree/node";
import { listOperations } from "@ramify/api/http";
import { httpProjection } from "@ramify/api/http/dx";
import { type CliIo, runCli } from "@ramify/api/cli";
import { memoryIo } from "./cli_io.ts";
import type { Step } from "./agreement.ts";

/** Bytes as a surface gave them: their media type (absent where it carries none) and their octets. */
export interface SeenBytes {
  readonly type?: string;
  readonly bytes: readonly number[];
}

/** A failed call: the status the surface answered with, and its text. */
class Refused extends Error {
  constructor(readonly status: number, text: string) {
    super(text);
  }
}

/** A Blob as the table compares it. */
export async function seenBlob(blob: Blob): Promise<SeenBytes> {
  return { type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] };
}

/** A value as the table compares it: bytes read, a stream's items gathered. */
export async function seen(value: unknown): Promise<unknown> {
  if (value instanceof Blob) return await seenBlob(value);
  if (typeof value === "object" && value !== null && Symbol.asyncIterator in value) {
    const items: unknown[] = [];
    for await (const item of value as AsyncIterable<unknown>) items.push(item);
    return items;
  }
  return value;
}

/** How raw HTTP sends a body without files (a body with files is always multipart). */
export type Encoding = "json" | "urlencoded" | "multipart";

/**
 * Calls with `fetch` as curl would: the method and path from the route, the
 * input in the query (GET) or the body as `encoding` says (see `textOf`).
 * Reads the answer by its media type: JSON, Server-Sent
 * Events (the items), anything else bytes with its Content-Type.
 */
export function rawHttpCall(
  base: string,
  root: Node,
  encoding: Encoding,
): (steps: readonly Step[], input?: Record<string, unknown>) => Promise<unknown> {
  const operations = listOperations(httpProjection(root));
  return async (steps, input = {}) => {
    const names = steps.map((step) => typeof step === "string" ? step : step[0]);
    const operation = operations.find((o) =>
      o.steps.map((s) => s.name).join("/") === names.join("/")
    )!;
    let path = operation.path;
    for (const step of steps) {
      if (typeof step !== "string") {
        path = path.replace(`{${step[0]}}`, encodeURIComponent(step[1]));
      }
    }
    // An array is its key repeated, an object its JSON, as a form and a query string have them.
    const fields = Object.entries(input).flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map((item) => [key, textOf(item)] as const)
    );
    const init: RequestInit = { method: operation.method };
    if (operation.method === "GET") {
      const query = new URLSearchParams(fields.map(([key, value]) => [key, value as string]));
      if (fields.length > 0) path += `?${query}`;
    } else if (encoding === "multipart" || fields.some(([, value]) => value instanceof Blob)) {
      const form = new FormData();
      for (const [key, value] of fields) form.append(key, value);
      init.body = form;
    } else if (encoding === "urlencoded") {
      init.body = new URLSearchParams(fields.map(([key, value]) => [key, value as string]));
    } else {
      init.body = JSON.stringify(input);
      init.headers = { "content-type": "application/json" };
    }
    const response = await fetch(`${base}${path}`, init);
    if (!response.ok) throw new Refused(response.status, await response.text());
    const type = response.headers.get("content-type") ?? "";
    if (type.startsWith("text/event-stream")) return eventsOf(await response.text());
    if (type.startsWith("application/json")) return await response.json();
    const bytes = new Uint8Array(await response.arrayBuffer());
    const length = response.headers.get("content-length");
    if (length !== null) assert.equal(Number(length), bytes.length, "Content-Length");
    return { type, bytes: [...bytes] } satisfies SeenBytes;
  };
}

/** A field's text: a date's date-time string, an object's JSON; a file stays a file. */
function textOf(value: unknown): string | Blob {
  if (value instanceof Blob) return value;
  if (value instanceof Date) return value.toISOString();
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** The items of a finished Server-Sent Events body; an `error` event throws its problem. */
function eventsOf(text: string): unknown[] {
  const items: unknown[] = [];
  for (const block of text.split("\n\n")) {
    const data = block.split("\n").filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart()).join("\n");
    if (data === "") continue;
    if (/^event: ?error$/m.test(block)) {
      throw new Refused(JSON.parse(data).status, data);
    }
    items.push(JSON.parse(data));
  }
  return items;
}

/** What the MCP SDK's client gives back for a call. */
interface McpLike {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{
    content?: unknown;
    structuredContent?: unknown;
    isError?: boolean;
  }>;
}

type Block =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | {
    type: "resource";
    resource: { mimeType: string; blob: string } | { mimeType: string; text: string };
  };

/**
 * Calls a tool as an agent would: the child steps joined with ".", captures
 * and input as JSON arguments (a date as its date-time string). JSON text is
 * parsed, and must equal the structured content, which is there exactly when
 * `structured` (the leaf has an output schema); bytes are image content when
 * they are an image, else an embedded blob resource.
 */
export function mcpValueCall(
  client: McpLike,
): (
  steps: readonly Step[],
  input?: Record<string, unknown>,
  structured?: boolean,
) => Promise<unknown> {
  return async (steps, input = {}, structured = false) => {
    const names = steps.filter((step) => typeof step === "string");
    const captures = steps.filter((step) => typeof step !== "string");
    const result = await client.callTool({
      name: names.join("."),
      arguments: JSON.parse(JSON.stringify({ ...input, ...Object.fromEntries(captures) })),
    });
    const [block] = result.content as Block[];
    if (result.isError === true) {
      const text = (block as { text: string }).text;
      throw new Refused(Number(/^(\d{3}) /.exec(text)?.[1]), text);
    }
    if (block.type === "text") {
      const value = valueOfText(block.text);
      assert.equal(result.structuredContent !== undefined, structured, "structuredContent");
      if (structured) {
        // A value that is no object is wrapped as `{ result }`, as MCP asks (docs/tools.md).
        const wrapped = typeof value === "object" && value !== null && !Array.isArray(value)
          ? value
          : { result: value };
        assert.deepEqual(result.structuredContent, wrapped, "structuredContent is the text's");
      }
      return value;
    }
    const [type, base64] = block.type === "image"
      ? [block.mimeType, block.data]
      : "text" in block.resource
      ? [block.resource.mimeType, btoaText(block.resource.text)]
      : [block.resource.mimeType, block.resource.blob];
    assert.equal(block.type === "image", type.startsWith("image/"), `${type} as ${block.type}`);
    return { type, bytes: [...atob(base64)].map((char) => char.charCodeAt(0)) } satisfies SeenBytes;
  };
}

/**
 * A text block's value: a string result is its own text (docs/tools.md), any
 * other value its JSON; text that is no JSON is the string (the trees here
 * return no string that reads as JSON).
 */
function valueOfText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A text resource's bytes as base64, as a blob would carry them. */
function btoaText(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * Calls through the command line with a flag per input key (`--at
 * 2026-05-01T12:30:00.000Z`; an array's flag repeated, an object as JSON, a
 * file as `--file dot.png` over a file the io holds), in process or with
 * `--url`. Read back as `read` says: bytes from `--output` (raw, without a
 * media type: a file has none), one JSON value, or a stream's JSON lines as
 * an array.
 */
export function cliFlagsCall(
  root: Node,
  url?: string,
): (
  steps: readonly Step[],
  input: Record<string, unknown>,
  read: "json" | "lines" | "bytes",
) => Promise<unknown> {
  return async (steps, input, read) => {
    const files: Record<string, Uint8Array> = {};
    const argv = steps.map((step) => typeof step === "string" ? step : step[1]);
    for (const [key, value] of Object.entries(input)) {
      // An array is its flag repeated.
      for (const item of Array.isArray(value) ? value : [value]) {
        let text = textOf(item);
        if (text instanceof Blob) {
          text = item instanceof File ? item.name : "blob";
          files[text] = new Uint8Array(await (item as Blob).arrayBuffer());
        }
        argv.push(`--${key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}`, text);
      }
    }
    const memory = memoryIo({ files });
    const written = new Map<string, Uint8Array>();
    const io: CliIo = {
      ...memory,
      writeFile: async (path, body) => void written.set(path, await new Response(body).bytes()),
    };
    const args = [...argv, ...(read === "bytes" ? ["--output", "out.bin"] : []), "--yes"];
    const code = await runCli(root, url === undefined ? args : ["--url", url, ...args], { io });
    const stderr = memory.stderr.join("");
    if (code !== 0) throw new Refused(Number(/^error: (\d{3}) /.exec(stderr)?.[1]), stderr);
    assert.equal(stderr, "", "nothing on standard error");
    if (read === "bytes") {
      const file = written.get("out.bin");
      assert.ok(file !== undefined, "--output wrote the file");
      return { bytes: [...file] } satisfies SeenBytes;
    }
    const lines = memory.stdout.join("").split("\n").filter((line) => line !== "");
    return read === "json" ? JSON.parse(lines.join("\n")) : lines.map((line) => JSON.parse(line));
  };
}
