// Tasks past one process (issue 47): three instances of the example, started
// as `deno task server` starts one, each with REDIS_URL to one real
// redis-server (so `catalog.reindex` runs on `redisTasks`), behind a real
// HAProxy, round robin without stickiness. A task started over MCP (the
// 2026-07-28 tasks extension) through the balancer runs on the instance that
// took the call; another instance reports it over HTTP, the command line
// cancels it through a third, and the first aborts its handler. An instance
// killed while its task runs leaves no task pending for ever: once its lease
// lapses, the next reader, on another instance, fails it.
import assert from "node:assert/strict";
import { haproxyMissing, withHaproxy } from "../support/haproxy.ts";
import { type Instance, withInstances } from "../support/instances.ts";
import { redisMissing, withRedis } from "../support/redis.ts";
import { answerOf, modernRequest } from "../support/mcp_wire.ts";

const missing = [await redisMissing(), await haproxyMissing()].filter((why) => why !== undefined);
const ignore = missing.length > 0;
if (ignore) console.warn(`skipped: ${missing.join("; ")}`);

const ROOT = new URL("../../", import.meta.url).pathname;
/** Not the dev token: the one the instances were given, as a deployment would. */
const TOKEN = "scale-tasks-token";
const AUTHORIZATION = `Bearer ${TOKEN}`;
const TASKS = "io.modelcontextprotocol/tasks";
/** The example's longest reindex (40 shelves of 300 ms): long enough to act on it while it runs. */
const SHELVES = 40;

/** The status document of `GET /.tasks/{id}`, as far as this test reads it. */
interface TaskDocument {
  id: string;
  status: string;
  progress?: { done: number; total?: number; message?: string };
  /** A problem (RFC 9457) once failed or cancelled. */
  error?: { status: number; title?: string; detail?: string };
}

/**
 * Waits for what other processes do, polling; gives up after 60 s, a guard
 * against hangs, not a timing assert (a lapsed lease takes three heartbeats
 * of 5 s, the runtime's default, plus a reader).
 */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!await done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The task as `url`'s instance reports it over HTTP, with the token that started it. */
async function status(url: string, id: string): Promise<TaskDocument> {
  const response = await fetch(`${url}/.tasks/${id}`, {
    headers: { authorization: AUTHORIZATION },
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text);
}

/** Polls `url`'s instance until the task's status is `wanted`; the document then. */
async function settles(url: string, id: string, wanted: string): Promise<TaskDocument> {
  let seen: TaskDocument | undefined;
  await until(`task ${id} ${wanted} at ${url}`, async () => {
    seen = await status(url, id);
    return seen.status === wanted;
  });
  return seen!;
}

/** One raw 2026-07-28 MCP request declaring the tasks extension; its result and who answered. */
async function mcp(url: string, method: string, params: Record<string, unknown>) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
  };
  const { id, init } = modernRequest(
    { method, id: 1, params: { ...params, _meta: meta } },
    { authorization: AUTHORIZATION },
  );
  const response = await fetch(`${url}/mcp`, init);
  assert.equal(response.status, 200);
  const message = await answerOf(response, id);
  assert.equal(message.error, undefined, JSON.stringify(message.error));
  return {
    result: message.result as Record<string, unknown>,
    backend: response.headers.get("x-backend"),
  };
}

/** `deno task cli -- ...`, as a user runs it: its exit code and output. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "cli", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout), err: decode(output.stderr) };
}

/** The instance HAProxy names `backend`, and the two others. */
function split(instances: readonly Instance[], backend: string | null) {
  const a = instances.find((instance) => instance.name === backend);
  assert.ok(a, `the balancer named ${backend}, none of ${instances.map((i) => i.name)}`);
  const [b, c] = instances.filter((instance) => instance !== a);
  return { a, b, c };
}

Deno.test({
  name:
    "tasks on Redis behind HAProxy: started over MCP, read over HTTP, cancelled from the CLI, " +
    "and a killed instance's task fails",
  ignore,
  fn: (t) =>
    withRedis((redis) =>
      withInstances(
        { count: 3, env: { REDIS_URL: redis.url, BOOKSTORE_TOKEN: TOKEN } },
        (instances) =>
          withHaproxy(instances, async (balancer) => {
            await t.step(
              "a task started over MCP on A is read over HTTP on B and cancelled from the CLI on C",
              async () => {
                // Stateless 2026-07-28 MCP: the balancer sends the call wherever; the
                // instance that took it (`x-backend`) runs the handler, and is A.
                const started = await mcp(balancer.url, "tools/call", {
                  name: "catalog.reindex",
                  arguments: { shelves: SHELVES },
                });
                assert.equal(started.result.resultType, "task", JSON.stringify(started.result));
                assert.equal(started.result.status, "working");
                const id = started.result.taskId as string;
                const { a, b, c } = split(instances, started.backend);

                // B reads what A's handler reports: its progress crosses Redis.
                await until("progress from A, read on B", async () => {
                  const seen = await status(b.url, id);
                  assert.equal(seen.status, "working", JSON.stringify(seen));
                  return (seen.progress?.done ?? 0) >= 1;
                });

                const cancelled = await cli(
                  "--url",
                  c.url,
                  "--token",
                  TOKEN,
                  "cancel",
                  id,
                  "--json",
                );
                assert.equal(cancelled.code, 0, cancelled.err);
                assert.equal(JSON.parse(cancelled.out).status, "cancelled", cancelled.out);

                // The cancel reached A through Redis's channel, where A aborts the handler's
                // signal; from outside its process that shows as the record every instance,
                // A's MCP included, now reads: cancelled, not completed.
                assert.equal((await status(b.url, id)).status, "cancelled");
                assert.equal((await status(a.url, id)).status, "cancelled");
                const read = await mcp(a.url, "tasks/get", { taskId: id });
                assert.equal(read.result.status, "cancelled", JSON.stringify(read.result));
                // The CLI again: the task had ended, so the cancel is refused, not repeated.
                const again = await cli("--url", c.url, "--token", TOKEN, "cancel", id);
                assert.notEqual(again.code, 0, again.out);
              },
            );

            await t.step(
              "an instance killed while its task runs: the task ends failed, read on another",
              async () => {
                const [victim, reader] = instances;
                const response = await fetch(`${victim.url}/catalog/reindex`, {
                  method: "PUT",
                  headers: { authorization: AUTHORIZATION, "content-type": "application/json" },
                  body: JSON.stringify({ shelves: SHELVES }),
                });
                const text = await response.text();
                assert.equal(response.status, 202, text);
                const { id } = JSON.parse(text) as TaskDocument;
                // Its handler runs on the victim: progress, read elsewhere.
                await until("progress from the victim", async () => {
                  const seen = await status(reader.url, id);
                  assert.equal(seen.status, "working", JSON.stringify(seen));
                  return (seen.progress?.done ?? 0) >= 1;
                });

                await victim.kill();
                await balancer.until("DOWN", [victim.name]);
                // Pending until its lease lapses; then failed, never pending for ever.
                const failed = await settles(reader.url, id, "failed");
                assert.equal(failed.error?.status, 500, JSON.stringify(failed));
                assert.match(failed.error?.detail ?? "", /stopped before it finished/);
                // Every live instance, and the balancer, read the same failed record.
                for (const other of instances.filter((instance) => instance.running)) {
                  assert.equal((await status(other.url, id)).status, "failed");
                }
                assert.equal((await status(balancer.url, id)).status, "failed");
              },
            );
          }),
      )
    ),
});
