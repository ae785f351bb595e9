// MCP's tasks extension (io.modelcontextprotocol/tasks) driven by a real
// client: @modelcontextprotocol/ext-tasks's requester, 2026-07-28 framing,
// over the official SDK client and HTTP, against serve()'s handler (REST and
// MCP sharing one task runtime). A long-running leaf's call is a task: its
// progress, a question answered through tasks/update, its result; a cancel
// that aborts the handler; another identity refused; the task started over
// MCP read over REST (`/.tasks/{id}`), the same record, and one started over
// REST read and cancelled over MCP; and a 2025-era client, which waits for the
// result as for any tool.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  type TaskExecutionEvent,
} from "@modelcontextprotocol/ext-tasks/client";
import { z } from "zod";
import { api, ask, HttpError, op, progress } from "@ramify/api/tree";
import { createHandler } from "@ramify/api/serve";
import { answerOf, modernRequest } from "../support/mcp_wire.ts";
import { byBearer } from "../support/bearer.ts";

const TASKS = "io.modelcontextprotocol/tasks";
const ANN = "Bearer ann";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let aborted = false;
const tree = byBearer(api({
  reindex: op(async ({ shelves }, context) => {
    progress(context, 1, shelves, "shelf 1");
    // Long enough for a poll to see the progress before the question.
    await sleep(700);
    const answer = await ask(context, {
      message: `Reindex ${shelves} shelves?`,
      schema: { type: "object", properties: { go: { type: "boolean" } }, required: ["go"] },
    });
    if (answer.action !== "accept" || answer.content.go !== true) {
      throw new HttpError(409, "Not confirmed");
    }
    progress(context, shelves, shelves, "done");
    return { indexed: shelves };
  }, {
    input: z.object({ shelves: z.number().int() }),
    tags: { readOnly: true, longRunning: true },
  }),
  wait: op(async (_input, context) => {
    await new Promise((_resolve, reject) =>
      context.signal?.addEventListener("abort", () => {
        aborted = true;
        reject(context.signal?.reason);
      }, { once: true })
    );
    return "never";
  }, { tags: { readOnly: true, longRunning: true } }),
}));

const capabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };

/** Posts one 2026-07-28 request as `authorization`, with the routing headers it needs. */
async function post(url: string, request: Record<string, unknown>, authorization: string) {
  const { id, init } = modernRequest(request as { method: string }, { authorization });
  return await answerOf(await fetch(url, init), id);
}

/** The requester's raw path, for the task methods the SDK client does not send. */
function dispatchAs(url: string, authorization: string): RawClientDispatch {
  return async (request) => {
    const message = await post(url, request as Record<string, unknown>, authorization);
    return message.error === undefined
      ? { kind: "result", result: message.result as never }
      : { kind: "error", error: message.error as never };
  };
}

async function served(run: (base: string) => Promise<void>): Promise<void> {
  const handler = await createHandler(tree, { graphql: false, docs: false });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => (await handler.fetch(request))!,
  );
  try {
    await run(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await handler.close();
    await server.shutdown();
  }
}

async function session(url: string, answers: Record<string, unknown>[]) {
  const client = new Client({ name: "tasks-test", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: ANN } },
    }),
  );
  return createTaskSessionFromClient(client, {
    endpointId: "ramify-tasks-test",
    rawDispatch: dispatchAs(url, ANN),
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: { name: "tasks-test", version: "1.0.0" },
      clientCapabilities: capabilities,
    },
    onInputRequest: (request) => {
      answers.push(request.params ?? {});
      return Promise.resolve({ action: "accept", content: { go: true } }) as never;
    },
  });
}

