// Node: a long-running leaf driven over MCP's tasks extension by the
// extension's own requester (@modelcontextprotocol/ext-tasks, 2026-07-28
// framing) on the official SDK client, against `serve()` of the built
// package. The leaf runs the example bookstore's own `catalog.reindex` work
// (examples/bookstore_reindex.ts, its types stripped by the proof into
// bookstore_reindex.mjs beside this suite): shelves 1 to 40, one progress
// report per shelf, stopping when its signal aborts; declared and guarded as
// the example declares it, by a staff bearer token (`auth()`). Checks: a call without the token makes no task;
// a task is created, its progress seen, its result inlined once completed;
// a cancel ends the next one `cancelled` and aborts its handler.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { api, auth, use } from "@ramify/api";
import { op } from "@ramify/api/tree";
import { serve } from "@ramify/api/serve";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { within } from "./fixture.mjs";

// Written beside the suite by the proof (not in the repository): read by URL,
// so that `deno check` of the repository does not look for it.
const { reindex } = await import(new URL("./bookstore_reindex.mjs", import.meta.url).href);

const TASKS = "io.modelcontextprotocol/tasks";
const STAFF = "Bearer staff-token";
const capabilities = { extensions: { [TASKS]: {} } };
const options = { timeout: 60_000 };
/** The store the work reads: three books. */
const store = { list: () => Promise.resolve([{ id: "1" }, { id: "2" }, { id: "3" }]) };
/** The example's pace: one shelf takes 300 ms. */
const SHELF_MS = 300;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bookstore's catalog with its reindex; `stopped` counts handlers whose signal aborted. */
function catalog() {
  const seen = { stopped: 0 };
  const staff = use(auth({
    from: "bearer",
    verify: (token) => token === "staff-token" ? { name: "staff" } : undefined,
  }));
  const tree = api({
    catalog: api({
      reindex: op((input, ctx) => {
        ctx.signal?.addEventListener("abort", () => seen.stopped++, { once: true });
        return reindex(store, input.shelves, ctx);
      }, {
        tags: { longRunning: true, idempotent: true, destructive: false },
        input: z.object({ shelves: z.number().int().min(1).max(40).default(10) }),
        output: z.object({ indexed: z.number().int(), shelves: z.number().int() }),
        description: "Rebuilds the search index, shelf by shelf",
      }, staff),
    }),
  });
  return { tree, seen };
}

/** The JSON-RPC answer to a raw 2026-07-28 request: plain JSON or the stream's event. */
async function answerOf(response, id) {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return JSON.parse(text);
  }
  return text.split("\n").filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6))).find((event) => event.id === id);
}

/** The requester's raw path: the task methods, posted with their routing headers. */
function dispatchAs(url, authorization) {
  return async (request) => {
    const id = Math.floor(Math.random() * 1e9);
    const name = request.params?.name ?? request.params?.taskId;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": request.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...request, id }),
    });
    const message = await answerOf(response, id);
    return message.error === undefined
      ? { kind: "result", result: message.result }
      : { kind: "error", error: message.error };
  };
}

/** A requester session on `url`, as `authorization`. */
async function session(url, authorization) {
  const client = new Client({ name: "npm-tasks", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: authorization === undefined ? {} : { authorization } },
    }),
  );
  const tasks = createTaskSessionFromClient(client, {
    endpointId: "ramify-npm-tasks",
    rawDispatch: dispatchAs(url, authorization),
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: { name: "npm-tasks", version: "1.0.0" },
      clientCapabilities: capabilities,
    },
  });
  return {
    tasks,
    close: async () => {
      await tasks.close();
      await client.close();
    },
  };
}

async function served(check) {
  const { tree, seen } = catalog();
  const server = await within(
    serve(tree, { port: 0, hostname: "127.0.0.1", quiet: true, mcp: { name: "npm-tasks" } }),
    "serve",
  );
  try {
    await check(`${server.url}/mcp`, seen);
  } finally {
    await server.close();
  }
}

test(
  "node MCP tasks: no staff token, no task: the call is refused as the example's",
  options,
  () =>
    served(async (url) => {
      const { tasks, close } = await session(url, undefined);
      try {
        const execution = await tasks.callTool("catalog.reindex", { shelves: 2 });
        assert.equal(execution.kind, "immediate");
        const { outcome } = await execution.settle();
        const result = outcome.result;
        assert.equal(result?.isError, true, JSON.stringify(outcome));
        assert.match(result.content[0].text, /^401 /);
      } finally {
        await close();
      }
    }),
);

test(
  "node MCP tasks: the ext-tasks requester creates a task, sees its progress and its result",
  options,
  () =>
    served(async (url) => {
      const { tasks, close } = await session(url, STAFF);
      try {
        const execution = await tasks.callTool("catalog.reindex", { shelves: 4 });
        assert.equal(execution.kind, "task");
        assert.match(execution.handle.taskId, /.+/);
        const events = [];
        const { outcome } = await execution.settle({ onEvent: (event) => void events.push(event) });
        assert.equal(outcome.status, "completed", JSON.stringify(outcome));
        assert.deepEqual(JSON.parse(outcome.result.content[0].text), { indexed: 3, shelves: 4 });
        assert.deepEqual(outcome.result.structuredContent, { indexed: 3, shelves: 4 });
        const messages = events.flatMap((event) =>
          event.type === "task" && event.task.statusMessage !== undefined
            ? [event.task.statusMessage]
            : []
        );
        assert.ok(
          messages.some((message) => /^shelf [1-3] of 4$/.test(message)),
          `progress seen while working: ${JSON.stringify(messages)}`,
        );
      } finally {
        await close();
      }
    }),
);

test(
  "node MCP tasks: a cancel ends the task cancelled and aborts its handler",
  options,
  () =>
    served(async (url, seen) => {
      const { tasks, close } = await session(url, STAFF);
      try {
        const execution = await tasks.callTool("catalog.reindex", { shelves: 40 });
        assert.equal(execution.kind, "task");
        await pause(2 * SHELF_MS);
        await execution.cancel();
        const outcome = await execution.result();
        assert.equal(outcome.status, "cancelled");
        for (let tries = 0; seen.stopped === 0 && tries < 50; tries++) await pause(20);
        assert.equal(seen.stopped, 1, "the handler's signal aborted");
      } finally {
        await close();
      }
    }),
);
