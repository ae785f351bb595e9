// Which leaves MCP offers as resources unasked: a readOnly leaf that takes no
// input but its captures (an input schema naming no other property, or none
// at all, the open input a URI gives its captures alone) and is not
// openWorld. A leaf with inputs that all have defaults (a diagnosis with a
// depth, say) or that reaches past the server stays a tool, so a client
// listing and reading resources starts no such work; `meta.tools.resource:
// true` opts it in (read with its defaults), `false` opts any leaf out.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";

const readOnly = { tags: { readOnly: true } } as const;

/** How many times each leaf ran. */
const ran: Record<string, number> = {};
const counted = (name: string, value: unknown) => {
  ran[name] = (ran[name] ?? 0) + 1;
  return value;
};

const tree = api({
  motto: op(() => counted("motto", "Read more"), readOnly),
  empty: op(() => counted("empty", "nothing asked"), { ...readOnly, input: z.object({}) }),
  // No input schema: an open input, of which a URI gives nothing.
  open: op((input) => counted("open", input), readOnly),
  diagnose: op(({ depth }) => counted("diagnose", `depth ${depth}`), {
    ...readOnly,
    input: z.object({ depth: z.number().default(3) }),
  }),
  diagnoseAsked: op(({ depth }) => counted("diagnoseAsked", `depth ${depth}`), {
    ...readOnly,
    input: z.object({ depth: z.number().default(3) }),
    tools: { resource: true },
  }),
  weather: op(() => counted("weather", "sunny"), { tags: { readOnly: true, openWorld: true } }),
  weatherAsked: op(() => counted("weatherAsked", "sunny"), {
    tags: { readOnly: true, openWorld: true },
    tools: { resource: true },
  }),
  quiet: op(() => counted("quiet", "kept"), { ...readOnly, tools: { resource: false } }),
  books: api({}, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }) => counted("read", bookId), {
          ...readOnly,
          input: z.object({ bookId: z.string() }),
        }),
        notes: op(({ bookId, verbose }) => counted("notes", `${bookId} ${verbose}`), {
          ...readOnly,
          input: z.object({ bookId: z.string(), verbose: z.boolean().optional() }),
        }),
        raw: op((input) => counted("raw", input), readOnly),
      }),
    },
  }),
});

/** One JSON-RPC request of a 2026-07-28 client, answered in process. */
async function rpc(
  mcp: (request: Request) => Promise<Response>,
  method: string,
  params: Record<string, unknown> = {},
) {
  const response = await mcp(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(typeof params.uri === "string" ? { "mcp-name": params.uri } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    }),
  );
  return await response.json();
}

Deno.test("MCP resources: only a leaf that costs nothing surprising is one unasked; meta.tools opts in and out", async () => {
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  try {
    const listed = await rpc(mcp, "resources/list");
    assert.deepEqual(listed.result.resources.map((resource: { uri: string }) => resource.uri), [
      "ramify://motto",
      "ramify://empty",
      "ramify://open",
      "ramify://diagnoseAsked",
      "ramify://weatherAsked",
    ]);
    const templates = await rpc(mcp, "resources/templates/list");
    assert.deepEqual(
      templates.result.resourceTemplates.map((template: { uriTemplate: string }) =>
        template.uriTemplate
      ),
      ["ramify://books/{bookId}", "ramify://books/{bookId}/raw"],
    );
    // Every one of them is still a tool.
    const tools = await rpc(mcp, "tools/list");
    const names = tools.result.tools.map((tool: { name: string }) => tool.name);
    for (const name of ["diagnose", "weather", "quiet", "books.notes"]) {
      assert.ok(names.includes(name), name);
    }
    // Listing ran nothing; a leaf opted in reads with its defaults.
    assert.deepEqual(ran, {});
    const read = await rpc(mcp, "resources/read", { uri: "ramify://diagnoseAsked" });
    assert.equal(read.result.contents[0].text, "depth 3");
    const raw = await rpc(mcp, "resources/read", { uri: "ramify://books/b1/raw" });
    assert.deepEqual(JSON.parse(raw.result.contents[0].text), { bookId: "b1" });
    // A leaf that is not a resource is not read through a URI either.
    const refused = await rpc(mcp, "resources/read", { uri: "ramify://diagnose" });
    assert.equal(refused.error?.code, -32602);
    assert.deepEqual(ran, { diagnoseAsked: 1, raw: 1 });
  } finally {
    await mcp.close();
  }
});

Deno.test("MCP resources: resource: true on a leaf that cannot be one still fails when the server is built", () => {
  const required = api({
    search: op(({ q }) => [q], {
      ...readOnly,
      input: z.object({ q: z.string() }),
      tools: { resource: true },
    }),
  });
  assert.throws(
    () => createMcpHandler(required),
    /the leaf at search has meta.tools.resource but requires input beyond its captures \(q\)/,
  );
});
