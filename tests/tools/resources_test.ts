// MCP resources end to end, with the SDK's own clients over Streamable HTTP
// against a live Deno.serve, in both protocol eras: which leaves are
// resources and templates (and meta.tools opting in and out), what a read
// returns (text, JSON, a blob), that it goes through the call path (context,
// failures, masking, timeouts), the list cache hints, and the hostile URIs:
// outside the templates, another scheme, `..`, encoded slashes, a 10 KB
// capture, queries, fragments. None reaches a handler.
import { refused } from "../support/mcp_wire.ts";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";
import { context, PNG, seen, tree } from "./resources_tree.ts";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";

type Era = "legacy" | "modern";

function serve(opts: McpHandlerOptions = {}) {
  const crashes: unknown[] = [];
  const mcp = createMcpHandler(tree, {
    onError: (error) => crashes.push(error),
    context,
    warnMissingHints: false,
    ...opts,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const url = new URL(`http://127.0.0.1:${server.addr.port}/mcp`);
  return {
    url,
    crashes,
    close: async () => {
      await mcp.close();
      await server.shutdown();
    },
  };
}

async function connect(url: URL, era: Era, headers: Record<string, string> = {}) {
  const client = new Client(
    { name: "test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`MCP resources (${era})`, async (t) => {
    const served = serve({ timeoutMs: 200 });
    const client = await connect(served.url, era, { "x-tenant": "acme" });
    try {
      await t.step("the capabilities declare resources and completions", () => {
        assert.deepEqual(client.getServerCapabilities()?.resources, {
          subscribe: true,
          listChanged: false,
        });
        assert.deepEqual(client.getServerCapabilities()?.completions, {});
      });

      await t.step("readOnly leaves taking no input are listed resources", async () => {
        const { resources } = await client.listResources(undefined, { cacheMode: "bypass" });
        assert.deepEqual(resources.map((resource) => resource.uri), [
          "ramify://about",
          "ramify://stats",
          "ramify://bare",
          "ramify://logo",
          "ramify://only",
          "ramify://whoami",
          "ramify://vault",
          "ramify://safe",
          "ramify://boom",
          "ramify://slow",
        ]);
        const about = resources.find((resource) => resource.uri === "ramify://about")!;
        assert.equal(about.name, "about");
        assert.equal(about.title, "About");
        assert.equal(about.description, "What this is");
        assert.equal(about.mimeType, "text/plain");
        const mime = (uri: string) => resources.find((resource) => resource.uri === uri)?.mimeType;
        assert.equal(mime("ramify://stats"), "application/json");
        assert.equal(mime("ramify://logo"), "image/png");
        // Without an output schema the media type is not known before the read.
        assert.equal(mime("ramify://bare"), undefined);
      });

      await t.step("readOnly leaves requiring only captures are templates", async () => {
        const { resourceTemplates } = await client.listResourceTemplates(undefined, {
          cacheMode: "bypass",
        });
        assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate), [
          "ramify://books/{bookId}",
          "ramify://books/{bookId}/formats/{format}",
          "ramify://echo/{value}",
        ]);
        const book = resourceTemplates[0];
        assert.equal(book.name, "books.read");
        assert.equal(book.description, "A book");
        assert.equal(book.mimeType, "application/json");
      });

      await t.step("meta.tools opts a leaf out of one side or both", async () => {
        const { tools } = await client.listTools();
        const names = tools.map((tool) => tool.name);
        assert.ok(names.includes("secret"), "resource: false stays a tool");
        assert.ok(!names.includes("only"), "tool: false is no tool");
        assert.ok(!names.includes("off"));
        assert.ok(names.includes("about"), "a resource is a tool too by default");
      });

      await t.step("a string reads as text/plain, JSON as application/json", async () => {
        assert.deepEqual((await client.readResource({ uri: "ramify://about" })).contents, [
          { uri: "ramify://about", mimeType: "text/plain", text: "A bookstore" },
        ]);
        assert.deepEqual((await client.readResource({ uri: "ramify://stats" })).contents, [
          { uri: "ramify://stats", mimeType: "application/json", text: '{"books":2}' },
        ]);
      });

      await t.step("bytes read as a base64 blob of their media type", async () => {
        const { contents } = await client.readResource({ uri: "ramify://logo" });
        const [content] = contents as { blob: string; mimeType: string; uri: string }[];
        assert.equal(content.mimeType, "image/png");
        assert.deepEqual(Uint8Array.from(atob(content.blob), (char) => char.charCodeAt(0)), PNG);
      });

      await t.step("a template binds its captures; the output schema applies", async () => {
        const { contents } = await client.readResource({ uri: "ramify://books/b1" });
        assert.deepEqual(contents, [{
          uri: "ramify://books/b1",
          mimeType: "application/json",
          text: '{"id":"b1","title":"Dune"}',
        }]);
        const format = await client.readResource({ uri: "ramify://books/b2/formats/epub" });
        assert.equal((format.contents[0] as { text: string }).text, "b2 as epub");
      });

      await t.step("a capture is percent-decoded once", async () => {
        seen.length = 0;
        const { contents } = await client.readResource({ uri: "ramify://echo/a%20b%25C3" });
        assert.equal((contents[0] as { text: string }).text, "a b%C3");
        assert.deepEqual(seen, ["a b%C3"]);
      });

      await t.step("the context option and the carrying request reach the leaf", async () => {
        const { contents } = await client.readResource({ uri: "ramify://whoami" });
        assert.equal((contents[0] as { text: string }).text, '{"tenant":"acme"}');
      });

      await t.step("the input schema refuses a capture as on every surface", async () => {
        const error = await refused(client.readResource({ uri: "ramify://books/b1/formats/doc" }));
        assert.equal(error.code, -32602);
        assert.match(error.message, /422 Unprocessable Content: format: /);
      });

      await t.step("a 404 from the leaf is resource-not-found", async () => {
        const error = await refused(client.readResource({ uri: "ramify://books/b9" }));
        assert.equal(error.code, -32602);
        assert.match(error.message, /404 Not Found: No book b9/);
      });

      await t.step("a fault is masked and observed", async () => {
        served.crashes.length = 0;
        const error = await refused(client.readResource({ uri: "ramify://boom" }));
        assert.equal(error.code, -32603);
        assert.match(error.message, /500 Internal Server Error/);
        assert.doesNotMatch(error.message, /password/);
        assert.equal(served.crashes.length, 1);
      });

      await t.step("timeoutMs bounds a read", async () => {
        const error = await refused(client.readResource({ uri: "ramify://slow" }));
        assert.equal(error.code, -32603);
        assert.match(error.message, /^(MCP error -32603: )?503 /);
      });

      await t.step("hostile URIs are refused before any handler runs", async () => {
        seen.length = 0;
        const cases: [string, RegExp][] = [
          ["ramify://nowhere", /not found/i],
          ["ramify://books", /not found/i],
          ["ramify://books/b1/extra/deep", /not found/i],
          ["file:///etc/passwd", /not found/i],
          ["http://127.0.0.1/books/b1", /not found/i],
          ["ramify://echo/..", /relative path segment/],
          ["ramify://echo/%2E%2E", /relative path segment/],
          ["ramify://echo/.", /relative path segment/],
          ["ramify://echo/..%2Fsecret", /slash/],
          ["ramify://echo/a%2Fb", /slash/],
          ["ramify://echo/a%5Cb", /slash/],
          ["ramify://echo/a%00b", /control character/],
          ["ramify://echo/", /empty/],
          ["ramify://echo/%E0%A4%A", /malformed percent-encoding/],
          ["ramify://echo/x?y=1", /query or fragment/],
          ["ramify://echo/x#frag", /query or fragment/],
          [`ramify://echo/${"a".repeat(10_240)}`, /at most 2048 characters/],
        ];
        for (const [uri, message] of cases) {
          const error = await refused(client.readResource({ uri }));
          assert.equal(error.code, -32602, uri.slice(0, 60));
          assert.match(error.message, message, uri.slice(0, 60));
        }
        assert.deepEqual(seen, []);
      });
    } finally {
      await client.close();
      await served.close();
    }
  });
}

