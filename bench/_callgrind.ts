// What callgrind counted: the instructions of every thread's output file in
// `dir` (one `summary:` line each), summed.

/** The instructions callgrind wrote into `dir`, all threads together. */
export async function countedInstructions(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const text = await Deno.readTextFile(`${dir}/${entry.name}`);
    const summary = /^summary: (\d+)$/m.exec(text);
    if (summary !== null) total += Number(summary[1]);
  }
  return total;
}
