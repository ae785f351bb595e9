// The OpenAPI document and the GraphQL SDL at 1,000, 10,000 and 20,000
// operations (the tree of _ramify_tree.ts): each sample a fresh process timed
// after a warm-up (_documents_child.ts), sizes interleaved, medians of wall
// and of CPU time (the process's, collector included: steadier on a busy
// machine), and the cost per operation, which should stay flat as trees grow.
//   deno run -A bench/start/documents.ts [rounds=5]
import { median, ms, sample } from "./_runs.ts";

const rounds = Number(Deno.args[0] ?? 5);
const SIZES = [1_000, 10_000, 20_000];

interface Sample {
  readonly openapi: number;
  readonly sdl: number;
  readonly openapiCpu: number;
  readonly sdlCpu: number;
}

const samples = new Map<number, Sample[]>(SIZES.map((n) => [n, []]));
for (let round = 0; round < rounds; round++) {
  for (const leaves of SIZES) {
    samples.get(leaves)!.push(
      await sample<Sample>("./_documents_child.ts", [String(leaves)]),
    );
  }
}
const perLeaf = (total: number, leaves: number) => `${(total * 1000 / leaves).toFixed(1)} µs`;
console.log(`Documents, median of ${rounds} (fresh process each, after a warm-up):`);
for (
  const [label, openapiOf, sdlOf] of [
    ["wall", (s: Sample) => s.openapi, (s: Sample) => s.sdl],
    ["CPU ", (s: Sample) => s.openapiCpu, (s: Sample) => s.sdlCpu],
  ] as const
) {
  for (const leaves of SIZES) {
    const openapi = median(samples.get(leaves)!.map(openapiOf));
    const sdl = median(samples.get(leaves)!.map(sdlOf));
    console.log(
      `  ${label} ${leaves.toLocaleString("en").padStart(6)} operations: toOpenApi ${
        ms(openapi)
      } ` +
        `(${perLeaf(openapi, leaves)}/op), toSDL ${ms(sdl)} (${perLeaf(sdl, leaves)}/op), ` +
        `together ${ms(openapi + sdl)} (${perLeaf(openapi + sdl, leaves)}/op)`,
    );
  }
}
