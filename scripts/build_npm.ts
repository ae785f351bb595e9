/**
 * Builds the npm package of `@ramify/api` into `npm/` from the same sources as
 * JSR, then proves it: `deno task build:npm` (`deno run -A scripts/build_npm.ts`).
 *
 * 1. Cleans `npm/` and copies the library sources (`mod.ts`, `tree/`, `http/`,
 *    `graphql/`) to `npm/src/`, so the source maps shipped point at real files.
 * 2. Finds the npm packages the sources import (bare specifiers, mapped to
 *    `npm:` ranges in `deno.json`), writes `npm/package.json` and installs
 *    them there (with the `graphql` peer) so the compiler sees their types.
 * 3. Compiles with the TypeScript compiler API (`NodeNext`, ES2022, DOM libs,
 *    no Deno types: any use of the Deno namespace fails the build) to ESM
 *    `.js` + `.d.ts` + source maps in `npm/esm/`, `./x.ts` imports rewritten to
 *    `./x.js`.
 * 4. Writes the final `package.json`: `exports` mirrors `deno.json`'s, with
 *    `types`; `dependencies` are the packages the emitted JS and `.d.ts`
 *    import, with `deno.json`'s ranges; `graphql` is a peer. Copies README and
 *    LICENSE.
 * 5. Checks the package with publint and `@arethetypeswrong/cli`.
 * 6. Packs it and installs the tarball in a throw-away consumer project, once
 *    with graphql 16 and once with graphql 17, and runs the cross-runtime suite
 *    of `scripts/npm_test/` there: a type check of a consumer module against
 *    the shipped `.d.ts`, Node's test runner, and Bun (`npx bun@1`).
 *
 * Exits non-zero on any failure; its last line is `cross-runtime: N passed, N failed`.
 * Set `RAMIFY_NPM_KEEP=1` to keep the consumer project for a look afterwards.
 *
 * @module
 */

import ts from "typescript";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "npm");
const SRC = join(OUT, "src");
const ESM = join(OUT, "esm");
const SUITE = join(ROOT, "scripts", "npm_test");

/** What ships: the root module and these folders, without tests. */
const LIBRARY_FILES = ["mod.ts"];
const LIBRARY_DIRS = ["tree", "http", "graphql"];

/** Packages an application must hold exactly one copy of (two graphql-js copies break). */
const PEERS: Readonly<Record<string, string>> = { graphql: "^16.8.0 || ^17.0.0" };
/** The graphql majors the cross-runtime suite runs against, each a range for the consumer. */
const GRAPHQL_VERSIONS: Readonly<Record<string, string>> = { "16": "^16.8.0", "17": "^17.0.0" };

/**
 * The consumer project's own dependencies beside the package and graphql, at
 * the ranges `deno.json` maps them to. `@hono/node-server` is Hono's adapter
 * from `node:http` to fetch handlers: widely used, kept up, Node >= 20, and it
 * streams response bodies (Server-Sent Events) and forwards aborts, so our
 * `createFetch` runs on Node as written. `ws` is the WebSocket server (and, on
 * Node 20, the client's `WebSocket`), `graphql-ws` the client, `zod` the schemas.
 */
const CONSUMER_DEPENDENCIES = ["@hono/node-server", "ws", "graphql-ws", "zod"];

const TOOLS = {
  publint: "publint@^0.3.0",
  attw: "@arethetypeswrong/cli@^0.18.0",
  bun: "bun@1",
};

/** Guards against a hung suite: turns a hang into a failure, asserts nothing about time. */
const SUITE_GUARD_MS = 10 * 60_000;

interface DenoConfig {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly exports: Readonly<Record<string, string>>;
  readonly imports: Readonly<Record<string, string>>;
}

interface Tally {
  passed: number;
  failed: number;
}

const ok: Tally = { passed: 1, failed: 0 };
const ko: Tally = { passed: 0, failed: 1 };

// ---------------------------------------------------------------- helpers

const started = Date.now();

