// What the start-up comparisons share: a fresh Deno process per sample,
// contenders interleaved, medians.

/** The median of the samples. */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs a module of this folder in a fresh process and parses the JSON line it prints. */
export async function sample<T>(module: string, args: readonly string[]): Promise<T> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(module, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(result.stdout).trim().split("\n").at(-1) ?? "";
  if (!result.success) {
    throw new Error(`${module} ${args.join(" ")}: ${new TextDecoder().decode(result.stderr)}`);
  }
  return JSON.parse(text) as T;
}

/** `ms` with one decimal. */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
