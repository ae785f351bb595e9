// A 2026-07-28 call that needs a capability its client did not declare is the
// JSON-RPC error -32021 (MissingRequiredClientCapability), its
// `data.requiredCapabilities` naming what to declare: a handler that asks a
// client without form elicitation gets `unsupported` and, when it then fails,
// the call is -32021 `{ elicitation: { form: {} } }`. A handler that copes
// with `unsupported` answers as it chose; a 2025-era session (no -32021 in its
// revision) gets the handler's own failure; the confirmation of a destructive
// tool keeps its refusal line. Through the SDK client and as raw HTTP.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, ask, HttpError, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { modernToolCall, refused } from "../support/mcp_wire.ts";

const FORM = {
  type: "object",
  properties: { shelf: { type: "integer" } },
  required: ["shelf"],
} as const;

const tree = api({
  // Cannot go on without an answer.
  needs: op(async (_input, ctx) => {
    const answer = await ask(ctx, { message: "Which shelf?", schema: FORM });
    if (answer.action !== "accept") throw new HttpError(400, "a shelf is needed");
    return `shelf ${answer.content.shelf}`;
  }, { tags: { idempotent: true, destructive: false } }),
  // Copes without one.
  copes: op(async (_input, ctx) => {
    const answer = await ask(ctx, { message: "Which shelf?", schema: FORM });
    return answer.action === "accept" ? `shelf ${answer.content.shelf}` : "shelf 1";
  }, { tags: { idempotent: true, destructive: false } }),
  // Fails for its own reason after a confirmation nobody could give.
  wipe: op((): string => {
    throw new HttpError(409, "busy");
  }, { tags: { destructive: true } }),
});

async function served(era: "legacy" | "modern", elicits = false) {
  const mcp = createMcpHandler(tree, { warnMissingHints: false, confirmDestructive: "ask-or-run" });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      ...(elicits ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  if (elicits) {
    client.setRequestHandler(
      "elicitation/create",
      () => ({ action: "accept", content: { shelf: 4 } }),
    );
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    url,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

Deno.test("MCP 2026-07-28: a call that needed elicitation from a client without it is -32021", async () => {
  const { client, close } = await served("modern");
  try {
    const error = await refused(client.callTool({ name: "needs", arguments: {} })) as {
      code: number;
      message: string;
      data?: { requiredCapabilities?: unknown };
    };
    assert.equal(error.code, -32021);
    assert.deepEqual(error.data?.requiredCapabilities, { elicitation: { form: {} } });
    assert.match(error.message, /declare the elicitation capability/);
    assert.equal(textOf(await client.callTool({ name: "copes", arguments: {} })), "shelf 1");
    // The confirmation's unanswerable question is not the handler's: its failure is its own.
    const wiped = await client.callTool({ name: "wipe", arguments: {} });
    assert.equal(wiped.isError, true);
    assert.match(textOf(wiped), /busy/);
  } finally {
    await close();
  }
});

Deno.test("MCP 2026-07-28: the same call from a client that declared elicitation is asked", async () => {
  const { client, close } = await served("modern", true);
  try {
    assert.equal(textOf(await client.callTool({ name: "needs", arguments: {} })), "shelf 4");
  } finally {
    await close();
  }
});

Deno.test("MCP 2025 session: no -32021 in that revision, the handler's failure is the answer", async () => {
  const { client, close } = await served("legacy");
  try {
    const result = await client.callTool({ name: "needs", arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /a shelf is needed/);
  } finally {
    await close();
  }
});

Deno.test("MCP 2026-07-28 raw HTTP: -32021 as a JSON-RPC error with requiredCapabilities, 400", async () => {
  const { url, close } = await served("modern");
  try {
    // Answered at once, as JSON: with the 400 the revision sets on this error itself.
    const { status, text, message: data } = await modernToolCall(url, "needs", {}, { id: 7 });
    assert.equal(status, 400, text);
    assert.equal(data.error?.code, -32021, text);
    assert.deepEqual(data.error?.data?.requiredCapabilities, {
      elicitation: { form: {} },
    });
  } finally {
    await close();
  }
});
