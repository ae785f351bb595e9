// Confirming a `destructive` tool over MCP by elicitation, with the official
// SDK's Client against a live Deno.serve: asked as the command line asks,
// run only on a `confirm: true`, refused with the command line's `aborted`
// otherwise; a client that cannot be asked (no form-mode elicitation, at
// `initialize` or on a 2026-07-28 request) refused with a line saying how to
// allow it, unless the server runs it for such a client (`"ask-or-run"`);
// never asked under `"never"`.
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
  capabilities: Record<string, unknown> = { elicitation: {} },
) {
  const { shelf, tree } = books();
  const mcp = createMcpHandler(tree, opts);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const asked: { message: string; requestedSchema?: unknown }[] = [];
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      ...(answer === undefined ? {} : { capabilities }),
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

const CANNOT_CONFIRM = '"remove" is destructive: call it from a client that supports ' +
  'elicitation to confirm it, or set the server\'s confirmDestructive to "ask-or-run" to run it ' +
  "unconfirmed";

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`confirm (${era === "legacy" ? "2025 session" : "2026-07-28"}): a client without elicitation is refused, saying how to allow it`, async () => {
    for (const mode of [undefined, "ask", "require"] as const) {
      const { client, shelf, close } = await connect(
        undefined,
        mode === undefined ? {} : { confirmDestructive: mode },
        era,
      );
      try {
        const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
        assert.equal(result.isError, true, String(mode));
        assert.equal(textOf(result), CANNOT_CONFIRM);
        assert.equal(shelf.has("1"), true, "the handler never ran");
        // A leaf that is not destructive runs as ever.
        const count = await client.callTool({ name: "count", arguments: {} });
        assert.equal(textOf(count), "2");
      } finally {
        await close();
      }
    }
  });

  Deno.test(`confirm (${era === "legacy" ? "2025 session" : "2026-07-28"}): ask-or-run runs the tool for a client that cannot confirm`, async () => {
    const { client, shelf, close } = await connect(
      undefined,
      { confirmDestructive: "ask-or-run" },
      era,
    );
    try {
      const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
      assert.equal(result.isError, undefined);
      assert.equal(shelf.has("1"), false);
    } finally {
      await close();
    }
  });
}

Deno.test("confirm: ask-or-run still asks a client that can confirm", async () => {
  const { client, asked, shelf, close } = await connect(() => ({ action: "decline" }), {
    confirmDestructive: "ask-or-run",
  });
  try {
    const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(textOf(result), "aborted");
    assert.equal(shelf.has("1"), true);
    assert.equal(asked.length, 1);
  } finally {
    await close();
  }
});

Deno.test("confirm: elicitation without form mode (URL mode only) cannot confirm: refused", async () => {
  const { client, asked, shelf, close } = await connect(
    () => ({ action: "accept", content: { confirm: true } }),
    {},
    "legacy",
    { elicitation: { url: {} } },
  );
  try {
    const result = await client.callTool({ name: "remove", arguments: { id: "1" } });
    assert.equal(textOf(result), CANNOT_CONFIRM);
    assert.equal(shelf.has("1"), true);
    assert.equal(asked.length, 0);
  } finally {
    await close();
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
