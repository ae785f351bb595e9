// The npm build's proof: a consumer project installs the packed tarball, then
// type-checks against it and runs the Node and Bun suites.

import ts from "typescript";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CONSUMER_DEPENDENCIES,
  type DenoConfig,
  NPM_QUIET,
  OUT,
  rangeOf,
  ROOT,
  run,
  SUITE,
  type Tally,
  TOOLS,
  walk,
  writeJson,
} from "./shared.ts";
import { diagnosticHost } from "./build.ts";
import { BASE_COMPILER_OPTIONS } from "./compiler_options.ts";

/** Packs `npm/` and makes a consumer project that installs the tarball. */
/** docs/serve.md beside the suite: its programs are run as a reader runs them (readme_apps.mjs). */
async function copyServeDoc(dir: string): Promise<void> {
  await Deno.copyFile(join(ROOT, "docs", "serve.md"), join(dir, "serve.md"));
}

/**
 * The example's `catalog.reindex` work (examples/bookstore_reindex.ts) beside
 * the suite as JavaScript, its types stripped, so that node_tasks.mjs drives
 * the example's own code on Node, not a copy of it.
 */
async function copyExampleReindex(dir: string): Promise<void> {
  const source = await Deno.readTextFile(join(ROOT, "examples", "bookstore_reindex.ts"));
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  await Deno.writeTextFile(join(dir, "bookstore_reindex.mjs"), outputText);
}

export async function makeConsumer(config: DenoConfig): Promise<{ dir: string; tarball: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ramify-npm-consumer-" });
  // The tarball, not the folder: `npm install <folder>` links it, and the linked
  // copy would resolve graphql from npm/node_modules, a second graphql.
  const packed = await run("npm", ["pack", "--json", "--pack-destination", dir, OUT], {
    capture: true,
  });
  const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
  for await (const path of walk(SUITE)) {
    const to = join(dir, relative(SUITE, path));
    await Deno.mkdir(dirname(to), { recursive: true });
    await Deno.copyFile(path, to);
  }
  await copyServeDoc(dir);
  await copyExampleReindex(dir);
  const expected: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    const module = await import(pathToFileURL(join(ROOT, target)).href);
    expected[subpath] = Object.keys(module).sort();
  }
  await writeJson(join(dir, "expected_exports.json"), { name: config.name, exports: expected });
  return { dir, tarball: filename };
}

export async function installConsumer(
  config: DenoConfig,
  dir: string,
  tarball: string,
  graphqlRange: string,
): Promise<void> {
  const dependencies: Record<string, string> = {
    [config.name]: `file:./${tarball}`,
    graphql: graphqlRange,
  };
  for (const name of CONSUMER_DEPENDENCIES) dependencies[name] = rangeOf(config, name);
  // `./auth`'s optional peer, installed as a user of oauth() installs it: the
  // ownership checks (owners.mjs) sign their issuer's tokens with it, and
  // oauth() verifies them with the same package.
  dependencies.jose = rangeOf(config, "jose");
  await writeJson(join(dir, "package.json"), {
    name: "ramify-npm-consumer",
    private: true,
    type: "module",
    dependencies,
  });
  await Deno.remove(join(dir, "node_modules"), { recursive: true }).catch(() => {});
  await run("npm", ["install", ...NPM_QUIET], { cwd: dir });
  const installed = JSON.parse(
    await Deno.readTextFile(join(dir, "node_modules", "graphql", "package.json")),
  ) as { version: string };
  console.log(`consumer: graphql ${installed.version}`);
}

/**
 * Type-checks `consumer_types.ts` against the installed package's `.d.ts`, with
 * nothing skipped: with the web platform's DOM types, or (`node`) as a Node
 * project has them, `@types/node` and no DOM lib.
 */
export function typeCheckConsumer(dir: string, platform: "web" | "node"): boolean {
  const { options } = ts.convertCompilerOptionsFromJson({
    ...BASE_COMPILER_OPTIONS,
    ...(platform === "node"
      ? { lib: ["ES2022"], types: ["node"], typeRoots: [join(dir, "node_modules", "@types")] }
      : {}),
    noEmit: true,
    skipLibCheck: false,
  }, dir);
  const program = ts.createProgram({ rootNames: [join(dir, "consumer_types.ts")], options });
  const ours = (file: ts.SourceFile | undefined) =>
    file === undefined || file.fileName.includes("/node_modules/@ramify/api/") ||
    !file.fileName.includes("/node_modules/");
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => ours(d.file));
  const shipped = program.getSourceFiles().filter((f) =>
    f.fileName.includes("/node_modules/@ramify/api/esm/")
  );
  if (diagnostics.length > 0) {
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, diagnosticHost()));
  }
  console.log(`checked consumer_types.ts (${platform}) with ${shipped.length} shipped .d.ts files`);
  return diagnostics.length === 0 && shipped.length > 0;
}

