// maxInputDepth: a tool call's arguments nested deeper than the limit are a
// 400 tool error before the handler runs (tests/agreement_utf8_test.ts holds
// the default against REST and GraphQL); the option is checked when the
// handler is made.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, serveMcpStdio } from "@ramify/api/tools";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { withServer } from "../support/server.ts";

let calls = 0;
const tree = api({
  keep: op(() => ++calls, { input: z.object({ v: z.unknown() }), tags: { destructive: false } }),
});

Deno.test("maxInputDepth: its own limit, counted from the arguments object", async () => {
  const mcp = createMcpHandler(tree, { maxInputDepth: 3 });
  await withServer(mcp, async (base) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    // { v: [[]] } reaches level 3; { v: [[[]]] } level 4.
    const within = await client.callTool({ name: "keep", arguments: { v: [[]] } });
    assert.equal(within.isError, undefined);
    const past = await client.callTool({ name: "keep", arguments: { v: [[[]]] } });
    assert.equal(past.isError, true);
    assert.match(JSON.stringify(past.content), /The input nests deeper than 3 levels/);
    assert.equal(calls, 1);
    await client.close();
  });
  await mcp.close();
});

Deno.test("maxInputDepth: anything but a positive integer throws when the server is made", async () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(
      () => createMcpHandler(tree, { maxInputDepth: bad }),
      /RangeError: MCP: maxInputDepth must be a positive integer/,
    );
    await assert.rejects(
      () => serveMcpStdio(tree, { maxInputDepth: bad }),
      /maxInputDepth must be a positive integer/,
    );
  }
});
