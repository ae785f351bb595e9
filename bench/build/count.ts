/**
 * Build and start cost of one tree, before and now, in instructions: a
 * generated tree of N leaves (_child.ts: nested `api()` branches, `op()`
 * leaves with zod inputs and outputs, tags, two levels of captures) built and
 * projected onto every surface at 1,000 and 10,000 leaves, and `serve()`
 * started at 1,000 leaves up to its first answered GET and POST. Each sample
 * is a fresh process under valgrind's callgrind, Deno's start included; the
 * child stops after each phase and the counts are dumped there, so each phase
 * is counted alone. V8 runs single-threaded with a fixed collection schedule
 * (`--single-threaded`, `--predictable-gc-schedule`): otherwise when optimized
 * code arrives and when the collector runs follow the clock, and a phase's
 * count moved by up to 40% between processes. Medians of `runs` processes per
 * library (the 10,000-leaf build a third as many: about ten minutes a process
 * under callgrind), the libraries interleaved, after uncounted runs that fill
 * Deno's caches for both sets of V8 flags. Then the same phases by wall time
 * (no valgrind, default flags, medians of `wallRuns`), the secondary figure:
 * on a shared machine it moves by tens of percent.
 *
 *   deno run -A bench/build/count.ts [before=a69b5cc] [now=HEAD] [runs=3] [wallRuns=5]
 *     [cases=build:1000,build:10000,serve:1000]
 *
 * `before` and `now` are each a library root (a folder with the library's
 * deno.json) or a revision of this repository, exported with `git archive`
 * into a temporary folder. The child runs with that root's deno.json, so it
 * measures any commit that has the public API it uses (`api`, `op`,
 * `createFetch`, `toOpenApi`, `toSDL`, `toTools`, `runCli`, `serve`).
 * valgrind (Debian package) is installed when missing.
 *
 * @module
 */

import { callgrindControl, ensureValgrind } from "../_callgrind.ts";

const repo = new URL("../..", import.meta.url).pathname;
const child = new URL("./_child.ts", import.meta.url).pathname;
const [beforeArg = "a69b5cc", nowArg = "HEAD", runsArg = "3", wallRunsArg = "5", casesArg] =
  Deno.args;
const runs = Number(runsArg);
const wallRuns = Number(wallRunsArg);
const CASES = ([
  ["build", 1_000, runs],
  ["build", 10_000, Math.ceil(runs / 3)],
  ["serve", 1_000, runs],
] as const).filter(([mode, leaves]) =>
  casesArg === undefined || casesArg.split(",").includes(`${mode}:${leaves}`)
);
const COUNTED_FLAGS = ["--v8-flags=--single-threaded,--predictable-gc-schedule"];

type Phases = Record<string, number>;

/** A library root: the folder given, or the revision exported into a temporary one. */
async function rootOf(given: string, temporary: string[]): Promise<string> {
  const path = given.startsWith("/") ? given : `${Deno.cwd()}/${given}`;
  if ((await Deno.stat(`${path}/deno.json`).catch(() => undefined))?.isFile) return path;
  const commit = await new Deno.Command("git", {
    args: ["-C", repo, "rev-parse", "--short", given],
    stdout: "piped",
  }).output();
  const dir = await Deno.makeTempDir({
    prefix: `ramify-build-${new TextDecoder().decode(commit.stdout).trim()}-`,
  });
  temporary.push(dir);
  const archive = new Deno.Command("git", {
    args: ["-C", repo, "archive", "--format=tar", given],
    stdout: "piped",
  }).spawn();
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(untar.stdin);
  if (!(await archive.status).success || !(await untar.status).success) {
    throw new Error(`${given} is neither a library root nor a revision of ${repo}`);
  }
  return dir;
}

/**
 * Runs the child for one case, answering each `phase` line after `atPhase`
 * ran; gives the phases' names in order and the child's wall times.
 */
