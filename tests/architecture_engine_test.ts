// One call engine (engine/engine.ts): every surface makes a call's context
// and runs its prepared call there, once per call, and nowhere else. Counted
// through each way in (REST, GraphQL over HTTP, MCP `tools/call`, a resource
// read and a prompt, the CLI, a task's status resource), and held statically:
// no module outside the engine runs a call (`runCall`) or puts the `context`
// option's values on a context (`assignOwn`), and no module outside the
// catalogue prepares one (`createCall`).
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createHandler } from "@ramify/api/serve";
import { runCli } from "@ramify/api/cli";
import { prompt } from "@ramify/api/tools";
import { engineCounts } from "../engine/engine.ts";
import { memoryIo } from "./support/cli_io.ts";
import { modernRequest } from "./support/mcp_wire.ts";

const tree = api({
  ping: op(({ to }) => `pong ${to}`, http.post, {
    input: z.object({ to: z.string() }),
    tags: { readOnly: true },
  }),
  greeting: prompt(({ name }) => `Say hello to ${name}`, { input: z.object({ name: z.string() }) }),
  reindex: op(() => ({ indexed: 1 }), http.post, { tags: { longRunning: true } }),
});

/** The engine's counts a step adds. */
async function counted(step: () => Promise<void>): Promise<{ contexts: number; calls: number }> {
  const before = engineCounts();
  await step();
  const after = engineCounts();
  return { contexts: after.contexts - before.contexts, calls: after.calls - before.calls };
}

Deno.test("architecture: every way in makes a call's context and runs its call in the engine, once", async () => {
  const handler = await createHandler(tree, { docs: false, context: () => ({ tenant: "acme" }) });
  const send = async (path: string, init: RequestInit) => {
    const response = await handler.fetch(new Request(`http://localhost${path}`, init));
    const text = await response!.text();
    assert.ok(response!.status < 300, `${path}: ${response!.status} ${text}`);
    return text;
  };
  const json = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const mcp = (method: string, params: Record<string, unknown>) =>
    modernRequest({
      method,
      id: 1,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }).init;
  const once = { contexts: 1, calls: 1 };
  try {
    // Each call, through its way in, and what its answer says.
    const calls: [string, RequestInit, RegExp][] = [
      ["/ping", json({ to: "rest" }), /pong rest/],
      ["/graphql", json({ query: '{ ping(to: "graphql") }' }), /pong graphql/],
      ["/mcp", mcp("tools/call", { name: "ping", arguments: { to: "mcp" } }), /pong mcp/],
      [
        "/mcp",
        mcp("prompts/get", { name: "greeting", arguments: { name: "Ann" } }),
        /Say hello to Ann/,
      ],
    ];
    for (const [path, init, answered] of calls) {
      const count = await counted(async () => assert.match(await send(path, init), answered));
      assert.deepEqual(count, once, String(answered));
    }
    // A task: its context made once; run twice, the route's start (which keeps
    // the task) and the leaf's call in the task, both in the engine.
    let location = "";
    assert.deepEqual(
      await counted(async () => {
        const response = await handler.fetch(new Request("http://localhost/reindex", json({})));
        assert.equal(response!.status, 202);
        location = response!.headers.get("location")!;
        await response!.body?.cancel();
        // Until its call has run.
        for (let tries = 0; tries < 200; tries++) {
          const status = JSON.parse(await send(location, {}));
          if (status.status === "completed") break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }).then((count) => ({ calls: count.calls, started: count.contexts >= 1 })),
      { calls: 2, started: true },
    );
    // A status resource makes its caller's context once and runs no call.
    assert.deepEqual(await counted(() => send(location, {}).then(() => {})), {
      contexts: 1,
      calls: 0,
    });
  } finally {
    await handler.close?.();
  }
  const io = memoryIo();
  assert.deepEqual(
    await counted(async () => {
      assert.equal(await runCli(tree, ["ping", "--to", "cli"], { io }), 0);
    }),
    once,
  );
  assert.match(io.stdout.join(""), /pong cli/);
});

/** The library's source files, by path. */
async function sources(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const folders = [
    "tree",
    "engine",
    "route",
    "web",
    "client",
    "http",
    "graphql",
    "tools",
    "cli",
    "serve",
    "tasks",
    "auth",
  ];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) found.set(path, await Deno.readTextFile(path));
    }
  };
  for (const folder of folders) await walk(new URL(`../${folder}`, import.meta.url).pathname);
  return found;
}

/** The files (relative to the repository) that call `name(` outside comments. */
function callers(files: Map<string, string>, name: string): string[] {
  // Not a method, nor a name in a string (an error message).
  const call = new RegExp(`(?<![\\w."'\`])${name}\\(`);
  const root = new URL("../", import.meta.url).pathname;
  return [...files].filter(([, text]) =>
    text.split("\n").some((line) => {
      const code = line.trim();
      return !code.startsWith("*") && !code.startsWith("//") && call.test(code) &&
        !code.startsWith(`export function ${name}`);
    })
  ).map(([path]) => path.slice(root.length)).sort();
}

/** The files (but tree/run.ts, which defines it) that name `name` outside comments and re-exports. */
function users(files: Map<string, string>, name: string): string[] {
  const named = new RegExp(`(?<![\\w."'\`])${name}\\b`);
  const root = new URL("../", import.meta.url).pathname;
  return [...files].filter(([path, text]) =>
    !path.endsWith("tree/run.ts") && text.split("\n").some((line) => {
      const code = line.trim();
      return !code.startsWith("*") && !code.startsWith("//") && !code.startsWith("export {") &&
        named.test(code);
    })
  ).map(([path]) => path.slice(root.length)).sort();
}

Deno.test("architecture: calls are run and contexts made only in the engine; calls prepared only in the catalogue", async () => {
  const files = await sources();
  // The engine's `perform` is `runCall` itself; no other module names it (its public re-export aside).
  assert.deepEqual(users(files, "runCall"), ["engine/engine.ts"]);
  // tree/context.ts defines it, and `extended` (middleware's copies) uses it.
  assert.deepEqual(callers(files, "assignOwn"), ["engine/engine.ts", "tree/context.ts"]);
  assert.deepEqual(callers(files, "createCall"), ["tree/catalogue.ts"]);
});
