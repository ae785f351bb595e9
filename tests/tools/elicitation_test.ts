// A handler's `ask` over MCP, with the official SDK's Client over Streamable
// HTTP against a live Deno.serve: the form goes out untouched (SEP-1034
// defaults, SEP-1330 enum variants), answers come back (accept, decline,
// cancel), an answer that breaks the form is a `cancel`, concurrent questions
// of one session keep their answers apart, a client without elicitation
// gets `unsupported`, and a client that never answers leaves the call to its
// deadline or its cancellation.
import { DEFAULTS } from "./conformance_tree.ts";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { childEnv } from "../support/child_env.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions, memoryMcpSessions } from "@ramify/api/tools";
import { memoryBus } from "@ramify/api/pubsub";
import { ask, type FormSchema } from "../../tree/interaction.ts";

const ENUMS: FormSchema = {
  type: "object",
  properties: {
    untitled: { type: "string", enum: ["option1", "option2", "option3"] },
    titled: {
      type: "string",
      oneOf: [{ const: "value1", title: "First Option" }, { const: "value2", title: "Second" }],
    },
    legacy: { type: "string", enum: ["opt1", "opt2"], enumNames: ["Option One", "Option Two"] },
    multi: { type: "array", items: { type: "string", enum: ["option1", "option2"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [{ const: "value1", title: "First Choice" }, { const: "value2", title: "B" }],
      },
    },
  },
};

const SHELF: FormSchema = {
  type: "object",
  properties: { shelf: { type: "integer", minimum: 1 }, note: { type: "string" } },
  required: ["shelf"],
};

const said = (answer: { action: string; content?: unknown }) =>
  JSON.stringify("content" in answer ? [answer.action, answer.content] : [answer.action]);

const tree = api({
  defaults: op(async (_input, ctx) =>
    said(await ask(ctx, { message: "Defaults", schema: DEFAULTS }))
  ),
  enums: op(async (_input, ctx) => said(await ask(ctx, { message: "Enums", schema: ENUMS }))),
  shelf: op(async ({ message }, ctx) => said(await ask(ctx, { message, schema: SHELF })), {
    input: z.object({ message: z.string() }),
  }),
  twice: op(async (_input, ctx) => {
    const first = await ask(ctx, { message: "First", schema: SHELF });
    const second = await ask(ctx, { message: "Second", schema: SHELF });
    return JSON.stringify([JSON.parse(said(first)), JSON.parse(said(second))]);
  }),
  typed: op(async (_input, ctx) => {
    const answer = await ask(ctx, {
      message: "Typed",
      schema: z.object({ count: z.number().int().max(3) }),
    });
    return said(answer);
  }),
});

type Answer = (params: { message: string; requestedSchema?: unknown }) => unknown;

async function connect(
  answer: Answer | undefined,
  opts: McpHandlerOptions = {},
  era: "legacy" | "modern" = "legacy",
) {
  const mcp = createMcpHandler(tree, { warnMissingHints: false, ...opts });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const asked: { message: string; requestedSchema?: unknown }[] = [];
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      ...(answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  if (answer !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      const params = request.params as { message: string; requestedSchema?: unknown };
      asked.push(params);
      return answer(params) as never;
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
  );
  return {
    client,
    asked,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

Deno.test("elicitation: the form goes out untouched and accepted answers come back", async () => {
  const { client, asked, close } = await connect((params) => ({
    action: "accept",
    content: params.message === "Defaults"
      ? { name: "Ann", age: 41, score: 7.5, status: "pending", verified: false }
      : { untitled: "option2", titled: "value1", legacy: "opt2", multi: ["option1"] },
  }));
  try {
    const defaults = await client.callTool({ name: "defaults", arguments: {} });
    assert.equal(
      textOf(defaults),
      JSON.stringify(["accept", {
        name: "Ann",
        age: 41,
        score: 7.5,
        status: "pending",
        verified: false,
      }]),
    );
    const enums = await client.callTool({ name: "enums", arguments: {} });
    assert.equal(
      textOf(enums),
      JSON.stringify(["accept", {
        untitled: "option2",
        titled: "value1",
        legacy: "opt2",
        multi: ["option1"],
      }]),
    );
    assert.deepEqual(asked.map((params) => params.requestedSchema), [DEFAULTS, ENUMS]);
  } finally {
    await close();
  }
});

Deno.test("elicitation: decline and cancel reach the handler as they are", async () => {
  for (const action of ["decline", "cancel"] as const) {
    const { client, close } = await connect(() => ({ action }));
    try {
      const result = await client.callTool({ name: "shelf", arguments: { message: "Where?" } });
      assert.equal(textOf(result), JSON.stringify([action]));
    } finally {
      await close();
    }
  }
});

Deno.test("elicitation (hostile): an answer that breaks the form is a cancel", async () => {
  const wrong = [
    { note: "no shelf" }, // required missing
    { shelf: "3" }, // a string for an integer
    { shelf: 1.5 }, // not an integer
    { shelf: 0 }, // below the minimum
    { shelf: 2, extra: "x" }, // a field the form has not
  ];
  for (const content of wrong) {
    const { client, close } = await connect(() => ({ action: "accept", content }));
    try {
      const result = await client.callTool({ name: "shelf", arguments: { message: "Where?" } });
      assert.equal(textOf(result), JSON.stringify(["cancel"]), JSON.stringify(content));
    } finally {
      await close();
    }
  }
  // A Standard Schema's form goes out as JSON Schema; its own rules (max 3) are checked too.
  let count = 2;
  const { client, close } = await connect(() => ({ action: "accept", content: { count } }));
  try {
    assert.equal(
      textOf(await client.callTool({ name: "typed", arguments: {} })),
      '["accept",{"count":2}]',
    );
    count = 9;
    assert.equal(textOf(await client.callTool({ name: "typed", arguments: {} })), '["cancel"]');
  } finally {
    await close();
  }
});

Deno.test("elicitation: concurrent questions of one session keep their answers apart", async () => {
  const { client, close } = await connect(async ({ message }) => {
    // The first asked answers last: answers must not be matched by order.
    await new Promise((resolve) => setTimeout(resolve, message === "one" ? 60 : 0));
    return { action: "accept", content: { shelf: message === "one" ? 1 : 2 } };
  });
  try {
    const [one, two] = await Promise.all([
      client.callTool({ name: "shelf", arguments: { message: "one" } }),
      client.callTool({ name: "shelf", arguments: { message: "two" } }),
    ]);
    assert.equal(textOf(one), JSON.stringify(["accept", { shelf: 1 }]));
    assert.equal(textOf(two), JSON.stringify(["accept", { shelf: 2 }]));
  } finally {
    await close();
  }
});

Deno.test("elicitation: a client without elicitation is unsupported, in either era", async () => {
  for (const era of ["legacy", "modern"] as const) {
    const without = await connect(undefined, {}, era);
    try {
      const result = await without.client.callTool({ name: "shelf", arguments: { message: "?" } });
      assert.equal(textOf(result), '["unsupported"]');
    } finally {
      await without.close();
    }
  }
});

Deno.test("elicitation, 2026 era: the question goes back to the client and the call runs again", async () => {
  let shelf = 3;
  const modern = await connect(() => ({ action: "accept", content: { shelf } }), {}, "modern");
  try {
    const result = await modern.client.callTool({
      name: "shelf",
      arguments: { message: "Where?" },
    });
    assert.equal(textOf(result), JSON.stringify(["accept", { shelf: 3 }]));
    assert.equal(modern.asked.length, 1);
    assert.deepEqual(modern.asked[0].requestedSchema, SHELF);
    // Two questions in one run: two rounds, the first answer carried into the second.
    const both = await modern.client.callTool({ name: "twice", arguments: {} });
    assert.equal(
      textOf(both),
      JSON.stringify([["accept", { shelf: 3 }], ["accept", { shelf: 3 }]]),
    );
    assert.equal(modern.asked.length, 3);
    // Hostile: an answer that breaks the form is a cancel here too.
    shelf = 0;
    const wrong = await modern.client.callTool({ name: "shelf", arguments: { message: "?" } });
    assert.equal(textOf(wrong), '["cancel"]');
  } finally {
    await modern.close();
  }
});

Deno.test("elicitation (hostile): a client that never answers: the call ends at the deadline", async () => {
  let release = () => {};
  const never = new Promise<never>((_resolve, reject) => release = () => reject(new Error("end")));
  const { client, close } = await connect(() => never, { timeoutMs: 100 });
  try {
    const result = await client.callTool({ name: "shelf", arguments: { message: "?" } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^503 Service Unavailable/);
  } finally {
    release();
    await close();
  }
});

Deno.test("elicitation (hostile): a client that never answers may cancel the call", async () => {
  let release = () => {};
  const never = new Promise<never>((_resolve, reject) => release = () => reject(new Error("end")));
  const { client, asked, close } = await connect(() => never);
  try {
    const stop = new AbortController();
    const call = client.callTool({ name: "shelf", arguments: { message: "?" } }, {
      signal: stop.signal,
    });
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    await assert.rejects(call);
  } finally {
    release();
    await close();
  }
});

Deno.test("elicitation over stdio: asked, logged, and a destructive call confirmed", async () => {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", new URL("./interaction_stdio.ts", import.meta.url).pathname],
    env: childEnv(),
  });
  const client = new Client({ name: "test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
  });
  const lines: unknown[] = [];
  client.setNotificationHandler("notifications/message", (note) => void lines.push(note.params));
  let confirm = false;
  client.setRequestHandler(
    "elicitation/create",
    (request) =>
      request.params.message.startsWith('"remove"')
        ? { action: "accept" as const, content: { confirm } as Record<string, boolean | number> }
        : { action: "accept" as const, content: { shelf: 4 } },
  );
  await client.connect(transport);
  try {
    const shelf = await client.callTool({ name: "shelf", arguments: {} });
    assert.deepEqual(JSON.parse(textOf(shelf)), { action: "accept", content: { shelf: 4 } });
    assert.deepEqual(lines, [{ level: "info", data: "asking" }]);
    const refused = await client.callTool({ name: "remove", arguments: {} });
    assert.equal(textOf(refused), "aborted");
    confirm = true;
    // The first removal that ran: the refused one never did.
    assert.equal(textOf(await client.callTool({ name: "remove", arguments: {} })), "1");
  } finally {
    await client.close();
  }
});

Deno.test("elicitation across instances: the answer reaches the instance running the call", async () => {
  // Two handlers sharing the session store and the cancellation channel, behind a
  // balancer that alternates: the call's POST and the answer's POST reach different ones.
  const sessions = memoryMcpSessions();
  const cancellations = memoryBus();
  const handlers = [0, 1].map(() =>
    createMcpHandler(tree, { warnMissingHints: false, sessions, cancellations })
  );
  let turn = 0;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => handlers[turn++ % 2](request),
  );
  const client = new Client({ name: "test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
  });
  client.setRequestHandler("elicitation/create", () => ({
    action: "accept" as const,
    content: { shelf: 7 },
  }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
  );
  try {
    for (let call = 0; call < 2; call++) {
      const result = await client.callTool({ name: "shelf", arguments: { message: "?" } });
      assert.equal(textOf(result), JSON.stringify(["accept", { shelf: 7 }]));
    }
  } finally {
    await client.close();
    for (const mcp of handlers) await mcp.close();
    await server.shutdown();
  }
});
