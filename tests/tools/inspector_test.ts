// The MCP Inspector's command line (@modelcontextprotocol/inspector, `--cli`
// mode, with the Node 22 it needs, both from npm into a shared temporary
// folder; without npm the test is ignored with the reason printed) against
// the example bookstore served over the network: it lists the tools, the
// resources (readOnly leaves), the resource templates (a readOnly leaf under
// a capture) and the prompt, reads a resource and renders the prompt, which
// the example's HTTP route renders alike.
import assert from "node:assert/strict";
import { DEV_TOKEN, serveBookstore } from "../../examples/bookstore.ts";
import { MemoryBookStore } from "../../examples/bookstore_store.ts";
import { npmTool } from "../support/npm_tools.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@0.15.0";

const tool = await npmTool("ramify-mcp-inspector-0.15.0", [INSPECTOR], "mcp-inspector-cli");
if (tool === undefined) {
  console.warn(`inspector test ignored: npm could not install ${INSPECTOR} with node@22`);
}

/** The Inspector's CLI against the URL: its JSON answer to `method` with `args`. */
async function inspect(url: string, method: string, ...args: string[]): Promise<unknown> {
  const run = await new Deno.Command(tool!.node, {
    args: [
      `${tool!.modules}/@modelcontextprotocol/inspector-cli/build/index.js`,
      url,
      "--transport",
      "http",
      "--method",
      method,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.ok(run.success, `${method}: ${decoder.decode(run.stderr)}${decoder.decode(run.stdout)}`);
  return JSON.parse(decoder.decode(run.stdout));
}

Deno.test({
  name: `MCP Inspector CLI (${INSPECTOR}): the example's tools, resources, templates and prompt`,
  ignore: tool === undefined,
  async fn() {
    const store = new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]);
    const server = await serveBookstore(0, store, DEV_TOKEN, true);
    const url = `${server.url}/mcp`;
    try {
      const { tools } = await inspect(url, "tools/list") as { tools: { name: string }[] };
      const names = tools.map((tool) => tool.name);
      for (const name of ["books.list", "books.add", "books.remove", "catalog.search"]) {
        assert.ok(names.includes(name), `tool ${name} in ${names}`);
      }
      assert.ok(!names.includes("catalog.suggest"), "a prompt is no tool");

      const { resources } = await inspect(url, "resources/list") as {
        resources: { uri: string; mimeType?: string }[];
      };
      assert.deepEqual(
        resources.map(({ uri }) => uri).sort(),
        ["ramify://books/list", "ramify://catalog/featured"],
      );
      const { resourceTemplates } = await inspect(url, "resources/templates/list") as {
        resourceTemplates: { uriTemplate: string }[];
      };
      assert.deepEqual(resourceTemplates.map(({ uriTemplate }) => uriTemplate), [
        "ramify://books/{bookId}",
      ]);
      const [book] = await store.list();
      const read = await inspect(url, "resources/read", "--uri", `ramify://books/${book.id}`) as {
        contents: { uri: string; mimeType: string; text: string }[];
      };
      assert.deepEqual(read.contents.map(({ uri, mimeType }) => ({ uri, mimeType })), [
        { uri: `ramify://books/${book.id}`, mimeType: "application/json" },
      ]);
      assert.deepEqual(JSON.parse(read.contents[0].text), book);

      const { prompts } = await inspect(url, "prompts/list") as {
        prompts: { name: string; arguments: unknown[] }[];
      };
      assert.deepEqual(prompts.map(({ name, arguments: args }) => ({ name, args })), [{
        name: "catalog.suggest",
        args: [{
          name: "mood",
          description: "How the reader feels, in a word or two",
          required: true,
        }],
      }]);
      const rendered = await inspect(
        url,
        "prompts/get",
        "--prompt-name",
        "catalog.suggest",
        "--prompt-args",
        "mood=curious",
      ) as { messages: { role: string; content: { type: string; text: string } }[] };
      assert.match(rendered.messages[0].content.text, /for a curious mood/);
      assert.match(rendered.messages[0].content.text, /Dune/);
      const overHttp = await fetch(`${server.url}/catalog/suggest?mood=curious`);
      assert.deepEqual((await overHttp.json()).messages, rendered.messages);
    } finally {
      await server.close();
    }
  },
});
