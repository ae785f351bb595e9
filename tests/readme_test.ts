// The README run as written: the quick start's handler serves the REST
// collection paths (a missing book is a 404 problem, never `200 null`), the
// MCP, CLI and context sections do what they say, the sections keep their
// order (quick start, surfaces, deployment) and its commands are real tasks.
// Its Deno commands run as shown print no warning while serving requests that
// read `request.signal` (Node and Bun's are run by the npm proof).
import assert from "node:assert/strict";
import { mcpPost } from "./support/mcp_wire.ts";
import { freePort, withServer } from "./support/server.ts";

/** The first TypeScript block of a README section, run as a module with `exports` appended. */
async function sectionModule(heading: string, exports = ""): Promise<Record<string, unknown>> {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const start = readme.indexOf(heading);
  assert.ok(start >= 0, `the README has ${heading}`);
  const code = readme.slice(start).match(/```ts\n([\s\S]*?)```/)?.[1];
  assert.ok(code, `${heading} has code`);
  // Beside the config, so that its bare specifiers resolve as a reader's would.
  const file = new URL(`../.readme_${crypto.randomUUID()}.ts`, import.meta.url);
  await Deno.writeTextFile(file, code + exports);
  try {
    return await import(file.href);
  } finally {
    await Deno.remove(file);
  }
}

async function quickStart(): Promise<{ fetch: (request: Request) => Promise<Response> }> {
  return (await sectionModule("## Quick start")).default as {
    fetch: (request: Request) => Promise<Response>;
  };
}

Deno.test("README quick start: REST collection paths, 404 for a missing book", async () => {
  const app = await quickStart();
  await withServer(app.fetch, async (base) => {
    const added = await fetch(`${base}/books`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Dune" }),
    });
    assert.equal(added.status, 200);
    const book = await added.json();
    assert.deepEqual(await (await fetch(`${base}/books`)).json(), [book]);
    assert.deepEqual(await (await fetch(`${base}/books/${book.id}`)).json(), book);
    const missing = await fetch(`${base}/books/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "No book nope");
    const removed = await fetch(`${base}/books/nope`, { method: "DELETE" });
    assert.equal(removed.status, 404);
    await removed.body?.cancel();
    const document = await (await fetch(`${base}/openapi.json`)).json();
    assert.deepEqual(Object.keys(document.paths).sort(), ["/books", "/books/{bookId}"]);
  });
});

Deno.test("README MCP section: the tools it prints and serves, and the stdio config it shows", async () => {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const log = console.log;
  const printed: unknown[] = [];
  console.log = (value: unknown) => void printed.push(value);
  let module: Record<string, unknown>;
  try {
    module = await sectionModule("## MCP tools from the same tree", "\nexport { mcp };\n");
  } finally {
    console.log = log;
  }
  assert.equal((printed[0] as { name: string }).name, "books.search");
  assert.deepEqual((printed[0] as { annotations: unknown }).annotations, {
    readOnlyHint: true,
    idempotentHint: true,
  });
  const mcp = module.mcp as ((request: Request) => Promise<Response>) & { close(): Promise<void> };
  await withServer(mcp, async (base) => {
    const client = new Client({ name: "readme", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const result = await client.callTool({ name: "books.search", arguments: { q: "sand" } });
    assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), [
      { id: "1", title: "Dune (sand)" },
    ]);
    await client.close();
    await mcp.close();
  });
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const config = JSON.parse(readme.match(/```json\n([\s\S]*?)```/)![1]);
  const args: string[] = config.mcpServers.bookstore.args;
  assert.equal(config.mcpServers.bookstore.command, "npx");
  const script = args.find((arg) => arg.endsWith("examples/bookstore.ts"))!;
  await Deno.stat(new URL(`../${script.replace("/path/to/ramify/", "")}`, import.meta.url));
  assert.deepEqual(args.slice(args.indexOf(script) + 1), ["--mcp-stdio"]);
});

Deno.test("README CLI section: each command runs against the example tree as shown", async () => {
  const { runCli } = await import("@ramify/api/cli");
  const { bookstore, bookstoreHandler, MemoryBookStore } = await import("../examples/bookstore.ts");
  const { memoryIo } = await import("./support/cli_io.ts");
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("## A command line from the same tree"));
  const commands = section.match(/```sh\n([\s\S]*?)```/)![1].trim().split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));
  const seed = [{ title: "Dune", author: "Frank Herbert" }];
  const handler = await bookstoreHandler(new MemoryBookStore(seed));
  await withServer(async (request) => (await handler.fetch(request))!, async (base) => {
    for (const command of commands) {
      const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
      assert.deepEqual(words.slice(0, 3), ["deno", "task", "cli"], command);
      const args = words.slice(4).map((word) => word.replace("http://localhost:8000", base));
      const io = memoryIo();
      const code = await runCli(bookstore(new MemoryBookStore(seed)), args, {
        io,
        name: "bookstore",
      });
      // Without a terminal the destructive command must refuse, as the comment says it asks.
      const expected = command.includes("remove") ? 1 : 0;
      assert.equal(code, expected, `${command}: ${io.stderr.join("")}`);
      if (expected === 0) assert.notEqual(io.stdout.join(""), "", command);
    }
  });
  await handler.close();
});

Deno.test("README context and guards: the section runs as written, its client narrowing the declared error", async () => {
  const logged: unknown[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void logged.push(...args);
  try {
    await sectionModule("## Context, guards, response control and declared errors");
  } finally {
    console.log = log;
  }
  assert.deepEqual(logged, ["9"]);
});

Deno.test("README order: quick start, then the surfaces, then deployment; the two commands are tasks", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading);
  const at = (start: string) => headings.findIndex((heading) => heading.startsWith(start));
  const order = [
    "Quick start",
    "A typed client",
    "GraphQL",
    "MCP",
    "A command line",
    "Context",
    "Deployment",
    "Commands",
  ].map(at);
  assert.ok(order.every((index) => index >= 0), `every section is there: ${headings.join(" / ")}`);
  assert.deepEqual(order, [...order].sort((a, b) => a - b), headings.join(" / "));
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  for (const task of ["server", "test"]) {
    assert.ok(task in config.tasks, `deno task ${task} exists`);
    assert.match(
      readme,
      new RegExp(`\\| \`deno task ${task}\`\\s*\\| \`npx -y deno@2 task ${task}\``),
    );
  }
});

