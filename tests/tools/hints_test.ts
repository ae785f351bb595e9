// The warning about leaves MCP clients take as destructive: once per tool list
// or server built (never per request), naming exactly the leaves that say
// neither readOnly nor destructive, and silent with warnMissingHints: false.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createMcpHandler, toTools } from "@ramify/api/tools";
import { withServer } from "../support/server.ts";

const tree = api({
  books: api({
    list: op(() => [], { tags: { readOnly: true } }),
    add: op(() => 1),
    rename: op(() => 1, http.patch),
    replace: op(() => 1, http.put),
    remove: op(() => undefined, http.delete),
    archive: op(() => 1, { tags: { destructive: false } }),
    save: op(() => 1, { tags: { readOnly: false } }),
    hidden: op(() => 1, { tools: false }),
  }),
});

/** What `console.warn` is given while `run` runs. */
async function warnings(run: () => unknown): Promise<string[]> {
  const seen: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void seen.push(args.join(" "));
  try {
    await run();
  } finally {
    console.warn = warn;
  }
  return seen;
}

const UNHINTED = /books\.add, books\.rename, books\.replace, books\.save\b/;

Deno.test("toTools warns once, naming the leaves with neither readOnly nor destructive", async () => {
  const seen = await warnings(() => toTools(tree));
  assert.equal(seen.length, 1, seen.join("\n"));
  assert.match(seen[0], /^ramify: toTools: 4 tools /);
  assert.match(seen[0], UNHINTED);
  assert.match(seen[0], /MCP clients take them as destructive/);
  assert.match(seen[0], /warnMissingHints: false/);
  for (const tagged of ["books.list", "books.remove", "books.archive", "books.hidden"]) {
    assert.doesNotMatch(seen[0], new RegExp(tagged.replace(".", "\\.")), tagged);
  }
});

Deno.test("a tree whose leaves all say readOnly or destructive gives no warning", async () => {
  const tagged = api({
    list: op(() => [], http.get),
    add: op(() => 1, { tags: { destructive: false } }),
    remove: op(() => undefined, http.delete),
  });
  assert.deepEqual(await warnings(() => toTools(tagged)), []);
});

Deno.test("warnMissingHints: false silences the warning", async () => {
  assert.deepEqual(await warnings(() => toTools(tree, { warnMissingHints: false })), []);
  const seen = await warnings(() => createMcpHandler(tree, { warnMissingHints: false }).close());
  assert.deepEqual(seen, []);
});

Deno.test("the MCP server warns once when it is built, not on its requests", async () => {
  let mcp: ReturnType<typeof createMcpHandler> | undefined;
  const built = await warnings(() => mcp = createMcpHandler(tree, { name: "warned" }));
  assert.equal(built.length, 1);
  assert.match(built[0], /^ramify: createMcpHandler: 4 tools /);
  assert.match(built[0], UNHINTED);
  const served = await warnings(() =>
    withServer(mcp!, async (base) => {
      for (let round = 0; round < 2; round++) {
        const client = new Client({ name: "test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
        assert.equal((await client.listTools()).tools.length, 7);
        await client.callTool({ name: "books.add", arguments: {} });
        await client.close();
      }
      await mcp!.close();
    })
  );
  assert.deepEqual(served, []);
});

Deno.test("serveMcpStdio warns once on stderr when it starts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ramify-hints-" });
  try {
    const script = `${dir}/stdio.ts`;
    await Deno.writeTextFile(
      script,
      `import { api, op } from "@ramify/api/tree";
import { serveMcpStdio } from "@ramify/api/tools";
const server = await serveMcpStdio(api({ add: op(() => 1), list: op(() => [], { tags: { readOnly: true } }) }));
await server.close();
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--config", `${Deno.cwd()}/deno.json`, script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim().split("\n").filter(Boolean);
    assert.equal(output.code, 0, stderr.join("\n"));
    assert.equal(new TextDecoder().decode(output.stdout), "", "stdout carries only the protocol");
    assert.equal(stderr.length, 1, stderr.join("\n"));
    assert.match(stderr[0], /^ramify: serveMcpStdio: 1 tool says neither readOnly nor destructive/);
    assert.match(stderr[0], /: add\. /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
