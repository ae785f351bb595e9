// What the npm build shares: its paths, what ships, and small helpers to run
// commands, walk files and read import specifiers.

import ts from "typescript";
import { UI_PACKAGES } from "../../serve/_assets.ts";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const OUT = join(ROOT, "npm");
export const SRC = join(OUT, "src");
export const ESM = join(OUT, "esm");
export const SUITE = join(ROOT, "scripts", "npm_test");

/** What ships: the root module and these folders, without tests. */
export const LIBRARY_FILES = ["mod.ts"];
export const LIBRARY_DIRS = [
  "tree",
  "http",
  "web",
  "route",
  "client",
  "graphql",
  "tools",
  "cli",
  "serve",
  "pubsub",
  "redis",
  "tasks",
  "engine",
  "otel",
  "query",
  "auth",
];

/**
 * Packages the application provides: one copy of graphql (two graphql-js
 * copies break), the MCP SDK, which only `./tools`' server loads, the docs
 * UIs' files (at the ranges `./serve` pages are written for), Node's
 * WebSocket server for `./serve/node` and `jose`, which only `./auth` loads.
 */
export const PEERS: Readonly<Record<string, string>> = {
  graphql: "^16.8.0 || ^17.0.0",
  "@modelcontextprotocol/server": "^2.4.0",
  ...UI_PACKAGES,
  ws: "^8.18.0",
  redis: "^5.8.0",
  "@opentelemetry/api": "^1.9.0",
  "@tanstack/query-core": "^5.85.0",
  jose: "^6.0.0",
};
/** Peers an application may leave out: each is loaded only by the surface that needs it. */
export const OPTIONAL_PEERS: readonly string[] = [
  "@modelcontextprotocol/server",
  ...Object.keys(UI_PACKAGES),
  "ws",
  "redis",
  "@opentelemetry/api",
  "@tanstack/query-core",
  "jose",
];
/** The graphql majors the cross-runtime suite runs against, each a range for the consumer. */
export const GRAPHQL_VERSIONS: Readonly<Record<string, string>> = {
  "16": "^16.8.0",
  "17": "^17.0.0",
};

/**
 * The consumer project's own dependencies beside the package and graphql, at
 * the ranges `deno.json` maps them to. `@hono/node-server` is Hono's adapter
 * from `node:http` to fetch handlers: widely used, kept up, Node >= 20, and it
 * streams response bodies (Server-Sent Events) and forwards aborts, so our
 * `createFetch` runs on Node as written. `ws` is the WebSocket server (and, on
 * Node 20, the client's `WebSocket`), `graphql-ws` the client, `zod` the schemas,
 * `@types/node` the types a Node project has instead of the DOM lib, the MCP
 * SDK's server (the optional peer) and client, and the docs UIs' packages:
 * every optional peer `serve()` loads, so that the README's program prints no
 * line about a missing one.
 */
export const CONSUMER_DEPENDENCIES = [
  "@hono/node-server",
  "ws",
  "swagger-ui-dist",
  "graphiql",
  "react",
  "react-dom",
  "graphql-ws",
  "zod",
  "@types/node",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/client",
  // The tasks extension's requester, which node_tasks.mjs drives a task with.
  "@modelcontextprotocol/ext-tasks",
  "@opentelemetry/api",
  "@tanstack/query-core",
];

export const TOOLS = {
  publint: "publint@^0.3.0",
  attw: "@arethetypeswrong/cli@^0.18.0",
  bun: "bun@1",
};

/** Guards against a hung suite: turns a hang into a failure, asserts nothing about time. */
export const SUITE_GUARD_MS = 10 * 60_000;

export interface DenoConfig {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly exports: Readonly<Record<string, string>>;
  readonly imports: Readonly<Record<string, string>>;
}

export interface Tally {
  passed: number;
  failed: number;
}

export const ok: Tally = { passed: 1, failed: 0 };
export const ko: Tally = { passed: 0, failed: 1 };

// ---------------------------------------------------------------- helpers

export const started = Date.now();

export function step(title: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n==> ${title} (${seconds}s)`);
}

export function fail(message: string): never {
  throw new BuildError(message);
}

export class BuildError extends Error {}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  /** Capture stdout and stderr instead of passing them through. */
  readonly capture?: boolean;
  /** Do not throw on a non-zero exit. */
  readonly allowFailure?: boolean;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
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

export const NPM_QUIET = ["--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];

export async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

export async function* walk(dir: string): AsyncGenerator<string> {
  const entries = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile) yield path;
  }
}

export function isTestFile(path: string): boolean {
  return /(^|[._])test\.[cm]?[jt]sx?$/.test(path.split("/").pop() ?? "");
}

/** `graphql`, `@scope/name` from `graphql/execution`, `@scope/name/x`; undefined for relative paths. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every import, export-from, `import()` and `require` specifier of a module's text. */
export function specifiersOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  for (const ref of info.typeReferenceDirectives) {
    fail(`a /// <reference types="${ref.fileName}"> slipped into the output`);
  }
  return info.importedFiles.map((file) => file.fileName);
}

/** The range `deno.json` maps a package to: `npm:graphql@^17.1.0` gives `^17.1.0`. */
export function rangeOf(config: DenoConfig, name: string): string {
  // The UI packages are named by the code that loads them, not the import map.
  if (Object.hasOwn(UI_PACKAGES, name)) return UI_PACKAGES[name];
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
