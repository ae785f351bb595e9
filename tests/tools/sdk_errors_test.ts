// What the MCP SDK reports through its onerror reaches createMcpHandler's
// onError: a failure while serving (here its Server's connect, made to fail)
// is a fault, observed once and answered 500; a request the SDK refuses (an
// unsupported revision, a wrong media type) is the caller's mistake, observed
// by nobody.
import assert from "node:assert/strict";
import * as sdk from "@modelcontextprotocol/server";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { modernRequest } from "../support/mcp_wire.ts";

const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const list = (headers: Record<string, string> = {}, params: Record<string, unknown> = {}) =>
  new Request(
    "http://localhost/mcp",
    modernRequest({ method: "tools/list", params: { _meta: META, ...params } }, headers).init,
  );

/** Runs `body` while every SDK server fails to connect its transport. */
async function connectFailing(body: () => Promise<void>): Promise<void> {
  const original = sdk.Server.prototype.connect;
  sdk.Server.prototype.connect = () => Promise.reject(new Error("the transport broke"));
  try {
    await body();
  } finally {
    sdk.Server.prototype.connect = original;
  }
}

Deno.test("MCP: a failure inside the SDK reaches onError, answered 500", async () => {
  const seen: unknown[] = [];
  const mcp = createMcpHandler(tree, { onError: (error) => seen.push(error) });
  try {
    assert.equal((await mcp(list())).status, 200, "serving before the failure");
    await connectFailing(async () => {
      const response = await mcp(list());
      assert.equal(response.status, 500);
      assert.equal((await response.json()).error.code, -32603);
    });
    assert.deepEqual(seen.map(String), ["Error: the transport broke"]);
  } finally {
    await mcp.close();
  }
});

Deno.test("MCP: without onError, a failure inside the SDK is logged as a fault", async () => {
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  const mcp = createMcpHandler(tree);
  try {
    await connectFailing(async () => {
      await (await mcp(list())).body?.cancel();
    });
  } finally {
    console.error = original;
    await mcp.close();
  }
  assert.equal(logged.length, 1);
  assert.match(String(logged[0][0]), /^ramify: MCP server failed:/);
  assert.equal(String(logged[0][1]), "Error: the transport broke");
});

Deno.test("MCP: requests the SDK refuses are the caller's mistakes, observed by nobody", async () => {
  const seen: unknown[] = [];
  const mcp = createMcpHandler(tree, { onError: (error) => seen.push(error) });
  try {
    const unknownRevision = await mcp(list({ "mcp-protocol-version": "2099-01-01" }, {
      _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    }));
    assert.equal(unknownRevision.status, 400);
    await unknownRevision.body?.cancel();
    const lying = await mcp(list({ "mcp-method": "prompts/list" }));
    assert.equal(lying.status, 400);
    await lying.body?.cancel();
    assert.deepEqual(seen, []);
  } finally {
    await mcp.close();
  }
});
