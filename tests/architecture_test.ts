// The layout rules of docs/architecture.md, enforced over the library sources:
// private files stay in their folder, no import circles, no file over 500
// lines, and each layer imports only what it may, so that HTTP-only users never
// load GraphQL and clients never pull in server code. The checks are pure
// functions (files in, offences out), tried on small fixtures first so that
// they cannot pass by finding nothing.
import assert from "node:assert/strict";
import ts from "typescript";

/** One relative import of a file, resolved to a repository path. */
interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

const LIBRARY = ["mod.ts", "tree", "http", "graphql", "tools", "cli", "serve", "pubsub"];
/** Where the line limit applies too: every source file of the repository. */
const EVERYWHERE = [...LIBRARY, "tests", "bench", "scripts", "examples"];
const MAX_LINES = 500;

/** The relative imports and re-exports of a source text, `import("...")` types included. */
function importsOf(path: string, text: string): Edge[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  const add = (specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (specifier === undefined || !ts.isStringLiteral(specifier)) return;
    if (!specifier.text.startsWith(".")) return;
    edges.push({ from: path, to: resolve(path, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes = clause !== undefined && clause.name === undefined &&
        bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, clause?.isTypeOnly === true || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes = clause !== undefined && ts.isNamedExports(clause) &&
        clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || allTypes);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      add(ts.isLiteralTypeNode(argument) ? argument.literal : undefined, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function resolve(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

const folderOf = (path: string) => path.split("/").slice(0, -1).join("/");
const nameOf = (path: string) => path.split("/").at(-1)!;

/** Imports of a `_` file from outside its folder. */
function privateImports(edges: readonly Edge[]): string[] {
  return edges
    .filter((edge) => nameOf(edge.to).startsWith("_") && folderOf(edge.to) !== folderOf(edge.from))
    .map((edge) => `${edge.from} imports the private ${edge.to}`);
}

/** Every import circle, as a path back to its start. */
function cycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...next.get(edge.from) ?? [], edge.to]);
  const found = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === "open") {
        const circle = stack.slice(stack.indexOf(target));
        // One spelling per circle: start from its smallest file.
        const start = circle.indexOf([...circle].sort()[0]);
        const turned = [...circle.slice(start), ...circle.slice(0, start)];
        found.add([...turned, turned[0]].join(" -> "));
      } else if (state.get(target) === undefined) {
        visit(target);
      }
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...next.keys()].sort()) if (state.get(file) === undefined) visit(file);
  return [...found];
}

/** The layer of a library file, by folder. */
function layerOf(path: string): string | undefined {
  if (path === "mod.ts") return "mod.ts";
  if (path.startsWith("tree/")) return "tree";
  if (path === "http/verbs.ts") return "http/verbs";
  for (const layer of LAYERED) if (path.startsWith(`${layer}/`)) return layer;
  if (/^http\/[^/]+\.ts$/.test(path)) return "http";
  if (/^graphql\/[^/]+\.ts$/.test(path)) return "graphql";
  if (path.startsWith("tools/")) return "tools";
  if (path.startsWith("cli/")) return "cli";
  if (path.startsWith("serve/")) return "serve";
  if (path.startsWith("pubsub/")) return "pubsub";
  return undefined;
}

const LAYERED = [
  "http/server",
  "http/openapi",
  "http/client",
  "graphql/schema",
  "graphql/server",
  "graphql/client",
];

interface Allowance {
  /** Layers whose every file may be imported. */
  readonly layers: readonly string[];
  /** Single files of other layers that may be imported. */
  readonly files?: readonly string[];
  /** Layers that may be imported for types only. */
  readonly types?: readonly string[];
}

