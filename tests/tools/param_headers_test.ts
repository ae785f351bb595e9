// SEP-2243 (MCP 2026-07-28): an input property declared `x-mcp-header`
// (zod's `.meta({ "x-mcp-header": "Region" })`) is listed with its annotation,
// the official SDK client mirrors it into `Mcp-Param-Region`, and the server
// checks the header against the body before the call runs: missing, invalid
// Base64 or different is HTTP 400 with -32020 (HeaderMismatch). An invalid
// declaration fails when the server is made, naming the leaf.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { type JsonRpcAnswer, modernToolCall } from "../support/mcp_wire.ts";

const tree = api({
  route: op(({ region, priority, query }) => `${region}/${priority}/${query}`, {
    input: z.object({
      region: z.string().meta({ "x-mcp-header": "Region" }),
      priority: z.number().int().optional().meta({ "x-mcp-header": "Priority" }),
      query: z.string(),
    }),
    tags: { readOnly: true },
  }),
});

async function served<T>(run: (url: string) => Promise<T>): Promise<T> {
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  try {
    return await run(`http://127.0.0.1:${server.addr.port}/mcp`);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
}

/** A raw 2026-07-28 `tools/call` of `route`, with extra headers. */
async function call(url: string, args: Record<string, unknown>, headers: Record<string, string>) {
  const { status, message } = await modernToolCall(url, "route", args, { id: 3, headers });
  // Read as an answer that holds what each check reads; a missing part fails that check.
  return { status, body: message as Required<JsonRpcAnswer> };
}

Deno.test("x-mcp-header: listed, and the SDK client's Mcp-Param headers are accepted", async () => {
  await served(async (url) => {
    const client = new Client({ name: "test", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      const properties = tools[0].inputSchema.properties as Record<string, Record<string, unknown>>;
      assert.equal(properties.region["x-mcp-header"], "Region");
      assert.equal(properties.priority["x-mcp-header"], "Priority");
      const result = await client.callTool({
        name: "route",
        arguments: { region: "eu-west", priority: 2, query: "q" },
      });
      assert.equal((result.content as { text: string }[])[0].text, "eu-west/2/q");
    } finally {
      await client.close();
    }
  });
});

Deno.test("x-mcp-header: raw HTTP, the header must agree with the body", async () => {
  await served(async (url) => {
    const args = { region: "eu-west", priority: 2, query: "q" };
    const agreed = await call(url, args, {
      "Mcp-Param-Region": "eu-west",
      "mcp-param-priority": "2",
    });
    assert.equal(agreed.status, 200);
    assert.equal(agreed.body.result.content[0].text, "eu-west/2/q");
    // A value that is no plain ASCII travels as Base64; a null or absent value expects no header.
    const encoded = `=?base64?${
      btoa(String.fromCharCode(...new TextEncoder().encode("Zürich")))
    }?=`;
    const base64 = await call(url, { region: "Zürich", query: "q" }, {
      "Mcp-Param-Region": encoded,
    });
    assert.equal(base64.body.result.content[0].text, "Zürich/undefined/q");
    for (
      const [headers, problem] of [
        [{ "Mcp-Param-Priority": "2" }, /region is in the body but Mcp-Param-Region is absent/],
        [{ "Mcp-Param-Region": "us-east", "Mcp-Param-Priority": "2" }, /"us-east" but region/],
        [{ "Mcp-Param-Region": "eu-west", "Mcp-Param-Priority": "3" }, /Mcp-Param-Priority is "3"/],
        [{ "Mcp-Param-Region": "=?base64?###?=", "Mcp-Param-Priority": "2" }, /invalid Base64/],
      ] as const
    ) {
      const { status, body } = await call(url, args, headers);
      assert.equal(status, 400, JSON.stringify(headers));
      assert.equal(body.id, 3);
      assert.equal(body.error.code, -32020);
      assert.match(body.error.message, problem);
    }
  });
});

Deno.test("x-mcp-header: an invalid declaration fails when the server is made, naming the leaf", () => {
  for (
    const input of [
      z.object({ score: z.number().meta({ "x-mcp-header": "Score" }) }),
      z.object({ a: z.string().meta({ "x-mcp-header": "My Region" }) }),
      z.object({
        a: z.string().meta({ "x-mcp-header": "Region" }),
        b: z.string().meta({ "x-mcp-header": "region" }),
      }),
    ] as z.ZodObject[]
  ) {
    assert.throws(
      () => createMcpHandler(api({ bad: op((i) => i, { input }) }), { warnMissingHints: false }),
      /createMcpHandler: the leaf at bad: x-mcp-header/,
    );
  }
});