async function runChild(
  command: readonly string[],
  atPhase: (pid: number) => Promise<void>,
): Promise<{ names: string[]; wall: Phases }> {
  const spawned = new Deno.Command(command[0], {
    args: command.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdin = spawned.stdin.getWriter();
  const names: string[] = [];
  let last = "";
  let pending = "";
  for await (const text of spawned.stdout.pipeThrough(new TextDecoderStream())) {
    pending += text;
    let end;
    while ((end = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.startsWith("phase ")) {
        names.push(line.slice(6));
        await atPhase(spawned.pid);
        await stdin.write(new TextEncoder().encode("\n"));
      } else if (line !== "") last = line;
    }
  }
  const { success } = await spawned.status;
  const errors = new TextDecoder().decode(await new Response(spawned.stderr).arrayBuffer());
  if (!success) throw new Error(`${command.join(" ")} failed:\n${errors}`);
  await stdin.close().catch(() => {});
  return { names, wall: JSON.parse(last) };
}

const childArgs = (root: string, mode: string, leaves: number, flags: string[] = []) => [
  Deno.execPath(),
  "run",
  "-A",
  `--config=${root}/deno.json`,
  ...flags,
  child,
  mode,
  String(leaves),
];

/** One process under callgrind: the instructions of each phase, all threads. */
async function counted(root: string, mode: string, leaves: number): Promise<Phases> {
  const dir = await Deno.makeTempDir();
  try {
    const command = childArgs(root, mode, leaves, COUNTED_FLAGS);
    const { names } = await runChild(
      ["valgrind", "--tool=callgrind", `--callgrind-out-file=${dir}/out`, ...command],
      // A dump zeroes the counts: each dump holds the phase just ended.
      (pid) => callgrindControl(pid, "-d"),
    );
    const parts = new Map<number, number>();
    for await (const entry of Deno.readDir(dir)) {
      const text = await Deno.readTextFile(`${dir}/${entry.name}`);
      const part = /^part: (\d+)$/m.exec(text);
      const summary = /^summary: (\d+)$/m.exec(text);
      if (part !== null && summary !== null) parts.set(Number(part[1]), Number(summary[1]));
    }
    // The last part is the exit, after the last phase: not counted.
    return Object.fromEntries(names.map((name, index) => [name, parts.get(index + 1)!]));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** One process without valgrind: the wall time of each phase, in ms. */
async function timed(
  root: string,
  mode: string,
  leaves: number,
  flags?: string[],
): Promise<Phases> {
  return (await runChild(childArgs(root, mode, leaves, flags), () => Promise.resolve())).wall;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const totalOf = (sample: Phases) => Object.values(sample).reduce((sum, value) => sum + value);

/** Each phase's median and the median of the totals, over samples of one library. */
function medians(samples: readonly Phases[]): Phases {
  const names = Object.keys(samples[0]);
  return {
    ...Object.fromEntries(names.map((name) => [name, median(samples.map((s) => s[name]))])),
    total: median(samples.map(totalOf)),
  };
}

/** `times` samples of each library, interleaved, the first alternating each round. */
async function interleaved(
  roots: readonly string[],
  times: number,
  sample: (root: string) => Promise<Phases>,
): Promise<Phases[][]> {
  const samples: Phases[][] = roots.map(() => []);
  for (let round = 0; round < times; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) samples[index].push(await sample(roots[index]));
  }
  return samples;
}

const millions = (value: number) => `${(value / 1e6).toFixed(1)} M`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (now: number, before: number) => `${(now / before).toFixed(2)}x`;

await ensureValgrind();
const temporary: string[] = [];
try {
  const roots = [await rootOf(beforeArg, temporary), await rootOf(nowArg, temporary)];
  console.log(`before: ${beforeArg} (${roots[0]}); now: ${nowArg} (${roots[1]})`);
  console.log(
    `callgrind medians of ${runs}, wall medians of ${wallRuns}; ${new Date().toISOString()}`,
  );
  for (const [mode, leaves, times] of CASES) {
    for (const root of roots) {
      await timed(root, mode, leaves, COUNTED_FLAGS);
      await timed(root, mode, leaves);
    }
    const counts = await interleaved(roots, times, (root) => counted(root, mode, leaves));
    const [countBefore, countNow] = counts.map(medians);
    const [wallBefore, wallNow] = (await interleaved(
      roots,
      wallRuns,
      (root) => timed(root, mode, leaves),
    )).map(medians);
    const totals = counts.map((samples) => samples.map((s) => millions(totalOf(s))).join(", "));
    console.log(
      `\n${mode}, ${leaves.toLocaleString("en-US")} leaves (counted totals: before ${
        totals[0]
      }; now ${totals[1]}):\n`,
    );
    console.log(
      "| phase | instructions before | now | now / before | wall before | now | now / before |",
    );
    console.log("| --- | --: | --: | --: | --: | --: | --: |");
    for (const name of Object.keys(countNow)) {
      console.log(
        `| ${name} | ${millions(countBefore[name])} | ${millions(countNow[name])} | ${
          ratio(countNow[name], countBefore[name])
        } | ${ms(wallBefore[name])} | ${ms(wallNow[name])} | ${
          ratio(wallNow[name], wallBefore[name])
        } |`,
      );
    }
  }
} finally {
  for (const dir of temporary) await Deno.remove(dir, { recursive: true });
}
