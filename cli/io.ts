/**
 * What the command line reads and writes, as one small interface, so that a
 * test (or an embedding program) can give its own; the default speaks to this
 * process's stdio through `node:` modules, which Deno, Node and Bun all have.
 *
 * @example
 * ```ts
 * import { processIo } from "@ramify/api/cli";
 *
 * const io = processIo();
 * io.out("hello\n");
 * ```
 *
 * @module
 */

import process from "node:process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline/promises";
import { byteChunks } from "../tree/bytes.ts";
import { utf8Text } from "../tree/utf8.ts";

/**
 * The command line's input and output.
 *
 * @example
 * ```ts
 * import type { CliIo } from "@ramify/api/cli";
 *
 * const lines: string[] = [];
 * const chunks: Uint8Array[] = [];
 * const io: CliIo = {
 *   out: (text) => void lines.push(text),
 *   err: (text) => void lines.push(text),
 *   stdinIsTerminal: false,
 *   stdoutIsTerminal: false,
 *   prompt: () => Promise.resolve(undefined),
 *   readStdin: () => Promise.resolve(""),
 *   readFile: () => Promise.resolve(new Uint8Array()),
 *   outBytes: (chunk) => Promise.resolve(void chunks.push(chunk)),
 *   writeFile: async (_path, body) => void chunks.push(await new Response(body).bytes()),
 * };
 * ```
 */
export interface CliIo {
  /** Writes to standard output. */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** Whether a person can answer a prompt. */
  readonly stdinIsTerminal: boolean;
  /** Whether output is read by a person (pretty JSON) or a program (one line). */
  readonly stdoutIsTerminal: boolean;
  /**
   * Whether standard error is a terminal: a task's progress is a bar redrawn
   * in place there, a line per change otherwise. Default `stdoutIsTerminal`.
   */
  readonly stderrIsTerminal?: boolean;
  /** Asks a question and reads one line; `undefined` when input ends first. */
  prompt(question: string): Promise<string | undefined>;
  /** All of standard input, as text; rejects when it is not UTF-8. */
  readStdin(): Promise<string>;
  /** A file's bytes. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Writes bytes to standard output (a binary result, written as it comes).
   * Optional for an io written before results could be bytes: without it such
   * a result fails the command.
   */
  outBytes?(chunk: Uint8Array): Promise<void>;
  /**
   * Writes a file (`--output`), replacing it; a body that fails midway leaves
   * no file behind. Optional as `outBytes` is: without it `--output` fails.
   */
  writeFile?(path: string, body: ReadableStream<Uint8Array>): Promise<void>;
}

/**
 * The process's own standard streams.
 *
 * @example
 * ```ts
 * import { processIo } from "@ramify/api/cli";
 *
 * console.log(typeof processIo().stdinIsTerminal); // "boolean"
 * ```
 */
export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stdinIsTerminal: process.stdin.isTTY === true,
    stdoutIsTerminal: process.stdout.isTTY === true,
    stderrIsTerminal: process.stderr.isTTY === true,
    async prompt(question) {
      const lines = createInterface({ input: process.stdin, output: process.stderr });
      const ended = new Promise<undefined>((resolve) =>
        lines.once("close", () => resolve(undefined))
      );
      try {
        return await Promise.race([lines.question(question), ended]);
      } finally {
        lines.close();
      }
    },
    async readStdin() {
      // Bytes first, decoded once: a character split between two chunks stays
      // whole, and bytes that are not UTF-8 are refused as on every surface.
      const chunks: BlobPart[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk);
      const text = utf8Text(new Uint8Array(await new Blob(chunks).arrayBuffer()));
      if (text === undefined) throw new TypeError("standard input is not valid UTF-8");
      return text;
    },
    readFile: (path) => readFile(path),
    // Resolves once the chunk is handed to the system: a large result waits for a slow reader.
    outBytes: (chunk) =>
      new Promise((resolve, reject) =>
        void process.stdout.write(chunk, (error) => error ? reject(error) : resolve())
      ),
    async writeFile(path, body) {
      try {
        await writeFile(path, byteChunks(body));
      } catch (error) {
        // A broken download must not pass for a whole one.
        await rm(path, { force: true });
        throw error;
      }
    },
  };
}