function step(title: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n==> ${title} (${seconds}s)`);
}

function fail(message: string): never {
  throw new BuildError(message);
}

class BuildError extends Error {}

interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  /** Capture stdout and stderr instead of passing them through. */
  readonly capture?: boolean;
  /** Do not throw on a non-zero exit. */
  readonly allowFailure?: boolean;
}

interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const command = new Deno.Command(cmd, {
    args,
    cwd: opts.cwd ?? ROOT,
    env: { NO_UPDATE_NOTIFIER: "1", npm_config_fund: "false", ...opts.env },
    stdin: "null",
    stdout: opts.capture ? "piped" : "inherit",
    stderr: opts.capture ? "piped" : "inherit",
    signal: AbortSignal.timeout(SUITE_GUARD_MS),
  });
  const output = await command.output();
  const decoder = new TextDecoder();
  const result = {
    code: output.code,
    stdout: opts.capture ? decoder.decode(output.stdout) : "",
    stderr: opts.capture ? decoder.decode(output.stderr) : "",
  };
  if (result.code !== 0 && !opts.allowFailure) {
    if (opts.capture) console.error(result.stdout + result.stderr);
    fail(`${cmd} ${args.join(" ")} exited with ${result.code}`);
  }
  return result;
}

const NPM_QUIET = ["--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile) yield path;
  }
}

function isTestFile(path: string): boolean {
  return /(^|[._])test\.[cm]?[jt]sx?$/.test(path.split("/").pop() ?? "");
}

/** `graphql`, `@scope/name` from `graphql/execution`, `@scope/name/x`; undefined for relative paths. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every import, export-from, `import()` and `require` specifier of a module's text. */
function specifiersOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  for (const ref of info.typeReferenceDirectives) {
    fail(`a /// <reference types="${ref.fileName}"> slipped into the output`);
  }
  return info.importedFiles.map((file) => file.fileName);
}

/** The range `deno.json` maps a package to: `npm:graphql@^17.1.0` gives `^17.1.0`. */
function rangeOf(config: DenoConfig, name: string): string {
  const target = config.imports[name] ?? config.imports[`${name}/`];
  if (target === undefined) {
    fail(`"${name}" is imported but deno.json "imports" does not map it`);
  }
  const match = /^npm:\/?(@?[^@/]+(?:\/[^@/]+)?)@([^/]+)\/?$/.exec(target);
  if (match === null || match[1] !== name) {
    fail(`deno.json maps "${name}" to "${target}", not to an npm: package with a range`);
  }
  return match[2];
}

// ---------------------------------------------------------------- steps

async function readConfig(): Promise<DenoConfig> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as DenoConfig;
  if (!config.name || !config.version || !config.exports) {
    fail("deno.json needs name, version and exports");
  }
  return config;
}

