// The layout rules of docs/architecture.md, enforced over the library sources:
// private files stay in their folder, no import circles, no two sibling
// folders importing each other, each layer imports only what it may (so that
// HTTP-only users never load GraphQL and clients never pull in server code),
// no file over 500 lines, a small root module, no name exported by two
// subpaths, and no test that passes green because a program it needs is
// missing. The checks are pure functions (files in, offences out), tried on
// small fixtures first so that they cannot pass by finding nothing.
import assert from "node:assert/strict";
import {
  earlyReturns,
  type Edge,
  exportsOf,
  importsOf,
  sourcesUnder,
  unexplainedIgnores,
} from "./support/sources.ts";
import { LIBRARY_DIRS } from "../scripts/npm_build/shared.ts";

// The library's folders are the ones the npm build ships: one list for both.
const LIBRARY = ["mod.ts", ...LIBRARY_DIRS];
/** Where the line limit applies too: every source file of the repository. */
const EVERYWHERE = [...LIBRARY, "tests", "bench", "scripts", "examples"];
const MAX_LINES = 500;
const MAX_ROOT_VALUES = 20;

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

/**
 * Sibling folders (one parent) that import each other, type-only imports
 * included: a folder's files and subfolders count as the folder. Files
 * directly in the parent (a `mod.ts` face) are no folder.
 */
function siblingLoops(edges: readonly Edge[]): string[] {
  const example = new Map<string, Edge>();
  for (const edge of edges) {
    const from = edge.from.split("/");
    const to = edge.to.split("/");
    let depth = 0;
    while (depth < from.length - 1 && depth < to.length - 1 && from[depth] === to[depth]) depth++;
    if (depth >= from.length - 1 || depth >= to.length - 1) continue;
    const pair = `${from.slice(0, depth + 1).join("/")} -> ${to.slice(0, depth + 1).join("/")}`;
    if (!example.has(pair)) example.set(pair, edge);
  }
  const loops: string[] = [];
  for (const [pair, there] of example) {
    const [a, b] = pair.split(" -> ");
    const back = example.get(`${b} -> ${a}`);
    if (a < b && back !== undefined) {
      loops.push(
        `${a} and ${b} import each other (${there.from} -> ${there.to}, ${back.from} -> ${back.to})`,
      );
    }
  }
  return loops.sort();
}

/** The folders below http/ and graphql/ that are layers of their own. */
const LAYERED = [
  "http/route",
  "http/web",
  "http/server",
  "http/openapi",
  "http/client",
  "graphql/schema",
  "graphql/server",
  "graphql/client",
];

/** The layer of a library file, by folder. */
function layerOf(path: string): string | undefined {
  if (path === "mod.ts") return "mod.ts";
  if (path === "http/verbs.ts") return "http/verbs";
  for (const layer of LAYERED) if (path.startsWith(`${layer}/`)) return layer;
  // The faces of http/ and graphql/ (their mod.ts) re-export their folder's layers.
  if (/^(http|graphql)\/[^/]+\.ts$/.test(path)) return path.split("/")[0];
  const top = path.split("/")[0];
  return ["tree", "tools", "cli", "serve", "pubsub", "redis", "otel", "query"].includes(top) &&
      path.includes("/")
    ? top
    : undefined;
}

interface Allowance {
  /** Layers whose every file may be imported. */
  readonly layers: readonly string[];
  /** Layers that may be imported for types only. */
  readonly types?: readonly string[];
}

