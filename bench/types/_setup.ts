// The comparison's workspace: a cache folder holding an npm project (the
// TypeScript compiler and the libraries compared) with ramify's npm build
// copied in as `@ramify/api`, and the generated programs, one folder per size.

import { dirname, join, relative } from "node:path";
import { BASE_COMPILER_OPTIONS } from "../../scripts/npm_build/compiler_options.ts";
import { BASELINE_PACKAGE, type Program } from "./_programs.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** The compiler's npm range: `RAMIFY_TYPESCRIPT`, else TypeScript 5.9. */
const TYPESCRIPT = Deno.env.get("RAMIFY_TYPESCRIPT") ?? "~5.9.0";

/**
 * From 7 on, the `typescript` package is a native (Go) compiler that Node
 * only launches: it is run single-threaded, as 5.9 checks, so that its CPU
 * time compares, and that time is read from outside (`/usr/bin/time`).
 */
const NATIVE = Number(/\d+/.exec(TYPESCRIPT)?.[0]) >= 7;

/** The packages the programs compile against; ramify's come from its npm build. */
const PACKAGE = {
  private: true,
  type: "module",
  dependencies: {
    typescript: TYPESCRIPT,
    zod: "^4.0.0",
    "@orpc/server": "^1.0.0",
    "@orpc/client": "^1.0.0",
    "@trpc/server": "^11.0.0",
    "@trpc/client": "^11.0.0",
    "@standard-schema/spec": "^1.1.0",
    "@typescript/analyze-trace": "^0.11.0",
  },
};

/** One compiler setting for every program: the one the npm package's consumers are checked with. */
const TSCONFIG = {
  compilerOptions: { ...BASE_COMPILER_OPTIONS, noEmit: true, skipLibCheck: true },
};

/**
 * The cache folder: `RAMIFY_TYPES_CACHE`, else `~/.cache/ramify/bench-types`
 * (with the compiler's range appended when it is not the default one).
 */
export const cacheDir = Deno.env.get("RAMIFY_TYPES_CACHE") ??
  join(
    Deno.env.get("HOME") ?? Deno.cwd(),
    ".cache",
    "ramify",
    Deno.env.get("RAMIFY_TYPESCRIPT") === undefined
      ? "bench-types"
      : `bench-types-${TYPESCRIPT.replace(/[^\w.]/g, "")}`,
  );

/** Runs a command, its output kept to show only if it fails. */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  const { code, stdout, stderr } = await new Deno.Command(command, { args, cwd }).output();
  if (code === 0) return;
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  throw new Error(
    `${command} ${args.join(" ")} failed in ${cwd} (exit ${code}):\n${output.slice(-4000)}`,
  );
}

const readText = (path: string) => Deno.readTextFile(path).catch(() => undefined);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* filesUnder(path);
    else if (entry.isFile) yield path;
  }
}

/** The first library source the npm build's copy (`npm/src`) does not match, if any. */
async function staleSource(npmDir: string): Promise<string | undefined> {
  const copied = join(npmDir, "src");
  for await (const path of filesUnder(copied)) {
    const source = join(ROOT, relative(copied, path));
    if (await readText(source) !== await readText(path)) return relative(ROOT, source);
  }
  return undefined;
}

/**
 * ramify's npm build: `RAMIFY_NPM_DIR` as it is, else `npm/`, built with
 * `deno task build:npm` when missing or older than the sources.
 */
async function npmBuild(): Promise<string> {
  const given = Deno.env.get("RAMIFY_NPM_DIR");
  if (given !== undefined) return given;
  const npmDir = join(ROOT, "npm");
  const missing = await readText(join(npmDir, "esm", "tree", "mod.d.ts")) === undefined;
  const stale = missing ? undefined : await staleSource(npmDir);
  if (missing || stale !== undefined) {
    console.log(`npm build ${missing ? "missing" : `stale (${stale})`}: deno task build:npm`);
    await run(Deno.execPath(), ["task", "build:npm"], ROOT);
  }
  return npmDir;
}

/** Installs the npm project (once per package list) and copies ramify's build into it. */
export async function prepare(): Promise<void> {
  await Deno.mkdir(cacheDir, { recursive: true });
  const manifest = `${JSON.stringify(PACKAGE, null, 2)}\n`;
  const installed = await readText(join(cacheDir, "node_modules", ".installed.json"));
  if (installed !== manifest) {
    await Deno.writeTextFile(join(cacheDir, "package.json"), manifest);
    await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], cacheDir);
    await Deno.writeTextFile(join(cacheDir, "node_modules", ".installed.json"), manifest);
  }
  await Deno.writeTextFile(join(cacheDir, "cpu_time.cjs"), CPU_PRELOAD);
  await install(await npmBuild(), "@ramify/api");
  const baseline = baselineDir();
  if (baseline !== undefined) await install(baseline, BASELINE_PACKAGE);
}

/**
 * Another npm build of ramify to compare with the working tree's, unchanged
 * program, interleaved (`RAMIFY_NPM_BASELINE`, a folder holding `esm/` and
 * `package.json`, as `npm/` does).
 */
export const baselineDir = (): string | undefined => Deno.env.get("RAMIFY_NPM_BASELINE");

async function install(npmDir: string, name: string): Promise<void> {
  const target = join(cacheDir, "node_modules", ...name.split("/"));
  await Deno.remove(target, { recursive: true }).catch(() => {});
  await Deno.mkdir(target, { recursive: true });
  await run("cp", ["-R", join(npmDir, "esm"), join(npmDir, "package.json"), target], cacheDir);
}

/** The versions compared, for the report. */
export async function versions(): Promise<string> {
  const names = [
    "typescript",
    "zod",
    "@orpc/server",
    "@orpc/client",
    "@trpc/server",
    "@trpc/client",
  ];
  const found = await Promise.all(names.map(async (name) => {
    const text = await Deno.readTextFile(join(cacheDir, "node_modules", name, "package.json"));
    return `${name} ${JSON.parse(text).version}`;
  }));
  return found.join(", ");
}

/** Writes a program's files and tsconfig under `programs/<ops>/`; gives the tsconfig's path. */
export async function writeProgram(ops: number, program: Program): Promise<string> {
  const dir = join(cacheDir, "programs", String(ops));
  for (const [name, text] of Object.entries(program.files)) {
    const path = join(dir, name);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  const tsconfig = join(dir, `tsconfig.${program.entry.replace(/\.ts$/, "")}.json`);
  await Deno.writeTextFile(
    tsconfig,
    JSON.stringify({ ...TSCONFIG, files: [program.entry] }, null, 2),
  );
  return tsconfig;
}

// Prints the process's CPU time (user + system) on exit: on a shared machine
// the wall-clock check time grows with other tenants' load, the CPU time less.
const CPU_PRELOAD = `const { writeSync } = require("node:fs");
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  writeSync(2, "\\nCPU time: " + ((user + system) / 1e6).toFixed(2) + "s\\n");
});
`;

/**
 * The compiler's command line: `node tsc.js` from the cache's TypeScript,
 * reporting its CPU time (the native compiler's through `/usr/bin/time`,
 * Node's launcher and the compiler it waits for together).
 */
export const tscCommand = (): string[] => {
  const tsc = join(cacheDir, "node_modules", "typescript", "lib", "tsc.js");
  return NATIVE
    ? ["/usr/bin/time", "-f", "CPU user: %U\nCPU system: %S", "node", tsc, "--singleThreaded"]
    : ["node", "--require", join(cacheDir, "cpu_time.cjs"), tsc];
};