Deno.test("MCP tasks: the ext-tasks requester drives a long-running leaf over HTTP", async (t) => {
  await served(async (base) => {
    const url = `${base}/mcp`;
    const questions: Record<string, unknown>[] = [];
    const tasks = await session(url, questions);
    let taskId = "";
    let result: unknown;
    try {
      await t.step("created, its progress seen, its question answered, its result", async () => {
        const execution = await tasks.callTool("reindex", { shelves: 2 });
        assert.equal(execution.kind, "task");
        taskId = execution.handle!.taskId;
        const events: TaskExecutionEvent<unknown>[] = [];
        const { outcome } = await execution.settle({ onEvent: (event) => void events.push(event) });
        assert.equal(
          outcome.status,
          "completed",
          String((outcome as { error?: Error }).error?.stack),
        );
        result = (outcome as { result: unknown }).result;
        const content = (result as { content: { text: string }[] }).content;
        assert.deepEqual(JSON.parse(content[0].text), { indexed: 2 });
        const messages = events.flatMap((event) =>
          event.type === "task" ? [event.task.statusMessage] : []
        );
        assert.ok(messages.includes("shelf 1"), `progress seen: ${JSON.stringify(messages)}`);
        assert.equal(questions.length, 1);
        assert.equal(questions[0].message, "Reindex 2 shelves?");
      });

      await t.step("the same record over REST, from the same serve()", async () => {
        const response = await fetch(`${base}/.tasks/${taskId}`, {
          headers: { authorization: ANN },
        });
        assert.equal(response.status, 200);
        const document = await response.json();
        assert.equal(document.id, taskId);
        assert.equal(document.status, "completed");
        assert.deepEqual(document.result, { indexed: 2 });
        assert.equal(document.progress.message, "done");
      });

      await t.step("another identity: not found, over MCP and REST", async () => {
        const other = await post(url, {
          method: "tasks/get",
          params: {
            taskId,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": capabilities,
            },
          },
        }, "Bearer bob");
        assert.equal((other.error as { code: number }).code, -32602);
        const response = await fetch(`${base}/.tasks/${taskId}`, {
          headers: { authorization: "Bearer bob" },
        });
        assert.equal(response.status, 404);
        await response.body?.cancel();
      });

      await t.step("a 2025-era client waits for the result, with progress, as today", async () => {
        const legacy = new Client({ name: "legacy", version: "1.0.0" }, {
          capabilities: { elicitation: { form: {} } },
        });
        legacy.setRequestHandler("elicitation/create", () => ({
          action: "accept",
          content: { go: true },
        }));
        await legacy.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: ANN } },
          }),
        );
        try {
          const progress: { progress: number; message?: string }[] = [];
          const result = await legacy.callTool({ name: "reindex", arguments: { shelves: 3 } }, {
            onprogress: (update) => void progress.push(update),
          });
          assert.equal("taskId" in result, false);
          const [first] = result.content as { text: string }[];
          assert.deepEqual(JSON.parse(first.text), { indexed: 3 });
          assert.deepEqual(progress.map((update) => update.message), ["shelf 1", "done"]);
        } finally {
          await legacy.close();
        }
      });

      await t.step("started over REST, read and cancelled over MCP", async () => {
        aborted = false;
        // A read-only leaf's route is a GET.
        const started = await fetch(`${base}/wait`, { headers: { authorization: ANN } });
        assert.equal(started.status, 202);
        const { id } = await started.json();
        const meta = {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        };
        const read = await post(
          url,
          { method: "tasks/get", params: { taskId: id, _meta: meta } },
          ANN,
        );
        assert.equal((read.result as { status: string }).status, "working");
        await post(url, { method: "tasks/cancel", params: { taskId: id, _meta: meta } }, ANN);
        const after = await fetch(`${base}/.tasks/${id}`, { headers: { authorization: ANN } });
        assert.equal((await after.json()).status, "cancelled");
        await sleep(20);
        assert.equal(aborted, true);
      });

      await t.step("cancelled: the handler's signal aborts, the task ends cancelled", async () => {
        aborted = false;
        const execution = await tasks.callTool("wait", {});
        assert.equal(execution.kind, "task");
        await sleep(100);
        await execution.cancel();
        const outcome = await execution.result();
        assert.equal(outcome.status, "cancelled");
        assert.equal(aborted, true);
      });
    } finally {
      await tasks.close();
    }
  });
});
