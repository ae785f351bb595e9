// The tasks extension's status notifications (`notifications/tasks`, SEP-2663)
// on a 2026-07-28 `subscriptions/listen` stream naming `taskIds`, heard by the
// official SDK client (its `listen()`) and by the ext-tasks requester over it.
// Two MCP handlers (two instances) share one task store: the task runs on the
// first, the client listens on the second, so every change it hears crossed
// the store, as between instances behind a balancer. Each change arrives in
// order and the last is the terminal status, after which the stream closes
// gracefully; another identity's listen naming the same task is acknowledged
// with no task and hears nothing; a listen naming tasks and a resource keeps
// both.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
} from "@modelcontextprotocol/ext-tasks/client";
import { z } from "zod";
import { api, op, progress } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { answerOf, modernRequest } from "../support/mcp_wire.ts";
import { createTasks, memoryTasks } from "@ramify/api/tasks";
import { byBearer } from "../support/bearer.ts";

const TASKS = "io.modelcontextprotocol/tasks";
const capabilities = { extensions: { [TASKS]: {} } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tree = byBearer(api({
  reindex: op(async ({ shelves }, context) => {
    for (let shelf = 1; shelf <= shelves; shelf++) {
      // Past the runtime's 20 ms coalescing: each shelf is its own change.
      await sleep(250);
      progress(context, shelf, shelves, `shelf ${shelf}`);
    }
    return { indexed: shelves };
  }, {
    input: z.object({ shelves: z.number().int() }),
    tags: { readOnly: true, longRunning: true },
  }),
  page: op(() => "a page", { tags: { readOnly: true }, tools: { updates: "pageChanges" } }),
  pageChanges: op(async function* (_input, { signal }) {
    await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
    yield* [];
  }, { tags: { readOnly: true, streaming: true }, tools: { tool: false, resource: false } }),
}));

/** Two instances of one server, sharing one task store as two processes share Redis. */
async function instances(run: (first: string, second: string) => Promise<void>) {
  const store = memoryTasks();
  const runtimes = [createTasks({ store }), createTasks({ store })];
  const handlers = runtimes.map((tasks) => createMcpHandler(tree, { tasks, onError: () => {} }));
  const servers = handlers.map((handler) =>
    Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, handler)
  );
  try {
    const [first, second] = servers.map((server) => `http://127.0.0.1:${server.addr.port}/mcp`);
    await run(first, second);
  } finally {
    for (const handler of handlers) await handler.close();
    for (const server of servers) await server.shutdown();
    for (const tasks of runtimes) await tasks.close();
  }
}

/** A 2026-07-28 client of the extension, as `authorization`; every notification it hears. */
async function client(url: string, authorization: string) {
  const heard: { method: string; params?: Record<string, unknown> }[] = [];
  const made = new Client({ name: "listener", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  made.fallbackNotificationHandler = (notification) => {
    heard.push(notification as (typeof heard)[number]);
    return Promise.resolve();
  };
  await made.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization } },
    }),
  );
  return { client: made, heard };
}

/** Starts a reindex on `url` as `authorization` (a raw 2026-07-28 call): its task id. */
async function started(url: string, authorization: string, shelves: number): Promise<string> {
  const answer = await dispatchAs(url, authorization)({
    method: "tools/call",
    params: {
      name: "reindex",
      arguments: { shelves },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
      },
    },
  } as never);
  assert.equal(answer.kind, "result", JSON.stringify(answer));
  const result = (answer as { result: { resultType?: string; taskId?: string } }).result;
  assert.equal(result.resultType, "task");
  return result.taskId!;
}

/** The requester's raw path (the task methods the SDK client does not send), as `authorization`. */
function dispatchAs(url: string, authorization: string): RawClientDispatch {
  return async (request) => {
    const message = request as { method: string; params?: Record<string, unknown> };
    const { id, init } = modernRequest(message, { authorization });
    const answer = await answerOf(await fetch(url, init), id);
    return answer.error === undefined
      ? { kind: "result", result: answer.result as never }
      : { kind: "error", error: answer.error as never };
  };
}

/** The `notifications/tasks` heard, as status and message. */
function statuses(heard: { method: string; params?: Record<string, unknown> }[]) {
  return heard.filter(({ method }) => method === "notifications/tasks")
    .map(({ params }) => `${params?.status} ${params?.statusMessage ?? ""}`.trim());
}