Deno.test("MCP resources: the lists say how long they may be cached (2026-07-28)", async () => {
  const served = serve({ listTtlMs: 60_000 });
  try {
    const post = (method: string) =>
      fetch(served.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }).then((response) => response.json());
    for (const method of ["tools/list", "resources/list", "resources/templates/list"]) {
      const { result } = await post(method);
      assert.equal(result.ttlMs, 60_000, method);
      assert.equal(result.cacheScope, "public", method);
    }
  } finally {
    await served.close();
  }
});

Deno.test("MCP resources: a 2025 client (SDK v1) reads them too", async () => {
  const served = serve();
  const client = new V1Client({ name: "v1", version: "1.0.0" });
  await client.connect(new V1Transport(served.url));
  try {
    const { resources } = await client.listResources();
    assert.ok(resources.some((resource: { uri: string }) => resource.uri === "ramify://about"));
    const { contents } = await client.readResource({ uri: "ramify://books/b2" });
    assert.equal((contents[0] as { text: string }).text, '{"id":"b2","title":"Emma"}');
  } finally {
    await client.close();
    await served.close();
  }
});

Deno.test("MCP resources: a tree without any declares no resources capability", async () => {
  const mcp = createMcpHandler(api({ add: op(() => 1, { tags: { destructive: false } }) }));
  try {
    const response = await mcp(new Request("http://localhost/mcp", mcpPost(INITIALIZE)));
    const { result } = await response.json();
    assert.equal(result.capabilities.resources, undefined);
    assert.equal(result.capabilities.completions, undefined);
  } finally {
    await mcp.close();
  }
});

