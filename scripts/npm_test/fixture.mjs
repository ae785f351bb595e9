// The cross-runtime suite's shared part: the tree every runtime serves, and
// the checks run against a served tree over the network. It runs inside a
// consumer project that installed the packed npm package, so `@ramify/api`
// is the built package there, never the sources. Waits are bounded by
// generous guards that only turn a hang into a failure: nothing here asserts
// how long anything takes.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { z } from "zod";
import { createClient as createWsClient } from "graphql-ws";
import { GraphQLSchema, version as graphqlVersion } from "graphql";
import { api, ClientError, createClient, createFetch, http, op } from "@ramify/api";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
} from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import { handleBunWebSocket } from "@ramify/api/graphql/ws";
import { createMcpHandler, toTools } from "@ramify/api/tools";
import { runCli } from "@ramify/api/cli";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const Book = z.object({ id: z.string(), title: z.string() });

/** A bookstore with a fallback, a mutation with a schema, and a finite stream. */
export function makeTree() {
  const books = new Map([["1", { id: "1", title: "Dune" }]]);
  let next = 2;
  return api({
    books: api({
      list: op(() => [...books.values()], http.get, { output: z.array(Book) }),
      add: op(({ title }) => {
        const book = { id: String(next++), title };
        books.set(book.id, book);
        return book;
      }, { input: z.object({ title: z.string() }), output: Book }),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }) => books.get(bookId) ?? null, http.get, {
            output: Book.nullable(),
          }),
        }),
      },
    }),
    clock: api({
      ticks: op(async function* ({ to }) {
        for (let i = 1; i <= to; i++) yield i;
      }, {
        tags: { streaming: true },
        input: z.object({ to: z.number().int() }),
        output: z.number().int(),
      }),
    }),
  });
}

/**
 * The servers of one tree as fetch-style handlers: `http` for the HTTP surface
 * and `/openapi.json`, `graphql` for `/graphql` over HTTP, `websocket` the
 * graphql-transport-ws handlers (`handleBunWebSocket`, which Bun takes as is
 * and Node's `ws` serves through a peer object). `fetch` routes `/graphql` to
 * the GraphQL server, `/mcp` to the MCP server and the rest to the HTTP surface.
 */
export function makeServers() {
  // One tree each, so that what one check adds the next does not see.
  const rest = createFetch(makeTree());
  const graphql = createHttpGraphQLServer(makeTree());
  const ws = handleBunWebSocket(createGraphQLServer(makeTree()));
  const mcp = createMcpHandler(makeTree(), { name: "npm-proof" });
  const fetch = (request) => {
    const { pathname } = new URL(request.url);
    return pathname === "/graphql"
      ? graphql(request)
      : pathname === "/mcp"
      ? mcp(request)
      : rest(request);
  };
  return { fetch, ws, close: () => mcp.close() };
}

/** Rejects if `promise` has not settled in `ms`: a guard against hangs, not a timing check. */
export async function within(promise, what, ms = 20_000) {
  let timer;
  const guard = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

async function collect(iterable) {
  const values = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** `{ "<subpath>": [names] }` as the sources export them (the build writes it). */
export function expectedExports() {
  return JSON.parse(readFileSync(new URL("./expected_exports.json", import.meta.url), "utf8"));
}

/** Imports one subpath of the package and checks its runtime exports. */
export async function checkSubpath(name, subpath, names) {
  const specifier = subpath === "." ? name : `${name}/${subpath.slice(2)}`;
  const module = await import(specifier);
  assert.deepEqual(Object.keys(module).sort(), names, specifier);
  for (const key of names) assert.notEqual(module[key], undefined, `${specifier} ${key}`);
}

/**
 * Exactly one graphql in the consumer's node_modules, of the major asked for,
 * and the package's schema is an instance of the application's `GraphQLSchema`
 * (what two copies of graphql-js break).
 */
export function checkOneGraphQL(root = process.cwd()) {
  const copies = [];
  const visit = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      if (entry.startsWith("@")) visit(path, depth);
      else if (
        entry === "graphql" && statSync(join(path, "package.json"), { throwIfNoEntry: false })
      ) {
        copies.push(path);
      }
      if (depth < 6 && !entry.startsWith(".")) visit(join(path, "node_modules"), depth + 1);
    }
  };
  visit(join(root, "node_modules"), 0);
  assert.deepEqual(copies, [join(root, "node_modules", "graphql")]);
  const major = process.env.GRAPHQL_MAJOR;
  if (major) assert.equal(graphqlVersion.split(".")[0], major, `graphql ${graphqlVersion}`);
  assert.ok(createGraphQLServer(makeTree()).schema instanceof GraphQLSchema);
}

