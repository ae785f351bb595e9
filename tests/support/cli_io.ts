// The CLI's io in memory, for the CLI tests and the agreement suites: what was
// written, a scripted terminal, standard input and files.
import type { CliIo } from "@ramify/api/cli";

export interface MemoryIo extends CliIo {
  readonly stdout: string[];
  readonly stderr: string[];
  readonly prompts: string[];
}

export function memoryIo(
  opts: {
    terminal?: boolean;
    answer?: string;
    stdin?: string;
    files?: Record<string, string | Uint8Array>;
  } = {},
): MemoryIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const prompts: string[] = [];
  return {
    stdout,
    stderr,
    prompts,
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    stdinIsTerminal: opts.terminal ?? false,
    stdoutIsTerminal: opts.terminal ?? false,
    prompt: (question) => {
      prompts.push(question);
      return Promise.resolve(opts.answer);
    },
    readStdin: () => Promise.resolve(opts.stdin ?? ""),
    readFile: (path) => {
      const content = opts.files?.[path];
      if (content === undefined) return Promise.reject(new Error(`no file ${path}`));
      return Promise.resolve(
        typeof content === "string" ? new TextEncoder().encode(content) : content,
      );
    },
  };
}