/** Copies the library sources to `npm/src/`; returns their paths there. */
async function copySources(): Promise<string[]> {
  await Deno.remove(OUT, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  const copied: string[] = [];
  const copy = async (from: string) => {
    const to = join(SRC, relative(ROOT, from));
    await Deno.mkdir(dirname(to), { recursive: true });
    await Deno.copyFile(from, to);
    copied.push(to);
  };
  for (const file of LIBRARY_FILES) await copy(join(ROOT, file));
  for (const dir of LIBRARY_DIRS) {
    for await (const path of walk(join(ROOT, dir))) {
      if (/\.tsx?$/.test(path) && !isTestFile(path)) await copy(path);
    }
  }
  return copied;
}

/** The npm packages named by bare specifiers in these files. */
async function packagesImportedBy(files: Iterable<string>): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of files) {
    for (const specifier of specifiersOf(await Deno.readTextFile(file))) {
      if (specifier.startsWith("node:")) continue;
      const name = packageOf(specifier);
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

function exportsMap(config: DenoConfig): Record<string, { types: string; default: string }> {
  const map: Record<string, { types: string; default: string }> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    const base = target.replace(/^\.\//, "./esm/").replace(/\.ts$/, "");
    map[subpath] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  return map;
}

function packageJson(
  config: DenoConfig,
  dependencies: Record<string, string>,
): Record<string, unknown> {
  const exports = exportsMap(config);
  return {
    name: config.name,
    version: config.version,
    description:
      "One tree of operations, every network surface: HTTP router, OpenAPI 3.1, typed client, GraphQL server and client.",
    keywords: ["api", "http", "openapi", "graphql", "router", "client", "standard-schema"],
    license: config.license ?? "MIT",
    type: "module",
    // ESM only: `exports` is what Node, Bun and bundlers read; `main` and
    // `types` serve tools that predate `exports` (the root entry only).
    main: exports["."].default,
    types: exports["."].types,
    exports,
    files: ["esm/", "src/", "README.md", "LICENSE"],
    sideEffects: false,
    engines: { node: ">=20" },
    dependencies,
    peerDependencies: { ...PEERS },
    // The build compiles against the peers at deno.json's ranges (graphql 17).
    devDependencies: Object.fromEntries(
      Object.keys(PEERS).map((name) => [name, rangeOf(config, name)]),
    ),
  };
}

/** What the package is compiled, and its consumers checked, against. */
const BASE_COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM", "DOM.Iterable"],
  // No ambient @types (and no Deno types): the code must stand on the web platform.
  types: [],
  strict: true,
} as const;

function compile(rootNames: string[]): void {
  const { options, errors } = ts.convertCompilerOptionsFromJson({
    ...BASE_COMPILER_OPTIONS,
    declaration: true,
    declarationMap: true,
    sourceMap: true,
    rewriteRelativeImportExtensions: true,
    rootDir: SRC,
    outDir: ESM,
    newLine: "lf",
    noEmitOnError: true,
    skipLibCheck: true,
  }, OUT);
  if (errors.length > 0) fail(ts.formatDiagnostics(errors, diagnosticHost()));
  const program = ts.createProgram({ rootNames, options });
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length === 0) {
    const emitted = program.emit(undefined, undefined, undefined, false, {
      afterDeclarations: [rewriteDeclarationSpecifiers],
    });
    diagnostics.push(...emitted.diagnostics);
    if (emitted.emitSkipped && diagnostics.length === 0) fail("the compiler emitted nothing");
  }
  if (diagnostics.length > 0) {
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, diagnosticHost()));
    fail(
      `the TypeScript compiler reported ${diagnostics.length} problem(s) (npm/src/X is the library's X)`,
    );
  }
}

/** `./x.ts` to `./x.js` (same length: the declaration maps stay exact). */
function jsSpecifier(specifier: string): string {
  return /^\.\.?\//.test(specifier) && /\.ts$/.test(specifier) && !/\.d\.ts$/.test(specifier)
    ? specifier.replace(/\.ts$/, ".js")
    : specifier;
}

/**
 * `rewriteRelativeImportExtensions` rewrites the emitted JS only: the `.d.ts`
 * keep `./x.ts`, which TypeScript before 5.0 and other tools do not resolve.
 * This rewrites them in import and export declarations and `import("./x.ts")` types.
 */
function rewriteDeclarationSpecifiers(
  context: ts.TransformationContext,
): (node: ts.SourceFile | ts.Bundle) => ts.SourceFile | ts.Bundle {
  const { factory } = context;
  const literal = (node: ts.Expression): ts.Expression =>
    ts.isStringLiteral(node) && jsSpecifier(node.text) !== node.text
      ? factory.createStringLiteral(jsSpecifier(node.text))
      : node;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isImportDeclaration(node)) {
      return factory.updateImportDeclaration(
        node,
        node.modifiers,
        node.importClause,
        literal(node.moduleSpecifier),
        node.attributes,
      );
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      return factory.updateExportDeclaration(
        node,
        node.modifiers,
        node.isTypeOnly,
        node.exportClause,
        literal(node.moduleSpecifier),
        node.attributes,
      );
    }
    if (
      ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const argument = factory.updateLiteralTypeNode(
        node.argument,
        literal(node.argument.literal) as ts.StringLiteral,
      );
      return factory.updateImportTypeNode(
        node,
        argument,
        node.attributes,
        node.qualifier,
        node.typeArguments,
        node.isTypeOf,
      );
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (node) => ts.visitNode(node, visit) as ts.SourceFile | ts.Bundle;
}