/** What each layer may import besides itself (drawn in docs/architecture.md). */
const ALLOWED: Readonly<Record<string, Allowance>> = {
  // The vocabulary: nodes, the call path, failures, context. Every other layer stands on it.
  "tree": { layers: [] },
  // The verb bundles are authoring vocabulary: meta values over the tree.
  "http/verbs": { layers: ["tree"] },
  // The projection to routes; `crud` writes its leaves with the verb bundles.
  "http/route": { layers: ["tree", "http/verbs"] },
  // The web kit every server shares: it decodes a route's captures and writes its responses.
  "http/web": { layers: ["tree", "http/route"] },
  "http/openapi": { layers: ["tree", "http/route", "http/web"] },
  // The server on top: `createFetch` mounts the document beside the routes.
  "http/server": { layers: ["tree", "http/verbs", "http/route", "http/web", "http/openapi"] },
  // Clients call routes; they never load a server.
  "http/client": { layers: ["tree", "http/route"] },
  "http": {
    layers: [
      "tree",
      "http/verbs",
      "http/route",
      "http/web",
      "http/openapi",
      "http/server",
      "http/client",
    ],
  },
  "graphql/schema": { layers: ["tree"] },
  "graphql/server": { layers: ["tree", "http/web", "graphql/schema"] },
  // A transport may run a server in process: its type, never its code.
  "graphql/client": {
    layers: ["tree", "http/client", "graphql/schema"],
    types: ["graphql/server"],
  },
  "graphql": { layers: ["tree", "graphql/schema", "graphql/server", "graphql/client"] },
  // MCP over HTTP shares the web kit's rate limits; a resource's URI is its
  // leaf's route, as the HTTP projection places it.
  "tools": { layers: ["tree", "http/web", "http/route"] },
  // Remote mode calls a server through the typed HTTP client.
  "cli": { layers: ["tree", "http/client"] },
  // The root face re-exports the tree, the HTTP face, the verbs and the client's
  // runtime; never graphql/, tools/ or cli/.
  "mod.ts": { layers: ["tree", "http", "http/verbs", "http/client"] },
  // Publish/subscribe: streaming leaves return its iterables; it revives a
  // topic's dates with the tree's schema layer, as the call path does.
  "pubsub": { layers: ["tree"] },
  // State on Redis: each store implements an interface its surface's layer
  // declares (a bus, a rate limiter, idempotency records, MCP sessions).
  "redis": { layers: ["tree", "pubsub", "http/web", "tools"] },
  // Tracing is middleware over the tree (and a fetch the clients take).
  "otel": { layers: ["tree"] },
  // Query options over a client: its positions, its types; never a server.
  "query": { layers: ["tree", "http/client"], types: ["graphql/client"] },
  // One handler over every surface: it mounts them all.
  "serve": {
    layers: ["tree", "http/route", "http/web", "http/server", "graphql", "graphql/server", "tools"],
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
    const ok = allowed.layers.includes(to) ||
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

/** The root module's runtime values, when there are more than its face may hold. */
function tooManyValues(root: Record<string, unknown>): string[] {
  const values = Object.keys(root);
  return values.length <= MAX_ROOT_VALUES ? [] : [
    `the root exports ${values.length} runtime values, at most ${MAX_ROOT_VALUES}: ` +
    values.join(", "),
  ];
}

/**
 * Names (types included) that two public subpaths export, the root `.` left
 * out: it is the curated face that re-exports a few names of the others.
 */
function twiceExported(
  subpaths: Readonly<Record<string, string>>,
  texts: ReadonlyMap<string, string>,
): string[] {
  const owners = new Map<string, string[]>();
  for (const [subpath, target] of Object.entries(subpaths)) {
    if (subpath === ".") continue;
    for (const name of exportsOf(target.replace(/^\.\//, ""), texts)) {
      owners.set(name, [...owners.get(name) ?? [], subpath]);
    }
  }
  return [...owners].filter(([, where]) => where.length > 1)
    .map(([name, where]) => `${name} is exported by ${where.join(" and ")}`).sort();
}

const sources = await sourcesUnder(LIBRARY);
const edges = [...sources].flatMap(([path, text]) => importsOf(path, text));
const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));

Deno.test("architecture: the import checks find what they look for", () => {
  const fixture = new Map([
    ["http/server/a.ts", 'import { b } from "./b.ts";\nexport const a = 1;\n'],
    ["http/server/b.ts", 'import type { a } from "./a.ts";\n// import { c } from "../_c.ts";\n'],
    ["http/client/c.ts", 'export { x } from "../server/_private.ts";\n'],
    ["graphql/client/d.ts", 'import type { S } from "../server/server.ts";\n'],
    [
      "graphql/client/e.ts",
      'import { s } from "../server/server.ts";\nlet t: import("./d.ts").T;\n',
    ],
    ["graphql/schema/f.ts", 'const { y } = await import("../../http/server/router.ts");\n'],
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
    "graphql/schema/f.ts (graphql/schema) may not import http/server/router.ts (http/server)",
    "mod.ts (mod.ts) may not import graphql/mod.ts (graphql)",
  ]);
});

Deno.test("architecture: the sibling check finds two folders importing each other", () => {
  const found = [
    ["http/server/matchers/x.ts", 'import "../../openapi/a.ts";\nimport "../../verbs.ts";\n'],
    ["http/openapi/a.ts", 'import type { R } from "../server/router.ts";\n'],
    ["http/route/b.ts", 'import "../web/c.ts";\n'],
    ["graphql/server/c.ts", 'import "../../tools/mcp.ts";\n'],
    ["tools/mcp.ts", 'import "../graphql/schema/d.ts";\n'],
    ["http/mod.ts", 'import "./route/b.ts";\n'],
    ["http/route/e.ts", 'import "../mod.ts";\n'],
  ].flatMap(([path, text]) => importsOf(path, text));
  assert.deepEqual(siblingLoops(found), [
    "graphql and tools import each other (graphql/server/c.ts -> tools/mcp.ts, " +
    "tools/mcp.ts -> graphql/schema/d.ts)",
    "http/openapi and http/server import each other (http/openapi/a.ts -> http/server/router.ts, " +
    "http/server/matchers/x.ts -> http/openapi/a.ts)",
  ]);
});

Deno.test("architecture: the size checks find a long file and a large root", async () => {
  assert.deepEqual(longFiles(new Map([["x.ts", "a\n".repeat(MAX_LINES + 1)]])), [
    `x.ts has ${MAX_LINES + 1} lines`,
  ]);
  // Types are no runtime values: only the consts count.
  const names = Array.from({ length: MAX_ROOT_VALUES + 1 }, (_, i) => `export const v${i} = ${i};`);
  const text = [...names, "export type T = number;", "export interface I {}"].join("\n");
  const large = await import(`data:application/typescript,${encodeURIComponent(text)}`);
  assert.deepEqual(tooManyValues(large), [
    `the root exports ${MAX_ROOT_VALUES + 1} runtime values, at most ${MAX_ROOT_VALUES}: ` +
    names.map((_, i) => `v${i}`).sort().join(", "),
  ]);
});

Deno.test("architecture: the export check finds a name two subpaths export, types too", () => {
  const texts = new Map([
    ["tree/mod.ts", 'export { op } from "./op.ts";\nexport type { Node } from "./node.ts";\n'],
    ["tree/op.ts", "export function op() {}\nexport const api = 1;\n"],
    ["tree/node.ts", "export interface Node {}\nexport type Leaf = Node;\nexport class X {}\n"],
    ["http/mod.ts", 'export * from "./b.ts";\nexport { op as operation } from "../tree/op.ts";\n'],
    ["http/b.ts", "export enum Verb { Get }\nexport type { Leaf } from '../tree/node.ts';\n"],
    ["mod.ts", 'export * from "./tree/mod.ts";\nexport * from "./http/mod.ts";\n'],
  ]);
  assert.deepEqual([...exportsOf("http/mod.ts", texts)], ["Verb", "Leaf", "operation"]);
  assert.deepEqual(
    twiceExported(
      {
        ".": "./mod.ts",
        "./tree": "./tree/mod.ts",
        "./tree/node": "./tree/node.ts",
        "./http": "./http/mod.ts",
      },
      texts,
    ),
    [
      "Leaf is exported by ./tree/node and ./http",
      "Node is exported by ./tree and ./tree/node",
    ],
  );
});

Deno.test("architecture: the silent-skip check finds a test that returns early, green", () => {
  const text = `
const missing = await chromiumMissing();
if (missing !== undefined) console.warn("ignored: " + missing);
Deno.test({ name: "ignored with a reason", ignore: missing !== undefined, fn: async () => {} });
Deno.test("warns and returns", async () => {
  if (await chromiumMissing() !== undefined) return console.warn("skipped");
});
Deno.test("a path that may be undefined", () => {
  const path = chromiumPath();
  if (path === undefined) {
    return;
  }
});
Deno.test({ name: "prints, then returns", fn() {
  if (!Deno.env.get("CI")) { console.log("no haproxy here"); return; }
} });
Deno.test("returns from its own helpers only", async () => {
  const find = () => { if (missing) return undefined; return 1; };
  for (const x of [1]) if (x === 2) continue;
});
`;
  assert.deepEqual(earlyReturns("tests/x_test.ts", text), [
    `tests/x_test.ts: "warns and returns" returns early, green, when ` +
    `await chromiumMissing() !== undefined`,
    `tests/x_test.ts: "a path that may be undefined" returns early, green, when path === undefined`,
    `tests/x_test.ts: "prints, then returns" returns early, green, when !Deno.env.get("CI")`,
  ]);
  assert.deepEqual(unexplainedIgnores("tests/x_test.ts", text), [], "the file says why");
  const silent = `const found = await redisMissing() === undefined;
Deno.test({ name: "needs redis", ignore: !found, fn() {} });
Deno.test({ name: "never ignored", ignore: false, fn() {} });
Deno.test("prints inside", () => console.warn("a test's own output explains nothing"));
`;
  assert.deepEqual(unexplainedIgnores("tests/y_test.ts", silent), [
    `tests/y_test.ts: "needs redis" is ignored on a condition, and nothing says why`,
  ]);
});

Deno.test("architecture: a private (_) file is imported only from its own folder", () => {
  assert.ok(edges.length > 100, "the sources were read");
  assert.deepEqual(privateImports(edges), []);
});

Deno.test("architecture: no import circles, type-only imports included", () => {
  assert.deepEqual(cycles(edges), []);
});

Deno.test("architecture: no two sibling folders import each other", () => {
  assert.deepEqual(siblingLoops(edges), []);
});

Deno.test("architecture: each layer imports only what it may", () => {
  assert.deepEqual(layerOffences([...sources.keys()], edges), []);
});

Deno.test(`architecture: no source file over ${MAX_LINES} lines`, async () => {
  const everything = await sourcesUnder(EVERYWHERE);
  assert.ok(everything.size > sources.size, "tests, benchmarks and scripts were read");
  assert.deepEqual(longFiles(everything), []);
});

Deno.test(`architecture: the root module is a small face: at most ${MAX_ROOT_VALUES} runtime values`, async () => {
  const root = await import("../mod.ts");
  assert.ok("op" in root && "createFetch" in root, "the root was read");
  assert.deepEqual(tooManyValues(root), []);
});

Deno.test("architecture: no name is exported by two public subpaths (the root face aside)", () => {
  assert.ok(exportsOf("tree/mod.ts", sources).has("op"), "the exports were read");
  assert.deepEqual(twiceExported(config.exports, sources), []);
});

Deno.test("architecture: no test passes green because a program it needs is missing; an ignored one says why", async () => {
  const tests = await sourcesUnder(["tests"]);
  assert.ok(tests.size > 50, "the tests were read");
  const offences = [...tests].flatMap(([path, text]) => [
    ...earlyReturns(path, text),
    ...unexplainedIgnores(path, text),
  ]);
  assert.deepEqual(offences, []);
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

Deno.test("architecture: the public subpaths are exactly these, and each target exists", () => {
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
    "./redis",
    "./otel",
    "./query",
  ]);
  for (const target of Object.values(config.exports) as string[]) {
    assert.ok(sources.has(target.slice(2)), `${target} exists`);
  }
});