export async function nodeVersion(): Promise<string> {
  return (await run("node", ["--version"], { capture: true })).stdout.trim();
}

/** Runs the Node suite with Node's test runner; counts come from its TAP report. */
export async function nodeSuite(dir: string, major: string): Promise<Tally> {
  const tap = join(dir, `node-${major}.tap`);
  const files = [
    "node_exports.mjs",
    "node_serve.mjs",
    "node_serve_one.mjs",
    "node_hostile.mjs",
    "node_readme.mjs",
    "node_tasks.mjs",
    "node_owners.mjs",
  ];
  const result = await run("node", [
    "--test",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=tap",
    `--test-reporter-destination=${tap}`,
    ...files,
  ], { cwd: dir, env: { GRAPHQL_MAJOR: major }, allowFailure: true });
  const report = await Deno.readTextFile(tap).catch(() => "");
  const count = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, "m").exec(report)?.[1]);
  const tally = { passed: count("pass"), failed: count("fail") };
  if (!Number.isInteger(tally.passed) || !Number.isInteger(tally.failed)) {
    return { passed: 0, failed: 1 };
  }
  if (result.code !== 0 && tally.failed === 0) tally.failed = 1;
  return tally;
}

/**
 * Bun from npm (`npx bun@1`), as the path of its binary: the suite runs it
 * directly, so that the guard's kill reaches Bun itself and leaves no orphan.
 */
export async function bunBinary(): Promise<string> {
  const result = await run("npx", ["-y", TOOLS.bun, "-e", "console.log(process.execPath)"], {
    capture: true,
  });
  const path = result.stdout.trim().split("\n").pop() ?? "";
  const version = await run(path, ["--version"], { capture: true });
  console.log(`bun ${version.stdout.trim()} at ${path}`);
  return path;
}

/**
 * The README's npm line alone, in a project of its own (`@ramify/api`,
 * graphql and zod: no optional peer): `bare_readme.mjs` runs the README's
 * `serve()` program there under Node and under Bun, one check each.
 */
export async function bareSuite(config: DenoConfig, tarball: string, bun: string): Promise<Tally> {
  const dir = await Deno.makeTempDir({ prefix: "ramify-npm-bare-" });
  try {
    await writeJson(join(dir, "package.json"), {
      name: "ramify-npm-bare",
      private: true,
      type: "module",
      dependencies: {
        [config.name]: `file:${tarball}`,
        graphql: rangeOf(config, "graphql"),
        zod: rangeOf(config, "zod"),
      },
    });
    await run("npm", ["install", ...NPM_QUIET], { cwd: dir });
    for (const file of ["readme_apps.mjs", "bare_readme.mjs", "mcp_hello.mjs"]) {
      await Deno.copyFile(join(SUITE, file), join(dir, file));
    }
    await copyServeDoc(dir);
    const tally = { passed: 0, failed: 0 };
    for (const runtime of ["node", bun]) {
      const result = await run(runtime, ["bare_readme.mjs"], {
        cwd: dir,
        capture: true,
        allowFailure: true,
      });
      console.log((result.stdout + result.stderr).trimEnd());
      if (result.code === 0) tally.passed++;
      else tally.failed++;
    }
    return tally;
  } finally {
    if (Deno.env.get("RAMIFY_NPM_KEEP")) console.log(`kept ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }
}

/** Runs the Bun suite (`bun_suite.mjs` prints a JSON tally last). */
export async function bunSuite(bun: string, dir: string, major: string): Promise<Tally> {
  const result = await run(bun, ["bun_suite.mjs"], {
    cwd: dir,
    env: { GRAPHQL_MAJOR: major },
    capture: true,
    allowFailure: true,
  });
  const output = result.stdout + result.stderr;
  console.log(output.trimEnd());
  const line = /^bun-suite-tally: (\{.*\})$/m.exec(result.stdout)?.[1];
  if (line === undefined) return { passed: 0, failed: 1 };
  const tally = JSON.parse(line) as Tally;
  if (result.code !== 0 && tally.failed === 0) tally.failed = 1;
  return tally;
}