/** What each layer may import besides itself (docs/architecture.md). */
const ALLOWED: Readonly<Record<string, Allowance>> = {
  "tree": { layers: [] },
  // The verb bundles are authoring vocabulary: meta values over the tree.
  "http/verbs": { layers: ["tree"] },
  // createFetch mounts the OpenAPI document beside the routes.
  "http/server": { layers: ["tree", "http/verbs"], files: ["http/openapi/openapi.ts"] },
  "http/openapi": { layers: ["tree", "http/server"] },
  "http/client": {
    layers: ["tree"],
    files: [
      "http/server/route.ts",
      "http/server/projection.ts",
      "http/server/path.ts",
      "http/server/problem.ts",
    ],
  },
  "http": { layers: ["tree", "http/verbs", "http/server", "http/openapi", "http/client"] },
  "graphql/schema": { layers: ["tree"], files: ["http/server/problem.ts"] },
  "graphql/server": { layers: ["tree", "http/server", "graphql/schema"] },
  "graphql/client": {
    layers: ["tree", "http/client", "graphql/schema"],
    types: ["graphql/server"],
  },
  "graphql": { layers: ["tree", "graphql/schema", "graphql/server", "graphql/client"] },
  // Tool results carry an HttpError's status, as every surface does.
  "tools": { layers: ["tree"], files: ["http/server/problem.ts", "http/server/rate_limit.ts"] },
  // Remote mode calls a server through the typed HTTP client.
  "cli": { layers: ["tree", "http/client"], files: ["http/server/problem.ts"] },
  "mod.ts": {
    layers: ["tree", "http", "http/verbs", "http/server", "http/openapi", "http/client"],
  },
  // Publish/subscribe stands alone: streaming leaves return its iterables.
  "pubsub": { layers: [] },
  // One handler over every surface: it mounts them all.
  "serve": {
    layers: ["tree", "http", "http/server", "graphql", "graphql/server", "tools"],
  },
};

/** Imports a layer may not make, and files that belong to no layer. */
function layerOffences(files: readonly string[], edges: readonly Edge[]): string[] {
  const offences = files.filter((file) => layerOf(file) === undefined)
    .map((file) => `no layer for ${file}`);
  for (const edge of edges) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    const allowed = ALLOWED[from];
    const ok = allowed.layers.includes(to) || allowed.files?.includes(edge.to) === true ||
      (edge.typeOnly && allowed.types?.includes(to) === true);
    if (!ok) offences.push(`${edge.from} (${from}) may not import ${edge.to} (${to})`);
  }
  return offences;
}

/** Files longer than the limit. */
function longFiles(texts: ReadonlyMap<string, string>): string[] {
  // Generated data (a client manifest) is as long as the tree it describes.
  return [...texts].filter(([, text]) => !text.startsWith("// Generated by"))
    .map(([path, text]) => [path, text.split("\n").length - 1] as const)
    .filter(([, lines]) => lines > MAX_LINES)
    .map(([path, lines]) => `${path} has ${lines} lines`);
}

async function sourcesUnder(entries: readonly string[]): Promise<Map<string, string>> {
  const root = new URL("../", import.meta.url);
  const texts = new Map<string, string>();
  const walk = async (path: string) => {
    const info = await Deno.stat(new URL(path, root));
    if (info.isFile) {
      if (path.endsWith(".ts")) texts.set(path, await Deno.readTextFile(new URL(path, root)));
      return;
    }
    for await (const entry of Deno.readDir(new URL(path, root))) {
      await walk(`${path}/${entry.name}`);
    }
  };
  for (const entry of entries) await walk(entry);
  return texts;
}

const sources = await sourcesUnder(LIBRARY);
const edges = [...sources].flatMap(([path, text]) => importsOf(path, text));

