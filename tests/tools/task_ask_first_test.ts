// A long-running leaf's questions asked before its task is made
// (`meta.tools.askFirst`): a 2026-07-28 client of the tasks extension gets an
// input round first (no task yet), then, calling again with the answer, the
// task, which starts with it: the handler's ask of the same key is answered at
// once, never `input_required`. A client without the extension, and one of
// 2025, are asked when the handler asks, as for any question. A tree that
// declares such questions on a leaf that is not long-running, or without keys,
// is refused when the server is made.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, ask, type FormSchema, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { answerOf, modernRequest } from "../support/mcp_wire.ts";

const TASKS = "io.modelcontextprotocol/tasks";
const NAME = {
  key: "user_name",
  message: "What is your name?",
  schema: {
    type: "object",
    properties: { name: { type: "string" } },
    required: ["name"],
  } satisfies FormSchema,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let asked = 0;
const tree = api({
  greet: op(async (_input, context) => {
    asked++;
    const said = await ask(context, NAME);
    await sleep(50);
    return said.action === "accept" ? `Hello, ${said.content.name}` : `No name: ${said.action}`;
  }, { tags: { readOnly: true, longRunning: true }, tools: { askFirst: [NAME] } }),
});

const meta = (capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

/** Posts one 2026-07-28 request: its JSON-RPC answer. */
async function post(url: string, method: string, params: Record<string, unknown>) {
  const { id, init } = modernRequest({ method, params });
  return await answerOf(await fetch(url, init), id) as {
    result?: Record<string, unknown>;
    error?: { code: number };
  };
}

Deno.test("MCP tasks: askFirst questions are an input round before the task", async (t) => {
  const mcp = createMcpHandler(tree, { onError: () => {} });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  try {
    await t.step(
      "a client of the extension: the round, then the task with the answer",
      async () => {
        asked = 0;
        const capabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
        const first = await post(url, "tools/call", {
          name: "greet",
          arguments: {},
          _meta: meta(capabilities),
        });
        const round = first.result!;
        assert.equal(round.resultType, "input_required");
        assert.equal("taskId" in round, false);
        const requests = round.inputRequests as Record<string, { params: { message: string } }>;
        assert.deepEqual(Object.keys(requests), ["user_name"]);
        assert.equal(requests.user_name.params.message, "What is your name?");
        assert.equal(asked, 0, "no handler ran before the task");

        const second = await post(url, "tools/call", {
          name: "greet",
          arguments: {},
          inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
          ...(round.requestState === undefined ? {} : { requestState: round.requestState }),
          _meta: meta(capabilities),
        });
        const handle = second.result!;
        assert.equal(handle.resultType, "task");
        assert.equal(typeof handle.taskId, "string");
        assert.equal("requestState" in handle, false);
        assert.equal("inputRequests" in handle, false);

        const statuses: string[] = [];
        let task: Record<string, unknown> = {};
        for (let tries = 0; tries < 100; tries++) {
          task =
            (await post(url, "tasks/get", { taskId: handle.taskId, _meta: meta(capabilities) }))
              .result!;
          statuses.push(String(task.status));
          if (task.status === "completed") break;
          await sleep(20);
        }
        assert.equal(task.status, "completed");
        assert.equal(statuses.includes("input_required"), false, statuses.join());
        const result = task.result as { content: { text: string }[] };
        assert.equal(result.content[0].text, "Hello, Alice");
        assert.equal(asked, 1, "the handler ran once, in the task");
      },
    );

    await t.step("a 2026 client without the extension: asked when the handler asks", async () => {
      const capabilities = { elicitation: { form: {} } };
      const first = await post(url, "tools/call", {
        name: "greet",
        arguments: {},
        _meta: meta(capabilities),
      });
      assert.equal(first.result!.resultType, "input_required");
      const second = await post(url, "tools/call", {
        name: "greet",
        arguments: {},
        inputResponses: { user_name: { action: "accept", content: { name: "Bo" } } },
        requestState: first.result!.requestState,
        _meta: meta(capabilities),
      });
      const content = second.result!.content as { text: string }[];
      assert.equal(content[0].text, "Hello, Bo");
    });

    await t.step("a 2025-era client: an elicitation from the running handler", async () => {
      const legacy = new Client({ name: "legacy", version: "1.0.0" }, {
        capabilities: { elicitation: { form: {} } },
      });
      legacy.setRequestHandler("elicitation/create", () => ({
        action: "accept",
        content: { name: "Cy" },
      }));
      await legacy.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const result = await legacy.callTool({ name: "greet", arguments: {} });
        assert.equal((result.content as { text: string }[])[0].text, "Hello, Cy");
      } finally {
        await legacy.close();
      }
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});

Deno.test("MCP tasks: askFirst on a leaf that is not long-running, or keyless, is refused", () => {
  assert.throws(
    () => createMcpHandler(api({ now: op(() => 1, { tools: { askFirst: [NAME] } }) })),
    /meta\.tools\.askFirst is for a long-running leaf/,
  );
  const keyless = { message: NAME.message, schema: NAME.schema } as unknown as typeof NAME;
  assert.throws(
    () =>
      createMcpHandler(api({
        job: op(() => 1, { tags: { longRunning: true }, tools: { askFirst: [keyless] } }),
      })),
    /needs a key for each question/,
  );
});
