// The README run as written. Its quick start, saved as the file it names and
// run with the command it shows, serves each surface its table lists (REST,
// the OpenAPI document and Swagger UI, GraphQL, MCP) and runs the commands
// it shows as a command line; it prints no warning. Its two commands are
// tasks and print no warning; the page fits on a screen or so (200 lines) and
// ends with a table of the docs pages, every one of them.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mcpPost } from "./support/mcp_wire.ts";
import { freePort } from "./support/server.ts";

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

/** The README's quick start: its one TypeScript block. */
function quickStartCode(): string {
  const section = README.slice(README.indexOf("## Quick start"));
  const code = section.match(/```ts\n([\s\S]*?)```/)?.[1];
  assert.ok(code, "the quick start has code");
  return code;
}

/** Runs `deno <args>` in the repository to its end: its exit code and what it printed. */
async function runDeno(args: readonly string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr).split("\n")
      .filter((line) => line.trim() !== "" && !DENO_SAYS.test(line)),
  };
}

async function postJson(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("README: at most 200 lines; the sections a newcomer needs, in order", () => {
  assert.ok(README.split("\n").length <= 201, `${README.split("\n").length} lines`);
  const headings = [...README.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading);
  assert.deepEqual(headings, ["Install", "Quick start", "Commands", "Documentation", "License"]);
  const install = README.slice(README.indexOf("## Install")).match(/```sh\n([\s\S]*?)```/)![1];
  for (const runtime of ["deno add jsr:@ramify/api", "npm i @ramify/api", "bun add @ramify/api"]) {
    assert.ok(install.includes(runtime), runtime);
  }
});

Deno.test("README: the documentation table links every page of docs/", async () => {
  const section = README.slice(README.indexOf("## Documentation"));
  const linked = [...section.matchAll(/\]\(docs\/([\w-]+\.md)\)/g)].map(([, page]) => page);
  const pages: string[] = [];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.name.endsWith(".md") && entry.name !== "README.md") pages.push(entry.name);
  }
  assert.deepEqual([...linked].sort(), pages.sort());
});

Deno.test("README quick start: one tree served as REST, OpenAPI, GraphQL and MCP, with no warning", async () => {
  const command = commandOf(/`(deno run [^`]*main\.ts)`/);
  const code = quickStartCode();
  assert.match(code, /serve\(tree\)/);
  const port = freePort();
  const served = code.replace(
    "serve(tree)",
    `serve(tree, { port: ${port}, hostname: "127.0.0.1" })`,
  );
  await withFile(".ts", served, async (main) => {
    const base = `http://127.0.0.1:${port}`;
    const args = command.slice(1).map((word) => word === "main.ts" ? main : word);
    const warnings = await warningsOf(args, {}, `${base}/health`, async () => {
      // REST: the table's routes; the input schema refuses an empty title.
      const added = await postJson(`${base}/books/add`, { title: "Emma" });
      assert.deepEqual(await added.json(), { id: "2", title: "Emma" });
      const listed = await fetch(`${base}/books/list`);
      assert.deepEqual(await listed.json(), [{ id: "1", title: "Dune" }, {
        id: "2",
        title: "Emma",
      }]);
      const refused = await postJson(`${base}/books/add`, { title: "" });
      assert.equal(refused.status, 422);
      assert.equal(refused.headers.get("content-type"), "application/problem+json");
      await refused.body?.cancel();
      // OpenAPI and Swagger UI.
      const document = await (await fetch(`${base}/openapi.json`)).json();
      assert.deepEqual(Object.keys(document.paths).sort(), ["/books/add", "/books/list"]);
      assert.ok(document.paths["/books/list"].get, "readOnly is GET");
      await expectStatus(`${base}/docs`, 200, { headers: { accept: "text/html" } });
      // GraphQL: the query and the mutation the table shows.
      const query = await postJson(`${base}/graphql`, { query: "{ books { list } }" });
      assert.equal((await query.json()).data.books.list.length, 2);
      const mutation = await postJson(`${base}/graphql`, {
        query: 'mutation { booksAdd(title: "Kindred") }',
      });
      assert.deepEqual((await mutation.json()).data, { booksAdd: { id: "3", title: "Kindred" } });
      // MCP: the two tools, `books.list` read-only.
      const client = new Client({ name: "readme", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name).sort(), ["books.add", "books.list"]);
        const list = tools.find((tool) => tool.name === "books.list")!;
        assert.equal(list.annotations?.readOnlyHint, true);
      } finally {
        await client.close();
      }
    });
    assert.deepEqual(warnings, []);
  });
});

Deno.test("README quick start: with arguments, the same tree is a command line", async () => {
  const command = commandOf(/`(deno run [^`]*main\.ts books add --title Emma)`/);
  await withFile(".ts", quickStartCode(), async (main) => {
    const run = (...words: string[]) =>
      runDeno(words.map((word) => word === "main.ts" ? main : word));
    const added = await run(...command.slice(1));
    assert.deepEqual([added.code, JSON.parse(added.stdout), added.stderr], [
      0,
      { id: "2", title: "Emma" },
      [],
    ]);
    const words = command.slice(1, command.indexOf("main.ts") + 1);
    const listed = await run(...words, "books", "list");
    assert.deepEqual([listed.code, JSON.parse(listed.stdout)], [0, [{ id: "1", title: "Dune" }]]);
    const help = await run(...words, "--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /books/);
  });
});

Deno.test("README commands: the two commands are the repository's tasks", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  for (const task of ["server", "test"]) {
    assert.ok(task in config.tasks, `deno task ${task} exists`);
    assert.match(
      README,
      new RegExp(`\\| \`deno task ${task}\`\\s*\\| \`npx -y deno@2 task ${task}\``),
    );
  }
});

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
