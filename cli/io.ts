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
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline/promises";

/**
 * The command line's input and output.
 *
 * @example
 * ```ts
 * import type { CliIo } from "@ramify/api/cli";
 *
 * const lines: string[] = [];
 * const io: CliIo = {
 *   out: (text) => void lines.push(text),
 *   err: (text) => void lines.push(text),
 *   stdinIsTerminal: false,
 *   stdoutIsTerminal: false,
 *   prompt: () => Promise.resolve(undefined),
 *   readStdin: () => Promise.resolve(""),
 *   readFile: () => Promise.resolve(new Uint8Array()),
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
  /** Asks a question and reads one line; `undefined` when input ends first. */
  prompt(question: string): Promise<string | undefined>;
  /** All of standard input, as text. */
  readStdin(): Promise<string>;
  /** A file's bytes. */
  readFile(path: string): Promise<Uint8Array>;
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
      let text = "";
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    readFile: (path) => readFile(path),
  };
}