function diagnosticHost(): ts.FormatDiagnosticsHost {
  return {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  };
}

/** The dependencies the emitted code needs, with deno.json's ranges; checks each export's files exist. */
async function dependenciesOfOutput(config: DenoConfig): Promise<Record<string, string>> {
  for (const [subpath, entry] of Object.entries(exportsMap(config))) {
    for (const file of [entry.types, entry.default]) {
      await Deno.stat(join(OUT, file)).catch(() =>
        fail(`export "${subpath}": ${file} not emitted`)
      );
    }
  }
  const emitted: string[] = [];
  for await (const path of walk(ESM)) {
    if (path.endsWith(".js") || path.endsWith(".d.ts")) emitted.push(path);
  }
  for (const path of emitted) {
    for (const specifier of specifiersOf(await Deno.readTextFile(path))) {
      if (jsSpecifier(specifier) !== specifier) {
        fail(`${relative(OUT, path)} still imports "${specifier}"`);
      }
    }
  }
  const names = await packagesImportedBy(emitted);
  if (names.has(config.name)) fail(`the output imports ${config.name} itself`);
  const dependencies: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (!(name in PEERS)) dependencies[name] = rangeOf(config, name);
  }
  return dependencies;
}

async function publint(): Promise<boolean> {
  // `--strict` fails on warnings too; suggestions are printed and checked below.
  const result = await run("npx", ["-y", TOOLS.publint, "--strict", "--level", "suggestion", OUT], {
    capture: true,
    allowFailure: true,
  });
  const output = (result.stdout + result.stderr).trim();
  console.log(output);
  return result.code === 0 && !/\b(Suggestion|Warning|Error)s?:/i.test(output);
}

async function attw(): Promise<boolean> {
  // The package is ESM only by design (`type: module`, `import` conditions):
  // the `esm-only` profile leaves out the two CommonJS resolutions, where
  // "CJS resolves to ESM" would only restate that. `require()` of it works on
  // Node >= 20.19 (require of ESM) and `import()` everywhere.
  const result = await run(
    "npx",
    ["-y", TOOLS.attw, "--pack", OUT, "--profile", "esm-only", "--format", "table-flipped"],
    { capture: true, allowFailure: true },
  );
  console.log((result.stdout + result.stderr).trim());
  return result.code === 0;
}

/** Packs `npm/` and makes a consumer project that installs the tarball. */
async function makeConsumer(config: DenoConfig): Promise<{ dir: string; tarball: string }> {
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
  const expected: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    const module = await import(pathToFileURL(join(ROOT, target)).href);
    expected[subpath] = Object.keys(module).sort();
  }
  await writeJson(join(dir, "expected_exports.json"), { name: config.name, exports: expected });
  return { dir, tarball: filename };
}

