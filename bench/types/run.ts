// Type-check cost of one API written three ways, with the same compiler (tsc
// 5.9 from npm, or the range in `RAMIFY_TYPESCRIPT`: `~7.0.0` runs the native
// compiler single-threaded) and the same zod schemas: ramify (a tree consumed
// through `createClient`), oRPC (a router and its `RouterClient`) and tRPC v11
// (a router and its proxy client), plus the schemas alone as the floor (see
// `_programs.ts` for the shape). Each check is a fresh `tsc --noEmit
// --extendedDiagnostics`; the programs run round-robin, the order rotating
// every round; medians. "check" is the compiler's wall-clock check time;
// "compiler CPU" the whole process's user + system time (parse and GC threads
// included), which other tenants of a shared machine disturb less. Then
// ramify's growth: floor and ramify at 1,000, `ops` and 10,000 operations.
//   deno run -A bench/types/run.ts [ops=3000] [rounds=5] [growthRounds=3]
//   RAMIFY_TYPESCRIPT=~7.0.0 deno run -A bench/types/run.ts 3000 5 1
// The npm project lives in `RAMIFY_TYPES_CACHE` (default
// ~/.cache/ramify/bench-types); ramify's types are its npm build (`npm/`,
// rebuilt when older than the sources, or `RAMIFY_NPM_DIR`). With
// `RAMIFY_NPM_BASELINE=<another build's folder>` the same ramify program also
// runs over that build, interleaved with the others, to measure a change.

import { baselineProgram, type Program, programs, ramifyProgram } from "./_programs.ts";
import { baselineDir, prepare, versions, writeProgram } from "./_setup.ts";
import { type Check, check } from "./_tsc.ts";

const ops = Number(Deno.args[0] ?? 3_000);
const rounds = Number(Deno.args[1] ?? 5);
const growthRounds = Number(Deno.args[2] ?? 3);

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Medians of each figure over a program's runs. */
function medians(runs: readonly Check[]): Check {
  const of = (key: keyof Check) => median(runs.map((run) => run[key]));
  return {
    check: of("check"),
    cpu: of("cpu"),
    total: of("total"),
    instantiations: of("instantiations"),
    types: of("types"),
    memory: of("memory"),
  };
}

/** Runs each program `times` times, round-robin, the first program rotating each round. */
async function interleaved(
  size: number,
  list: readonly Program[],
  times: number,
): Promise<Map<string, Check>> {
  const configs = new Map<string, string>();
  for (const program of list) configs.set(program.name, await writeProgram(size, program));
  const runs = new Map<string, Check[]>(list.map((program) => [program.name, []]));
  for (let round = 0; round < times; round++) {
    const order = list.map((_, index) => list[(index + round) % list.length]);
    for (const program of order) {
      const result = await check(configs.get(program.name)!);
      runs.get(program.name)!.push(result);
      console.error(
        `  ${size} ops, round ${round + 1}/${times}: ${program.name} check ${
          result.check.toFixed(2)
        } s, CPU ${result.cpu.toFixed(2)} s`,
      );
    }
  }
  return new Map([...runs].map(([name, list]) => [name, medians(list)]));
}

const count = (value: number) => value.toLocaleString("en-US");
const kilo = (value: number) => `${count(Math.round(value / 1000))} k`;
const seconds = (value: number) => `${value.toFixed(2)} s`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;

function table(results: Map<string, Check>): string {
  return [
    row(["program", "check", "compiler CPU", "total", "instantiations", "types", "memory"]),
    row(["---------", "----:", "-----------:", "----:", "-------------:", "----:", "-----:"]),
    ...[...results].map(([name, m]) =>
      row([
        name,
        seconds(m.check),
        seconds(m.cpu),
        seconds(m.total),
        kilo(m.instantiations),
        kilo(m.types),
        `${m.memory.toFixed(0)} MB`,
      ])
    ),
  ].join("\n");
}

await prepare();
console.log(
  `${await versions()}; ${navigator.hardwareConcurrency} CPUs; ${new Date().toISOString()}`,
);
console.log(`\n${count(ops)} operations, median of ${rounds} interleaved runs:\n`);
const baseline = baselineDir();
if (baseline !== undefined) console.log(`ramify baseline: ${baseline}`);
const main = await interleaved(
  ops,
  baseline === undefined ? programs(ops) : [...programs(ops), baselineProgram(ops)],
  rounds,
);
console.log(table(main));
const [ramify, orpc, trpc, floor, before] = [
  "ramify",
  "oRPC",
  "tRPC",
  "zod floor",
  "ramify baseline",
].map((name) => main.get(name)!);
const others = [["oRPC", orpc], ["tRPC", trpc]] as [string, Check][];
if (before !== undefined) others.push(["ramify baseline", before]);
for (const [name, other] of others) {
  console.log(
    `ramify / ${name}: check ${ratio(ramify.check, other.check)}, compiler CPU ${
      ratio(ramify.cpu, other.cpu)
    }, instantiations ${ratio(ramify.instantiations, other.instantiations)}, types ${
      ratio(ramify.types, other.types)
    }, memory ${ratio(ramify.memory, other.memory)}; above the floor: check ${
      ratio(ramify.check - floor.check, other.check - floor.check)
    }, compiler CPU ${ratio(ramify.cpu - floor.cpu, other.cpu - floor.cpu)}`,
  );
}

// Linear growth: each 1,000 operations added costs what the previous ones did.
const sizes = [1_000, ops, 10_000].filter((size, index, all) => all.indexOf(size) === index)
  .sort((a, b) => a - b);
console.log(`\nramify's growth (median of ${growthRounds}; the ${count(ops)} row from above):\n`);
console.log(row([
  "operations",
  "check",
  "compiler CPU",
  "instantiations",
  "types",
  "CPU per 1,000 ops added",
  "instantiations per op added",
  "instantiations per op above the floor",
]));
console.log(row(["-:", "-:", "-:", "-:", "-:", "-:", "-:", "-:"]));
let previous: { size: number; lib: Check } | undefined;
for (const size of sizes) {
  const both = size === ops
    ? main
    : await interleaved(size, [programs(size)[0], ramifyProgram(size)], growthRounds);
  const [lib, zod] = [both.get("ramify")!, both.get("zod floor")!];
  const added = previous === undefined ? undefined : size - previous.size;
  console.log(row([
    count(size),
    seconds(lib.check),
    seconds(lib.cpu),
    kilo(lib.instantiations),
    kilo(lib.types),
    added === undefined ? "–" : seconds((lib.cpu - previous!.lib.cpu) / (added / 1000)),
    added === undefined
      ? "–"
      : ((lib.instantiations - previous!.lib.instantiations) / added).toFixed(0),
    ((lib.instantiations - zod.instantiations) / size).toFixed(0),
  ]));
  previous = { size, lib };
}
