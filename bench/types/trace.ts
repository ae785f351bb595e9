// Where the checker spends its time on ramify's program: `tsc --generateTrace`
// over the program of `run.ts`, then `@typescript/analyze-trace` (hot spots,
// duplicate packages) and a count of the types the checker made per
// declaration in ramify's `.d.ts`, each mapped back to the library source
// through the build's declaration maps.
//   deno run -A bench/types/trace.ts [ops=3000] [traceDir] [top=25]

import { join } from "node:path";
import { ramifyProgram } from "./_programs.ts";
import { cacheDir, prepare, writeProgram } from "./_setup.ts";
import { declarationLine, sourceOf } from "./_source_map.ts";
import { check } from "./_tsc.ts";

const ops = Number(Deno.args[0] ?? 3_000);
const traceDir = Deno.args[1] ?? join(cacheDir, "trace", String(ops));
const top = Number(Deno.args[2] ?? 25);

/** A type as `types.json` records it (the fields read here). */
interface TraceType {
  readonly id: number;
  readonly symbolName?: string;
  readonly instantiatedType?: number;
  readonly firstDeclaration?: {
    readonly path: string;
    readonly start: { readonly line: number; readonly character: number };
  };
}

await prepare();
const tsconfig = await writeProgram(ops, ramifyProgram(ops));
await Deno.remove(traceDir, { recursive: true }).catch(() => {});
const figures = await check(tsconfig, ["--generateTrace", traceDir]);
console.log(`ramify, ${ops} operations, traced: ${JSON.stringify(figures)}\n${traceDir}\n`);

const analyze = join(
  cacheDir,
  "node_modules",
  "@typescript",
  "analyze-trace",
  "bin",
  "analyze-trace",
);
const { stdout } = await new Deno.Command("node", { args: [analyze, traceDir], stdout: "piped" })
  .output();
console.log(new TextDecoder().decode(stdout));

const types: TraceType[] = JSON.parse(await Deno.readTextFile(join(traceDir, "types.json")));
const byPlace = new Map<string, { count: number; names: Set<string> }>();
const packageOf = (path: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? "program";
const byPackage = new Map<string, number>();
for (const type of types) {
  const declared = type.firstDeclaration;
  if (declared === undefined) continue;
  byPackage.set(packageOf(declared.path), (byPackage.get(packageOf(declared.path)) ?? 0) + 1);
  if (!declared.path.includes("@ramify/api")) continue;
  const place = `${declared.path}:${declared.start.line}:${declared.start.character}`;
  const entry = byPlace.get(place) ?? { count: 0, names: new Set<string>() };
  entry.count++;
  if (type.symbolName !== undefined) entry.names.add(type.symbolName);
  byPlace.set(place, entry);
}
console.log(`${types.length} types; by the package declaring them:`);
for (const [name, count] of [...byPackage].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${name.padEnd(24)} ${count}`);
}
console.log(`\nramify declarations making the most types (source of the .d.ts line):`);
const ranked = [...byPlace].sort((a, b) => b[1].count - a[1].count).slice(0, top);
for (const [place, { count, names }] of ranked) {
  const [path, line, character] = place.split(":");
  const source = await sourceOf(
    path,
    await declarationLine(path, Number(line), Number(character)),
  );
  console.log(
    `  ${String(count).padStart(7)}  ${source.padEnd(36)} ${[...names].slice(0, 4).join(", ")}`,
  );
}

// The slowest type relations the trace recorded (it keeps the longer events),
// by source and target declaration.
interface TraceEvent {
  readonly name: string;
  readonly dur?: number;
  readonly args?: { readonly sourceId?: number; readonly targetId?: number };
}
const events: TraceEvent[] = JSON.parse(await Deno.readTextFile(join(traceDir, "trace.json")));
const byId = new Map(types.map((type) => [type.id, type]));
const nameOf = (id: number | undefined) => {
  const type = id === undefined ? undefined : byId.get(id);
  const declared = type?.firstDeclaration;
  const file = declared?.path.replace(/^.*node_modules\//, "").replace(/^.*\/programs\//, "");
  return `${type?.symbolName ?? "?"}${declared === undefined ? "" : ` (${file})`}`;
};
const relations = new Map<string, { count: number; ms: number }>();
for (const event of events) {
  if (event.name !== "structuredTypeRelatedTo") continue;
  const key = `${nameOf(event.args?.sourceId)} to ${nameOf(event.args?.targetId)}`;
  const entry = relations.get(key) ?? { count: 0, ms: 0 };
  entry.count++;
  entry.ms += (event.dur ?? 0) / 1000;
  relations.set(key, entry);
}
console.log(`\nslowest recorded type relations (count, total ms, source to target):`);
for (const [key, { count, ms }] of [...relations].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
  console.log(`  ${String(count).padStart(5)} ${ms.toFixed(0).padStart(6)} ms  ${key}`);
}