Deno.test("MCP resources: the resourceScheme option names the URIs", async () => {
  const served = serve({ resourceScheme: "shop" });
  const client = await connect(served.url, "legacy");
  try {
    const { resources } = await client.listResources();
    assert.equal(resources[0].uri, "shop://about");
    const { contents } = await client.readResource({ uri: "SHOP://about" });
    assert.equal((contents[0] as { text: string }).text, "A bookstore");
    const error = await refused(client.readResource({ uri: "ramify://about" }));
    assert.equal(error.code, -32602);
  } finally {
    await client.close();
    await served.close();
  }
});

Deno.test("MCP resources: meta.tools mistakes fail when the server is built", () => {
  const cases: [Parameters<typeof api>[0], RegExp][] = [
    [
      { a: op(() => 1, { tags: { destructive: false }, tools: { resource: true } }) },
      /the leaf at a has meta.tools.resource but is not readOnly/,
    ],
    [
      { a: op(() => 1, { tags: { readOnly: true }, tools: { updates: "nowhere" } }) },
      /meta.tools.updates of the leaf at a \(nowhere\) names no leaf/,
    ],
    [
      {
        a: op(() => 1, { tags: { readOnly: true }, tools: { updates: "b" } }),
        b: op(() => 2, { tags: { readOnly: true } }),
      },
      /names a leaf that is not streaming/,
    ],
    [
      { a: op(() => 1, { tags: { readOnly: true }, tools: { complete: { id: "a" } } }) },
      /meta.tools.complete of the leaf at a names no capture id/,
    ],
  ];
  for (const [children, message] of cases) {
    assert.throws(() => createMcpHandler(api(children), { warnMissingHints: false }), message);
  }
  assert.throws(
    () =>
      createMcpHandler(api({ a: op(() => 1, { tags: { readOnly: true } }) }), {
        resourceScheme: "not a scheme",
      }),
    /resourceScheme "not a scheme" is not a URI scheme/,
  );
});
