// Build at scale: import + build + first GET + first POST, each sample in a
// fresh process, ramify and Hono interleaved, at 1,000 and 10,000 operations;
// then the OpenAPI document and the GraphQL SDL of the 10,000-operation tree.
// Prints medians and ratios (ramify / Hono: below 1 is faster).
//   deno run -A bench/start/build.ts [rounds=7]
import { median, ms, sample } from "./_runs.ts";

interface Phases {
  readonly import: number;
  readonly build: number;
  readonly get: number;
  readonly post: number;
  readonly total: number;
}

const rounds = Number(Deno.args[0] ?? 7);
const CONTENDERS = ["ramify", "hono"] as const;

for (const leaves of [1_000, 10_000]) {
  const samples: Record<string, Phases[]> = { ramify: [], hono: [] };
  for (let round = 0; round < rounds; round++) {
    // Who goes first alternates, so neither always meets a warmer machine.
    const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    for (const contender of order) {
      samples[contender].push(
        await sample<Phases>("./_build_child.ts", [contender, String(leaves)]),
      );
    }
  }
  console.log(`\n${leaves.toLocaleString("en")} operations, median of ${rounds}:`);
  for (const contender of CONTENDERS) {
    const of = (phase: keyof Phases) => median(samples[contender].map((s) => s[phase]));
    console.log(
      `  ${contender.padEnd(7)} import ${ms(of("import"))}, build ${ms(of("build"))}, ` +
        `first GET ${ms(of("get"))}, first POST ${ms(of("post"))}, total ${ms(of("total"))}`,
    );
  }
  const total = (contender: string) => median(samples[contender].map((s) => s.total));
  console.log(`  ramify / hono: ${(total("ramify") / total("hono")).toFixed(2)}x`);
}

const documents = [];
for (let round = 0; round < rounds; round++) {
  documents.push(
    await sample<{ openapi: number; sdl: number }>("./_documents_child.ts", ["10000"]),
  );
}
const openapi = median(documents.map((d) => d.openapi));
const sdl = median(documents.map((d) => d.sdl));
console.log(
  `\nDocuments of 10,000 operations, median of ${rounds}: toOpenApi ${ms(openapi)}, ` +
    `toSDL ${ms(sdl)}, together ${ms(openapi + sdl)} (goal: under 250 ms)`,
);
