// A command's result on standard output, or in the file `--output` names:
// JSON (indented for a person, one line for a program), a stream of items as
// JSON lines as they come, a `Response`'s text, and bytes as they are
// (tree/result_kind.ts decides which kind a result is, as on every surface;
// tree/bytes.ts which `Response` is bytes).
// Bytes never go to a terminal: they would garble it, so the command fails
// naming `--output` instead.

import { byteChunks, type Bytes, bytesOf, responseBytes } from "../tree/bytes.ts";
import { Cancelled } from "../tree/failure.ts";
import { type ResultKind, resultKindOf } from "../tree/result_kind.ts";
import { StreamEvent, StreamGap } from "../tree/stream_events.ts";
import type { CliIo } from "./io.ts";

/** How the result is written. */
export interface OutputOptions {
  /** `--json`: one line even on a terminal. */
  readonly compact: boolean;
  /** `--output`: the file to write instead of standard output. */
  readonly file: string | undefined;
  /** Stops pulling a stream once the command is cancelled. */
  readonly signal: AbortSignal | undefined;
}

/** Bytes refused on a terminal; the command fails with exit code 1 and this line. */
export class BinaryToTerminal extends Error {
  constructor(type: string, size: number | undefined) {
    super(
      `the result is binary (${type}${
        size === undefined ? "" : `, ${size} bytes`
      }); pass --output <file> to write it, or pipe standard output`,
    );
    this.name = "BinaryToTerminal";
  }
}

/** Writes the result where it goes; a stream failing midway throws after what came before. */
export async function writeResult(result: unknown, io: CliIo, opts: OutputOptions): Promise<void> {
  const kind = resultKindOf(result);
  if (opts.file !== undefined) {
    const body = bodyOf(result, kind, opts, io);
    if (body !== undefined) await writerOf(io, "writeFile")(opts.file, body);
    return;
  }
  const bytes = bytesIn(result, kind);
  if (bytes !== undefined) {
    if (io.stdoutIsTerminal) {
      if (bytes.body instanceof ReadableStream) await bytes.body.cancel().catch(() => {});
      throw new BinaryToTerminal(bytes.type, bytes.size);
    }
    const write = writerOf(io, "outBytes");
    for await (const chunk of chunksOf(bytes.body, opts.signal)) await write(chunk);
    return;
  }
  if (kind === "stream") {
    for await (const line of linesOf(result as AsyncIterable<unknown>, opts.signal, io)) {
      io.out(line);
    }
    return;
  }
  const text = await textOf(result, kind, io.stdoutIsTerminal && !opts.compact);
  if (text !== undefined) io.out(text);
}

/** The whole output as bytes, for a file: bytes as they are, the rest as it would print when piped. */
function bodyOf(
  result: unknown,
  kind: ResultKind,
  opts: OutputOptions,
  io: CliIo,
): ReadableStream<Uint8Array> | undefined {
  const bytes = bytesIn(result, kind);
  if (bytes !== undefined) return streamOf(chunksOf(bytes.body, opts.signal));
  if (kind === "stream") {
    return streamOf(encoded(linesOf(result as AsyncIterable<unknown>, opts.signal, io)));
  }
  // Built lazily, so a failure reading a Response surfaces where the file is written.
  return kind === "none" ? undefined : streamOf(encoded(once(result, kind)));
}

/** Bytes, or a `Response` whose media type is not text (or missing), read as bytes. */
function bytesIn(result: unknown, kind: ResultKind): Bytes | undefined {
  if (kind === "bytes") return bytesOf(result);
  return kind === "response" ? responseBytes(result as Response) : undefined;
}

/** A stream pulled from an async generator (`ReadableStream.from` is not in every runtime's types). */
function streamOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const step = await chunks.next();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  }, { highWaterMark: 0 });
}

async function* once(result: unknown, kind: ResultKind): AsyncGenerator<string> {
  const text = await textOf(result, kind, false);
  if (text !== undefined) yield text;
}

async function* encoded(lines: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const line of lines) yield encoder.encode(line);
}

/** A stream's items as JSON lines; a gap is a warning on standard error, between them. */
async function* linesOf(items: AsyncIterable<unknown>, signal: AbortSignal | undefined, io: CliIo) {
  for await (const item of items) {
    // A cancelled command stops pulling; leaving the loop ends the stream.
    if (signal?.aborted === true) throw new Cancelled(signal.reason);
    if (item instanceof StreamGap) {
      io.err(`warning: ${item.notice().message}`);
      continue;
    }
    const value = item instanceof StreamEvent ? item.value : item;
    yield `${JSON.stringify(value) ?? "null"}\n`;
  }
}

async function* chunksOf(
  body: Blob | ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of byteChunks(body)) {
    if (signal?.aborted === true) throw new Cancelled(signal.reason);
    yield chunk;
  }
}

async function textOf(
  result: unknown,
  kind: ResultKind,
  pretty: boolean,
): Promise<string | undefined> {
  if (kind === "response") return await (result as Response).text();
  if (kind === "none") return undefined;
  return `${JSON.stringify(result, null, pretty ? 2 : undefined)}\n`;
}

/** An io of its own that cannot write bytes (it predates them) fails the command saying so. */
function writerOf<K extends "outBytes" | "writeFile">(io: CliIo, name: K): NonNullable<CliIo[K]> {
  const writer = io[name];
  if (writer === undefined) throw new Error(`the CLI's io has no ${name}: it cannot write bytes`);
  return writer.bind(io) as NonNullable<CliIo[K]>;
}
