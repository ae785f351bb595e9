// One run of the compiler over a program, in a fresh Node process, read from
// `--extendedDiagnostics`.

import { tscCommand } from "./_setup.ts";

/** What one check cost, as `--extendedDiagnostics` reports it. */
export interface Check {
  /** Checker time, seconds. */
  readonly check: number;
  /** CPU time of the whole compiler process (user + system), seconds. */
  readonly cpu: number;
  /** Whole compile (parse, bind, check), seconds. */
  readonly total: number;
  readonly instantiations: number;
  readonly types: number;
  /** Memory used, MB. */
  readonly memory: number;
}

function figure(output: string, label: string): number {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)(s|K)?$`, "m").exec(output);
  if (match === null) throw new Error(`no "${label}" in the compiler's output:\n${output}`);
  return Number(match[1]);
}

/** Checks the program of a tsconfig; fails with the compiler's output if it reports an error. */
export async function check(tsconfig: string, extra: readonly string[] = []): Promise<Check> {
  const [command, ...args] = tscCommand();
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args: [...args, "-p", tsconfig, "--extendedDiagnostics", ...extra],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(stdout);
  const errors = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`tsc -p ${tsconfig} failed:\n${output}${errors}`);
  return {
    check: figure(output, "Check time"),
    cpu: /^CPU time:/m.test(errors)
      ? figure(errors, "CPU time")
      : figure(errors, "CPU user") + figure(errors, "CPU system"),
    total: figure(output, "Total time"),
    instantiations: figure(output, "Instantiations"),
    types: figure(output, "Types"),
    memory: figure(output, "Memory used") / 1024,
  };
}