Deno.test("MCP tasks: status notifications on the owner's listen stream, across instances", async (t) => {
  await instances(async (first, second) => {
    await t.step(
      "each change in order, the terminal status last, then a graceful close",
      async () => {
        const id = await started(first, "Bearer ann", 3);
        const { client: listener, heard } = await client(second, "Bearer ann");
        try {
          const subscription = await listener.listen({ taskIds: [id] } as never);
          // The server ends a listen naming only tasks once each has ended.
          const cause = await Promise.race([
            subscription.closed,
            sleep(5000).then(() => "timeout"),
          ]);
          assert.equal(cause, "graceful");
          // How the task stood when the listen began (working, before shelf 1 or at it), then each
          // change; the last shelf's progress and the end were one write, so they arrive as one.
          const said = statuses(heard);
          assert.deepEqual(said[0] === "working" ? said.slice(1) : said, [
            "working shelf 1",
            "working shelf 2",
            "completed shelf 3",
          ]);
          const last = heard.filter(({ method }) => method === "notifications/tasks").at(-1)!;
          assert.equal(last.params?.taskId, id);
          const result = last.params?.result as { content: { text: string }[] };
          assert.deepEqual(JSON.parse(result.content[0].text), { indexed: 3 });
          const meta = last.params?._meta as Record<string, unknown>;
          assert.equal(typeof meta["io.modelcontextprotocol/subscriptionId"], "string");
        } finally {
          await listener.close();
        }
      },
    );

    await t.step(
      "another identity's listen: acknowledged with no task, hears nothing",
      async () => {
        const id = await started(first, "Bearer ann", 2);
        const { client: owner, heard: owners } = await client(second, "Bearer ann");
        const { client: other, heard: others } = await client(second, "Bearer bob");
        try {
          const mine = await owner.listen({ taskIds: [id] } as never);
          const theirs = await other.listen({ taskIds: [id] } as never);
          assert.equal(await Promise.race([mine.closed, sleep(5000)]), "graceful");
          assert.equal(await Promise.race([theirs.closed, sleep(100)]), "graceful");
          assert.equal(statuses(owners).at(-1), "completed shelf 2");
          assert.deepEqual(statuses(others), []);
          // The acknowledgement names no task (what the SDK client keeps of it may drop the member).
          const ack = theirs.honoredFilter as { taskIds?: string[] };
          assert.ok(ack.taskIds === undefined || ack.taskIds.length === 0, JSON.stringify(ack));
        } finally {
          await owner.close();
          await other.close();
        }
      },
    );

    await t.step("tasks and a resource on one listen: both followed, one stream", async () => {
      const id = await started(first, "Bearer ann", 2);
      const { client: listener, heard } = await client(second, "Bearer ann");
      try {
        const subscription = await listener.listen(
          { taskIds: [id], resourceSubscriptions: ["ramify://page"] } as never,
        );
        const deadline = Date.now() + 5000;
        while (statuses(heard).at(-1) !== "completed shelf 2" && Date.now() < deadline) {
          await sleep(50);
        }
        assert.equal(statuses(heard).at(-1), "completed shelf 2");
        assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, ["ramify://page"]);
        // The resource is still followed: the stream stays open after the task ended.
        assert.equal(
          await Promise.race([subscription.closed, sleep(200).then(() => "open")]),
          "open",
        );
      } finally {
        await listener.close();
      }
    });

    await t.step("the ext-tasks requester hears the task end from the stream", async () => {
      const { client: listener, heard } = await client(second, "Bearer ann");
      const tasks = createTaskSessionFromClient(listener, {
        endpointId: "ramify-notifications-test",
        rawDispatch: dispatchAs(second, "Bearer ann"),
        v2RequestFraming: {
          protocolVersion: "2026-07-28",
          clientInfo: { name: "listener", version: "1.0.0" },
          clientCapabilities: capabilities,
        },
      });
      try {
        const execution = await tasks.callTool("reindex", { shelves: 2 });
        assert.equal(execution.kind, "task");
        const subscription = await listener.listen(
          { taskIds: [execution.handle!.taskId] } as never,
        );
        const { outcome } = await execution.settle();
        assert.equal(outcome.status, "completed");
        assert.equal(await Promise.race([subscription.closed, sleep(2000)]), "graceful");
        // The requester passes what it does not handle on to the client's handler: each arrived.
        assert.equal(statuses(heard).at(-1), "completed shelf 2");
      } finally {
        await tasks.close();
        await listener.close();
      }
    });
  });
});