const ROOT = new URL("../", import.meta.url);
const README = await Deno.readTextFile(new URL("README.md", ROOT));

// Deno's own lines on standard error, which are no warnings: the task it runs,
// a package it downloads the first time, where `deno serve` listens.
const DENO_SAYS = /^(Task \S+ |Download https:\/\/|deno serve: Listening on )/;

/** A command the README shows, as its words; it must be there, whole. */
function commandOf(pattern: RegExp): string[] {
  const command = README.match(pattern)?.[1];
  assert.ok(command, `the README shows ${pattern}`);
  return command.split(/\s+/);
}

/**
 * Runs `deno <args>` from the repository, waits for `ready` to answer, makes
 * the calls, stops it, and returns what it printed on standard error that
 * Deno itself did not.
 */
async function warningsOf(
  args: readonly string[],
  env: Record<string, string>,
  ready: string,
  calls: () => Promise<void>,
): Promise<string[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let failure: unknown;
  try {
    for (let tries = 0;; tries++) {
      const up = await fetch(ready).then((r) => r.body?.cancel().then(() => true), () => false);
      if (up) break;
      if (tries === 600) throw new Error(`${args.join(" ")} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await calls();
  } catch (error) {
    failure = error;
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
  // A failure shows what the command printed.
  if (failure !== undefined) throw new Error(`${failure}\n${await stderr}`, { cause: failure });
  return (await stderr).split("\n").filter((line) => line.trim() !== "" && !DENO_SAYS.test(line));
}

/** Calls `url` and checks the status; the body is read to its end. */
async function expectStatus(url: string, status: number, init: RequestInit = {}): Promise<void> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  assert.equal(response.status, status, `${init.method ?? "GET"} ${url}`);
}

/** An MCP handshake: the SDK reads the request's signal. */
const mcpHello: RequestInit = mcpPost();

/** A file beside the config, so that its bare specifiers resolve as a reader's would; removed after. */
async function withFile(suffix: string, code: string, run: (path: string) => Promise<void>) {
  const path = new URL(`.readme_${crypto.randomUUID()}${suffix}`, ROOT).pathname;
  await Deno.writeTextFile(path, code);
  try {
    await run(path);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("README commands: `deno task server` prints no warning while serving every surface", async () => {
  assert.match(README, /\| `deno task server`\s*\|/);
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const warnings = await warningsOf(
    ["task", "server"],
    { PORT: String(port) },
    `${base}/health`,
    async () => {
      await expectStatus(`${base}/books/99`, 404);
      await expectStatus(`${base}/mcp`, 200, mcpHello);
      await expectStatus(`${base}/graphql`, 200, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ books { list { title } } }" }),
      });
      await expectStatus(`${base}/docs/assets/swagger-ui-bundle.js`, 200);
    },
  );
  assert.deepEqual(warnings, []);
});

Deno.test("README commands: the quick start under its `deno serve` command prints no warning", async () => {
  const command = commandOf(/run `(deno serve [^`]*main\.ts)`/);
  const code = README.slice(README.indexOf("## Quick start")).match(/```ts\n([\s\S]*?)```/)![1];
  await withFile(".ts", code, async (main) => {
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const args = command.slice(1).map((word) => word === "main.ts" ? main : word);
    args.splice(1, 0, `--port=${port}`, "--host=127.0.0.1");
    const warnings = await warningsOf(args, {}, `${base}/books`, async () => {
      await expectStatus(`${base}/books/nope`, 404);
      await expectStatus(`${base}/books`, 200, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Dune" }),
      });
    });
    assert.deepEqual(warnings, []);
  });
});

Deno.test("README commands: `serve()` under its `deno run` command prints no warning", async () => {
  const command = commandOf(/`(deno run [^`]*server\.js)`/);
  const section = README.slice(README.indexOf("### Everything at once"));
  const code = section.match(/```js\n([\s\S]*?)```/)![1];
  const port = freePort();
  assert.match(code, /port: 8000/);
  await withFile(".js", code.replace("port: 8000", `port: ${port}`), async (server) => {
    const base = `http://127.0.0.1:${port}`;
    const args = command.slice(1).map((word) => word === "server.js" ? server : word);
    const warnings = await warningsOf(args, {}, `${base}/health`, async () => {
      await expectStatus(`${base}/hello?name=Ann`, 200);
      await expectStatus(`${base}/hello`, 422);
      await expectStatus(`${base}/mcp`, 200, mcpHello);
      await expectStatus(`${base}/docs/assets/swagger-ui-bundle.js`, 200);
      await expectStatus(`${base}/graphql/assets/graphiql.js`, 200);
    });
    assert.deepEqual(warnings, []);
  });
});

Deno.test("README commands: `deno task test` prints no warning for a test whose server reads the signal", async () => {
  assert.match(README, /\| `deno task test`\s*\|/);
  const test = await Deno.makeTempFile({ prefix: "ramify_signal_", suffix: "_test.ts" });
  await Deno.writeTextFile(
    test,
    `Deno.test("reads the signal", async () => {
  const server = Deno.serve({ port: 0, onListen() {} }, (request) => new Response(String(request.signal.aborted)));
  await (await fetch(\`http://localhost:\${server.addr.port}/\`)).text();
  await server.shutdown();
});
`,
  );
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "test", test],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    const printed = new TextDecoder().decode(stderr).split("\n");
    assert.equal(code, 0, printed.join("\n"));
    assert.deepEqual(printed.filter((line) => line.trim() !== "" && !DENO_SAYS.test(line)), []);
  } finally {
    await Deno.remove(test);
  }
});
