// The npm build's steps: copy the sources, compile them with TypeScript to ESM
// and declarations, write package.json, and lint the package (publint, attw).

import ts from "typescript";
import { BASE_COMPILER_OPTIONS } from "./compiler_options.ts";
import { dirname, join, relative } from "node:path";
import {
  type DenoConfig,
  ESM,
  fail,
  isTestFile,
  LIBRARY_DIRS,
  LIBRARY_FILES,
  OPTIONAL_PEERS,
  OUT,
  packageOf,
  PEERS,
  rangeOf,
  ROOT,
  run,
  specifiersOf,
  SRC,
  TOOLS,
  walk,
} from "./shared.ts";

// ---------------------------------------------------------------- steps

export async function readConfig(): Promise<DenoConfig> {
  const raw = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as
    & Omit<DenoConfig, "imports">
    & { importMap?: string; imports?: Record<string, string> };
  // The import map is a file of its own, so that `deno task` installs nothing ahead.
  const imports = raw.imports ?? (raw.importMap === undefined ? {} : JSON.parse(
    await Deno.readTextFile(join(ROOT, raw.importMap)),
  ).imports);
  const config: DenoConfig = { ...raw, imports };
  if (!config.name || !config.version || !config.exports) {
    fail("deno.json needs name, version and exports");
  }
  return config;
}

/** Copies the library sources to `npm/src/`; returns their paths there. */
export async function copySources(): Promise<string[]> {
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
export async function packagesImportedBy(files: Iterable<string>): Promise<Set<string>> {
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

export function exportsMap(config: DenoConfig): Record<string, { types: string; default: string }> {
  const map: Record<string, { types: string; default: string }> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    const base = target.replace(/^\.\//, "./esm/").replace(/\.ts$/, "");
    map[subpath] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  return map;
}

export function packageJson(
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
    peerDependenciesMeta: Object.fromEntries(
      OPTIONAL_PEERS.map((name) => [name, { optional: true }]),
    ),
    // The build compiles against the peers at deno.json's ranges (graphql 17),
    // and Node's types for the command line's node: built-ins.
    devDependencies: Object.fromEntries(
      [...Object.keys(PEERS), "@types/node"].map((name) => [name, rangeOf(config, name)]),
    ),
  };
}

export function compile(rootNames: string[]): void {
  const { options, errors } = ts.convertCompilerOptionsFromJson({
    ...BASE_COMPILER_OPTIONS,
    // The command line reads stdio through node: built-ins, which Deno, Node and
    // Bun all have; the architecture test keeps node: imports inside cli/.
    types: ["node"],
    typeRoots: ["./node_modules/@types"],
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
export function jsSpecifier(specifier: string): string {
  return /^\.\.?\//.test(specifier) && /\.ts$/.test(specifier) && !/\.d\.ts$/.test(specifier)
    ? specifier.replace(/\.ts$/, ".js")
    : specifier;
}

/**
 * `rewriteRelativeImportExtensions` rewrites the emitted JS only: the `.d.ts`
 * keep `./x.ts`, which TypeScript before 5.0 and other tools do not resolve.
 * This rewrites them in import and export declarations and `import("./x.ts")` types.
 */
export function rewriteDeclarationSpecifiers(
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

export function diagnosticHost(): ts.FormatDiagnosticsHost {
  return {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  };
}

/** The dependencies the emitted code needs, with deno.json's ranges; checks each export's files exist. */
export async function dependenciesOfOutput(config: DenoConfig): Promise<Record<string, string>> {
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

export async function publint(): Promise<boolean> {
  // `--strict` fails on warnings too; suggestions are printed and checked below.
  const result = await run("npx", ["-y", TOOLS.publint, "--strict", "--level", "suggestion", OUT], {
    capture: true,
    allowFailure: true,
  });
  const output = (result.stdout + result.stderr).trim();
  console.log(output);
  return result.code === 0 && !/\b(Suggestion|Warning|Error)s?:/i.test(output);
}

export async function attw(): Promise<boolean> {
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