Deno.test("architecture: the checks find what they look for", () => {
  const fixture = new Map([
    ["http/server/a.ts", 'import { b } from "./b.ts";\nexport const a = 1;\n'],
    ["http/server/b.ts", 'import type { a } from "./a.ts";\n// import { c } from "../_c.ts";\n'],
    ["http/client/c.ts", 'export { x } from "../server/_private.ts";\n'],
    ["graphql/client/d.ts", 'import type { S } from "../server/server.ts";\n'],
    [
      "graphql/client/e.ts",
      'import { s } from "../server/server.ts";\nlet t: import("./d.ts").T;\n',
    ],
    ["graphql/schema/f.ts", 'import { y } from "../../http/server/dispatch.ts";\n'],
    ["mod.ts", 'export * from "./graphql/mod.ts";\n'],
    ["scripts/g.ts", ""],
  ]);
  const found = [...fixture].flatMap(([path, text]) => importsOf(path, text));
  assert.deepEqual(found.find((edge) => edge.to === "graphql/client/d.ts"), {
    from: "graphql/client/e.ts",
    to: "graphql/client/d.ts",
    typeOnly: true,
  });
  assert.equal(found.some((edge) => edge.to === "http/_c.ts"), false, "comments are not imports");
  assert.deepEqual(privateImports(found), [
    "http/client/c.ts imports the private http/server/_private.ts",
  ]);
  assert.deepEqual(cycles(found), ["http/server/a.ts -> http/server/b.ts -> http/server/a.ts"]);
  assert.deepEqual(layerOffences([...fixture.keys()], found), [
    "no layer for scripts/g.ts",
    "http/client/c.ts (http/client) may not import http/server/_private.ts (http/server)",
    "graphql/client/e.ts (graphql/client) may not import graphql/server/server.ts (graphql/server)",
    "graphql/schema/f.ts (graphql/schema) may not import http/server/dispatch.ts (http/server)",
    "mod.ts (mod.ts) may not import graphql/mod.ts (graphql)",
  ]);
  assert.deepEqual(longFiles(new Map([["x.ts", "a\n".repeat(MAX_LINES + 1)]])), [
    `x.ts has ${MAX_LINES + 1} lines`,
  ]);
});

Deno.test("architecture: a private (_) file is imported only from its own folder", () => {
  assert.ok(edges.length > 100, "the sources were read");
  assert.deepEqual(privateImports(edges), []);
});

Deno.test("architecture: no import circles, type-only imports included", () => {
  assert.deepEqual(cycles(edges), []);
});

Deno.test(`architecture: no source file over ${MAX_LINES} lines`, async () => {
  const everything = await sourcesUnder(EVERYWHERE);
  assert.ok(everything.size > sources.size, "tests, benchmarks and scripts were read");
  assert.deepEqual(longFiles(everything), []);
});

// Beside the command line, two files that exist for a runtime with a file system:
// the Node adapter, and the docs UIs' files read from their npm packages.
const NODE_ALLOWED = new Set(["serve/node.ts", "serve/_assets.ts"]);

Deno.test("architecture: only the command line, the Node adapter and the UI files read node: built-ins (the rest is web platform)", () => {
  const offenders = [...sources].filter(([path, text]) =>
    !path.startsWith("cli/") && !NODE_ALLOWED.has(path) &&
    /^\s*(import|export)\b[^;]*from "node:|import\("node:/m.test(text)
  ).map(([path]) => path);
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: each layer imports only what it may", () => {
  assert.deepEqual(layerOffences([...sources.keys()], edges), []);
});

Deno.test("architecture: the public subpaths are exactly DESIGN's, and each target exists", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.deepEqual(Object.keys(config.exports), [
    ".",
    "./tree",
    "./tree/node",
    "./tree/tags",
    "./http",
    "./http/verbs",
    "./http/dx",
    "./http/extensions/retry",
    "./http/extensions/timeout",
    "./http/extensions/interceptors",
    "./http/extensions/logging",
    "./http/extensions/pagination",
    "./graphql",
    "./graphql/ws",
    "./tools",
    "./cli",
    "./client",
    "./graphql/client",
    "./serve",
    "./serve/node",
    "./pubsub",
    "./pubsub/redis",
  ]);
  for (const target of Object.values(config.exports) as string[]) {
    assert.ok(sources.has(target.slice(2)), `${target} exists`);
  }
});