/** The typed HTTP client against a served tree, the OpenAPI document and a problem response. */
export async function checkHttpClient(baseUrl) {
  const client = createClient(makeTree(), { baseUrl });
  assert.deepEqual(await within(client.books.list(), "books.list"), [{ id: "1", title: "Dune" }]);
  const added = await within(client.books.add({ title: "Emma" }), "books.add");
  assert.equal(added.title, "Emma");
  assert.deepEqual(await within(client.books.bookId(added.id).read(), "read"), added);
  assert.deepEqual(await within(collect(await client.clock.ticks({ to: 3 })), "SSE"), [1, 2, 3]);
  await assert.rejects(
    within(client.books.add({ title: 42 }), "a rejected add"),
    (error) => error instanceof ClientError && error.status === 422,
  );
  const document = await (await within(fetch(new URL("/openapi.json", baseUrl)), "openapi")).json();
  assert.equal(document.openapi.slice(0, 3), "3.1");
  assert.ok("/books/list" in document.paths);
  const missing = await within(fetch(new URL("/nowhere", baseUrl)), "404");
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get("content-type") ?? "", /application\/problem\+json/);
  await missing.body?.cancel();
}

/** The typed GraphQL client over HTTP against `/graphql`. */
export async function checkGraphQLHttp(baseUrl) {
  const client = createGraphQLClient(makeTree(), {
    transport: httpTransport({ url: new URL("/graphql", baseUrl) }),
  });
  assert.deepEqual(await within(client.books.list(), "books.list"), [{ id: "1", title: "Dune" }]);
  const added = await within(client.books.add({ title: "Emma" }), "books.add");
  assert.equal(added.title, "Emma");
  assert.deepEqual(await within(client.books.bookId(added.id).read(), "read"), added);
}

/**
 * A subscription over graphql-transport-ws: with the graphql-ws client alone,
 * then through the typed GraphQL client (`wsTransport`), queries too.
 */
export async function checkSubscription(url, webSocketImpl) {
  const socket = createWsClient({ url, webSocketImpl, lazy: true, retryAttempts: 0 });
  try {
    const results = await within(
      collect(socket.iterate({ query: "subscription { clockTicks(to: 3) }" })),
      "the subscription's events",
    );
    assert.deepEqual(results, [1, 2, 3].map((clockTicks) => ({ data: { clockTicks } })));
    const client = createGraphQLClient(makeTree(), { transport: wsTransport(socket) });
    assert.deepEqual(await within(collect(await client.clock.ticks({ to: 2 })), "typed events"), [
      1,
      2,
    ]);
    assert.deepEqual(await within(client.books.list(), "a query over ws"), [
      { id: "1", title: "Dune" },
    ]);
  } finally {
    await socket.dispose();
  }
}

/** The tool descriptors, and the MCP server at `/mcp` with the SDK's own client. */
export async function checkMcp(baseUrl) {
  assert.deepEqual(toTools(makeTree()).map((tool) => tool.name), [
    "books.list",
    "books.add",
    "books.read",
    "clock.ticks",
  ]);
  const client = new McpClient({ name: "npm-proof", version: "1.0.0" });
  await within(
    client.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseUrl))),
    "connect",
  );
  try {
    const { tools } = await within(client.listTools(), "tools/list");
    assert.equal(tools.length, 4);
    const added = await within(
      client.callTool({ name: "books.add", arguments: { title: "Emma" } }),
      "tools/call",
    );
    assert.equal(added.structuredContent.title, "Emma");
    const missing = await within(
      client.callTool({ name: "books.add", arguments: { title: 42 } }),
      "a refused call",
    );
    assert.equal(missing.isError, true);
    const progress = [];
    const ticks = await within(
      client.callTool({ name: "clock.ticks", arguments: { to: 2 } }, {
        onprogress: (update) => progress.push(update.progress),
      }),
      "a streaming tool",
    );
    assert.deepEqual(JSON.parse(ticks.content[0].text), [1, 2]);
  } finally {
    await client.close();
  }
}

/**
 * The command line: `cli.mjs` run as a process by this runtime (its exit code,
 * stdout and stderr), and remote mode against a served tree.
 */
export async function checkCli(baseUrl) {
  const script = fileURLToPath(new URL("./cli.mjs", import.meta.url));
  const run = (...args) => {
    const result = spawnSync(process.execPath, [script, ...args], {
      encoding: "utf8",
      timeout: 60_000,
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  assert.deepEqual(run("books", "list"), {
    code: 0,
    out: '[{"id":"1","title":"Dune"}]\n',
    err: "",
  });
  assert.deepEqual(run("books", "1", "read"), {
    code: 0,
    out: '{"id":"1","title":"Dune"}\n',
    err: "",
  });
  assert.deepEqual(run("clock", "ticks", "--to", "2"), { code: 0, out: "1\n2\n", err: "" });
  const usage = run("bokos");
  assert.deepEqual([usage.code, usage.err], [
    2,
    'error: unknown command "bokos"; did you mean books?\n',
  ]);
  const invalid = run("books", "add", "--title", "--to");
  assert.equal(invalid.code, 2);
  const out = [];
  const io = {
    out: (text) => out.push(text),
    err: (text) => out.push(text),
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
    prompt: () => Promise.resolve(undefined),
    readStdin: () => Promise.resolve(""),
    readFile: () => Promise.resolve(new Uint8Array()),
  };
  const code = await within(
    runCli(makeTree(), ["--url", baseUrl, "books", "add", "--title", "Emma"], { io }),
    "remote mode",
  );
  assert.equal(code, 0);
  assert.equal(JSON.parse(out.join("")).title, "Emma");
}