async function installConsumer(
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

/** Type-checks `consumer_types.ts` against the installed package's `.d.ts`, with nothing skipped. */
function typeCheckConsumer(dir: string): boolean {
  const { options } = ts.convertCompilerOptionsFromJson({
    ...BASE_COMPILER_OPTIONS,
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
  console.log(`checked consumer_types.ts with ${shipped.length} shipped .d.ts files`);
  return diagnostics.length === 0 && shipped.length > 0;
}

async function nodeVersion(): Promise<string> {
  return (await run("node", ["--version"], { capture: true })).stdout.trim();
}

/** Runs the Node suite with Node's test runner; counts come from its TAP report. */
async function nodeSuite(dir: string, major: string): Promise<Tally> {
  const tap = join(dir, `node-${major}.tap`);
  const files = ["node_exports.mjs", "node_serve.mjs"];
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
async function bunBinary(): Promise<string> {
  const result = await run("npx", ["-y", TOOLS.bun, "-e", "console.log(process.execPath)"], {
    capture: true,
  });
  const path = result.stdout.trim().split("\n").pop() ?? "";
  const version = await run(path, ["--version"], { capture: true });
  console.log(`bun ${version.stdout.trim()} at ${path}`);
  return path;
}

/** Runs the Bun suite (`bun_suite.mjs` prints a JSON tally last). */
async function bunSuite(bun: string, dir: string, major: string): Promise<Tally> {
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

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const config = await readConfig();

  step(`copying the library sources to ${relative(ROOT, SRC)}/`);
  const sources = await copySources();
  for (const [subpath, target] of Object.entries(config.exports)) {
    if (!sources.includes(join(SRC, target))) fail(`export "${subpath}" (${target}) not copied`);
  }
  console.log(`${sources.length} modules`);

  step("installing the imported npm packages into npm/ for their types");
  const imported = await packagesImportedBy(sources);
  const installDependencies: Record<string, string> = {};
  for (const name of [...imported].sort()) {
    if (!(name in PEERS)) installDependencies[name] = rangeOf(config, name);
  }
  await writeJson(join(OUT, "package.json"), packageJson(config, installDependencies));
  // The peers come in as devDependencies; node_modules never ships (`files`).
  await run("npm", ["install", ...NPM_QUIET, "--ignore-scripts"], { cwd: OUT });

  step("compiling with TypeScript " + ts.version);
  compile(sources);

  step("writing package.json, README.md and LICENSE");
  const dependencies = await dependenciesOfOutput(config);
  const manifest = packageJson(config, dependencies);
  await writeJson(join(OUT, "package.json"), manifest);
  await Deno.copyFile(join(ROOT, "README.md"), join(OUT, "README.md"));
  await Deno.copyFile(join(ROOT, "LICENSE"), join(OUT, "LICENSE"));
  console.log(`dependencies ${JSON.stringify(dependencies)}, peer ${JSON.stringify(PEERS)}`);

  const tally: Tally = { passed: 0, failed: 0 };
  const problems: string[] = [];

  step("publint");
  if (!(await publint())) problems.push("publint reported problems");

  step("@arethetypeswrong/cli");
  if (!(await attw())) problems.push("attw reported problems");

  step("packing and installing in a consumer project");
  const { dir, tarball } = await makeConsumer(config);
  console.log(`${tarball} in ${dir}`);
  try {
    const bun = await bunBinary();
    for (const [major, range] of Object.entries(GRAPHQL_VERSIONS)) {
      step(`graphql ${major}: installing`);
      await installConsumer(config, dir, tarball, range);
      const add = (what: string, part: Tally) => {
        tally.passed += part.passed;
        tally.failed += part.failed;
        console.log(`${what}: ${part.passed} ok, ${part.failed} not ok`);
        if (part.failed > 0) problems.push(`${what} failed`);
      };

      step(`graphql ${major}: type-checking a consumer against the shipped .d.ts`);
      add(`types, graphql ${major}`, typeCheckConsumer(dir) ? ok : ko);

      step(`graphql ${major}: Node suite (node ${await nodeVersion()})`);
      add(`node, graphql ${major}`, await nodeSuite(dir, major));

      step(`graphql ${major}: Bun suite`);
      add(`bun, graphql ${major}`, await bunSuite(bun, dir, major));
    }
  } finally {
    if (Deno.env.get("RAMIFY_NPM_KEEP")) console.log(`kept ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }

  step("done");
  for (const problem of problems) console.error(`problem: ${problem}`);
  console.log(`cross-runtime: ${tally.passed} passed, ${tally.failed} failed`);
  return problems.length === 0 && tally.failed === 0 ? 0 : 1;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    console.error(`build:npm failed: ${error.message}`);
    Deno.exit(1);
  }
}
