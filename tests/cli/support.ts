// The CLI tests' io: what was written, a scripted terminal and standard input.
import type { CliIo } from "@ramify/api/cli";

export interface MemoryIo extends CliIo {
  readonly stdout: string[];
  readonly stderr: string[];
  readonly prompts: string[];
}

export function memoryIo(
  opts: { terminal?: boolean; answer?: string; stdin?: string; files?: Record<string, string> } =
    {},
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
      const text = opts.files?.[path];
      return text === undefined
        ? Promise.reject(new Error(`no file ${path}`))
        : Promise.resolve(new TextEncoder().encode(text));
    },
  };
}
