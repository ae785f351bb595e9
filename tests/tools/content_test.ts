// Tool result content over the network: a string is its own text, a
// `content()` value its blocks (text, image, an embedded resource named by a
// File's URI) on MCP and the same blocks as JSON over REST and GraphQL; a
// File named with a URI is an embedded resource holding its text for a text
// media type; other bytes' resources are named by the server's
// `resourceScheme`. What content() cannot carry is refused clearly.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, content, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { serveEverySurface } from "../support/every_surface.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const PNG_BASE64 = btoa(String.fromCharCode(...PNG));
const readOnly = { tags: { readOnly: true } } as const;

const tree = api({
  greeting: op(() => 'hello, "world"', readOnly),
  count: op(() => 42, readOnly),
  report: op(async () =>
    await content(
      "The chart, and its data:",
      new Blob([PNG], { type: "image/png" }),
      new File(['{"sales":3}'], "reports://2024/sales", { type: "application/json" }),
    ), readOnly),
  note: op(
    () => new File(["remember the milk"], "notes://today", { type: "text/plain" }),
    readOnly,
  ),
  namedImage: op(() => new File([PNG], "charts://one", { type: "image/png" }), readOnly),
  csv: op(() => new Blob(["a,b\n1,2\n"], { type: "text/csv" }), readOnly),
  pdf: op(() => new File([PNG], "report 1.pdf", { type: "application/pdf" }), readOnly),
  unnamed: op(async () => await content(new Blob([PNG], { type: "application/pdf" })), readOnly),
});

const REPORT = [
  { type: "text", text: "The chart, and its data:" },
  { type: "image", data: PNG_BASE64, mimeType: "image/png" },
  {
    type: "resource",
    resource: { uri: "reports://2024/sales", mimeType: "application/json", text: '{"sales":3}' },
  },
];

Deno.test("MCP content: strings, content() values and embedded resources, agreeing with REST and GraphQL", async (t) => {
  const faults: unknown[] = [];
  const served = await serveEverySurface(tree, { onError: { mcp: (error) => faults.push(error) } });
  const call = (name: string) => served.mcpClient.callTool({ name, arguments: {} });
  try {
    await t.step("a string is its own text; any other value its JSON", async () => {
      assert.deepEqual((await call("greeting")).content, [
        { type: "text", text: 'hello, "world"' },
      ]);
      assert.deepEqual((await call("count")).content, [{ type: "text", text: "42" }]);
    });
    await t.step(
      "content() is its blocks on MCP, the same blocks over REST and GraphQL",
      async () => {
        assert.deepEqual((await call("report")).content, REPORT);
        assert.deepEqual(await (await fetch(`${served.base}/report`)).json(), REPORT);
        const graphql = await fetch(`${served.base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ report }" }),
        });
        assert.deepEqual(await graphql.json(), { data: { report: REPORT } });
      },
    );
    await t.step("a File named with a URI is that resource, its text for a text type", async () => {
      assert.deepEqual((await call("note")).content, [{
        type: "resource",
        resource: { uri: "notes://today", mimeType: "text/plain", text: "remember the milk" },
      }]);
      // Named with a URI, even an image is a resource: the name says which.
      assert.deepEqual((await call("namedImage")).content, [{
        type: "resource",
        resource: { uri: "charts://one", mimeType: "image/png", blob: PNG_BASE64 },
      }]);
      // REST serves the bytes themselves, as for any File.
      const note = await fetch(`${served.base}/note`);
      assert.equal(note.headers.get("content-type"), "text/plain");
      assert.equal(await note.text(), "remember the milk");
    });
    await t.step("other bytes' resources are named by the server, text types as text", async () => {
      assert.deepEqual((await call("csv")).content, [{
        type: "resource",
        resource: { uri: "ramify://csv/result", mimeType: "text/csv", text: "a,b\n1,2\n" },
      }]);
      assert.deepEqual((await call("pdf")).content, [{
        type: "resource",
        resource: {
          uri: "ramify://pdf/result/report%201.pdf",
          mimeType: "application/pdf",
          blob: PNG_BASE64,
        },
      }]);
    });
    await t.step("content() refuses bytes that would be a resource with no URI", async () => {
      const result = await call("unnamed");
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: "text", text: "500 Internal Server Error" }]);
      assert.match(
        String(faults.at(-1)),
        /content\(\): part 0 \(application\/pdf\) is an embedded resource: give it as a File named with its URI/,
      );
    });
  } finally {
    await served.close();
  }
});

Deno.test("MCP content: resourceScheme names the resources the server names", async () => {
  const mcp = createMcpHandler(tree, { resourceScheme: "shop", warnMissingHints: false });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const client = new Client({ name: "scheme", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
    );
    const [block] = (await client.callTool({ name: "csv", arguments: {} })).content as {
      resource: { uri: string };
    }[];
    assert.equal(block.resource.uri, "shop://csv/result");
  } finally {
    await client.close();
    await mcp.close();
    await server.shutdown();
  }
});

Deno.test("content(): a part that is neither text nor a Blob is refused", async () => {
  await assert.rejects(
    () => content("ok", { not: "bytes" } as unknown as Blob),
    /content\(\): part 1 is neither a string nor a Blob/,
  );
  await assert.rejects(
    () => content(new Uint8Array([1]) as unknown as Blob),
    /content\(\): part 0 is neither a string nor a Blob/,
  );
});
