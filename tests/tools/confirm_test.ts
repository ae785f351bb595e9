// Confirming a `destructive` tool over MCP by elicitation, with the official
// SDK's Client against a live Deno.serve: asked as the command line asks,
// run only on a `confirm: true`, refused with the command line's `aborted`
// otherwise; clients that cannot be asked served as before, or refused under
// `confirmDestructive: "require"`; never asked under `"never"`.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";

function books() {
  const shelf = new Map([["1", "Dune"], ["2", "Emma"]]);
  const tree = api({
    remove: op(({ id }) => shelf.delete(id), {
      input: z.object({ id: z.string() }),
      tags: { destructive: true },
      description: "Removes a book for good",
    }),
    count: op(() => shelf.size, { tags: { readOnly: true } }),
  });
  return { shelf, tree };
}

type Answer = (params: { message: string; requestedSchema?: unknown }) => unknown;

async function connect(
  answer: Answer | undefined,
  opts: McpHandlerOptions = {},
  era: "legacy" | "modern" = "legacy",
) {
  const { shelf, tree } = books();
  const mcp = createMcpHandler(tree, opts);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const asked: { message: string; requestedSchema?: unknown }[] = [];
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      ...(answer === undefined ? {} : { capabilities: { elicitation: {} } }),
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  if (answer !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params as { message: string; requestedSchema?: unknown });
      return answer(request.params as { message: string }) as never;
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
  );
  return {
    client,
    asked,
    shelf,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

Deno.test("confirm: a destructive tool runs once the client confirms", async () => {
  const { client, asked, shelf, close } = await connect(() => ({
    action: "accept",
    content: { confirm: true },
  }));
  try {
    const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(result.isError, undefined);
    assert.equal(shelf.has("1"), false);
    assert.deepEqual(asked, [{
      mode: "form",
      message: '"remove" is destructive. Proceed?\nRemove: Removes a book for good',
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean", title: "Proceed?", default: false } },
        required: ["confirm"],
      },
    }]);
    // A leaf that is not destructive is never confirmed.
    await client.callTool({ name: "count", arguments: {} });
    assert.equal(asked.length, 1);
  } finally {
    await close();
  }
});

Deno.test("confirm: declined, dismissed or answered no, the call fails with `aborted` and changes nothing", async () => {
  const answers = [
    { action: "accept", content: { confirm: false } },
    { action: "decline" },
    { action: "cancel" },
    // Hostile: not the form's answer.
    { action: "accept", content: { confirm: "yes" } },
    { action: "accept", content: {} },
  ];
  for (const answer of answers) {
    const { client, shelf, close } = await connect(() => answer);
    try {
      const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
      assert.equal(result.isError, true, JSON.stringify(answer));
      assert.equal(textOf(result), "aborted");
      assert.equal(shelf.has("1"), true);
    } finally {
      await close();
    }
  }
});

Deno.test("confirm: a client without elicitation is served as before, or refused under require", async () => {
  const served = await connect(undefined);
  try {
    const result = await served.client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(result.isError, undefined);
    assert.equal(served.shelf.has("1"), false);
  } finally {
    await served.close();
  }
  const refused = await connect(undefined, { confirmDestructive: "require" });
  try {
    const result = await refused.client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /"remove" is destructive: only a client that can confirm it/);
    assert.equal(refused.shelf.has("1"), true);
  } finally {
    await refused.close();
  }
});

Deno.test("confirm: never asks under confirmDestructive: never", async () => {
  const { client, asked, shelf, close } = await connect(() => ({ action: "decline" }), {
    confirmDestructive: "never",
  });
  try {
    const result = await client.callTool({ name: "remove", arguments: { id: "2" } });
    assert.equal(result.isError, undefined);
    assert.equal(shelf.has("2"), false);
    assert.equal(asked.length, 0);
  } finally {
    await close();
  }
});

Deno.test("confirm (hostile): a client that never answers: the deadline ends the call, nothing removed", async () => {
  let release = () => {};
  const never = new Promise<never>((_resolve, reject) => release = () => reject(new Error("end")));
  const { client, shelf, close } = await connect(() => never, { timeoutMs: 100 });
  try {
    const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^503 Service Unavailable/);
    assert.equal(shelf.has("1"), true);
  } finally {
    release();
    await close();
  }
});

Deno.test("confirm, 2026 era: asked through input_required; declined changes nothing", async () => {
  let confirm = false;
  const { client, asked, shelf, close } = await connect(
    () => ({ action: "accept", content: { confirm } }),
    {},
    "modern",
  );
  try {
    const refused = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(textOf(refused), "aborted");
    assert.equal(shelf.has("1"), true);
    confirm = true;
    const done = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(done.isError, undefined);
    assert.equal(shelf.has("1"), false);
    assert.equal(asked.length, 2);
  } finally {
    await close();
  }
});
