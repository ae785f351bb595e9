// Long-running commands (tag `longRunning`): the command waits for its task by
// default, its progress on standard error (a bar on a terminal, lines in a
// pipe), and writes the result; `--detach` writes the handle, `status <id>`
// and `cancel <id>` read and cancel it, in process (a shared runtime) and
// against a server (`--url`, the HTTP client's task handle). Failures keep
// their one line and exit code: declared, fault (masked, observed), cancelled.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op, progress } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { runCli } from "@ramify/api/cli";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../support/server.ts";
import { byBearer } from "../support/bearer.ts";
import { memoryIo } from "../support/cli_io.ts";

const slow = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)));
  });

const tree = api({
  reindex: op(async ({ shelves, fail }, ctx) => {
    for (let shelf = 1; shelf <= shelves; shelf++) {
      await slow(20, ctx.signal);
      progress(ctx, shelf, shelves, `shelf ${shelf}`);
    }
    if (fail === "declared") throw new LeafError("LOCKED");
    if (fail === "fault") throw new Error("disk full at /secret/path");
    return { indexed: shelves };
  }, {
    tags: { longRunning: true },
    input: z.object({
      shelves: z.number().int().min(1),
      fail: z.enum(["declared", "fault"]).optional(),
    }),
    errors: { LOCKED: { status: 409, message: "The index is locked" } },
  }),
  ping: op(() => "pong", { tags: { readOnly: true } }),
});

/** The escape that clears a terminal's line to its end. */
const CLEAR = "\x1b[K";

function run(argv: string[], opts: Parameters<typeof runCli>[2] = {}, io = memoryIo()) {
  return runOwned(tree, argv, opts, io);
}

async function runOwned(
  served: typeof tree,
  argv: string[],
  opts: Parameters<typeof runCli>[2] = {},
  io = memoryIo(),
) {
  const code = await runCli(served, argv, { name: "shop", io, onError: () => {}, ...opts });
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

Deno.test("cli tasks: waits by default, progress as lines in a pipe, then the result", async () => {
  const done = await run(["reindex", "--shelves", "3", "--json"]);
  assert.deepEqual([done.code, done.out], [0, '{"indexed":3}\n']);
  assert.match(done.err, /progress: 3\/3 shelf 3\n/);
  assert.doesNotMatch(done.err, /\r/);
});

Deno.test("cli tasks: on a terminal the progress is one bar redrawn in place, cleared at the end", async () => {
  const done = await run(["reindex", "--shelves", "2"], {}, memoryIo({ terminal: true }));
  assert.equal(done.code, 0);
  assert.ok(done.err.includes(`\r${CLEAR}[${"#".repeat(24)}] 2/2 shelf 2`));
  assert.ok(done.err.endsWith(`\r${CLEAR}`));
  assert.doesNotMatch(done.err, /\n/);
});

Deno.test("cli tasks: a declared error, a fault (masked, observed) and a cancel keep their lines and codes", async () => {
  const declared = await run(["reindex", "--shelves", "1", "--fail", "declared"]);
  assert.equal(declared.code, 1);
  assert.match(declared.err, /error: 409 Conflict \[LOCKED\]: The index is locked\n/);
  const seen: unknown[] = [];
  const fault = await run(["reindex", "--shelves", "1", "--fail", "fault"], {
    onError: (error) => void seen.push(error),
  });
  assert.equal(fault.code, 1);
  assert.match(fault.err, /error: 500 Internal Server Error\n/);
  assert.doesNotMatch(fault.err, /secret/);
  assert.match(String(seen[0]), /disk full/);
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 60);
  const cancelled = await run(["reindex", "--shelves", "100"], { signal: stop.signal });
  assert.equal(cancelled.code, 130);
});

Deno.test("cli tasks: --detach writes the handle; status and cancel read it, in process and owned", async () => {
  const tasks = createTasks();
  // Owned by the principal the guard established from the token.
  const run = (argv: string[], opts = {}) => runOwned(byBearer(tree), argv, opts);
  try {
    const refused = await run(["reindex", "--shelves", "1", "--detach"]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--detach needs a task runtime/);
    const started = await run(
      ["reindex", "--shelves", "50", "--detach", "--json", "--token", "t1"],
      {
        tasks,
      },
    );
    assert.equal(started.code, 0);
    const handle = JSON.parse(started.out);
    assert.equal(handle.status, "working");
    const status = await run(["status", handle.id, "--json", "--token", "t1"], { tasks });
    assert.equal(JSON.parse(status.out).id, handle.id);
    const stranger = await run(["status", handle.id, "--token", "t2"], { tasks });
    assert.deepEqual([stranger.code, stranger.err], [1, "error: 404 Not Found: No such task\n"]);
    const cancelled = await run(["cancel", handle.id, "--json", "--token", "t1"], { tasks });
    assert.equal(JSON.parse(cancelled.out).status, "cancelled");
  } finally {
    await tasks.close();
  }
});

Deno.test("cli tasks: --url waits through the client's handle; --detach, status and cancel by id", async () => {
  await withServer(createFetch(tree, { onError: () => {}, tasks: createTasks() }), async (base) => {
    const local = await run(["reindex", "--shelves", "6", "--json"]);
    const remote = await run(["--url", base, "reindex", "--shelves", "6", "--json"]);
    assert.deepEqual([remote.code, remote.out], [0, local.out]);
    assert.match(remote.err, /progress: \d\/6 shelf \d\n/);
    const declared = await run(["--url", base, "reindex", "--shelves", "1", "--fail", "declared"]);
    assert.deepEqual([declared.code, declared.err], [
      1,
      "progress: 1/1 shelf 1\nerror: 409 Conflict [LOCKED]: The index is locked\n",
    ]);
    const fault = await run(["--url", base, "reindex", "--shelves", "1", "--fail", "fault"]);
    assert.deepEqual([fault.code, fault.err], [
      1,
      "progress: 1/1 shelf 1\nerror: 500 Internal Server Error\n",
    ]);
    const started = await run(["--url", base, "reindex", "--shelves", "50", "--detach", "--json"]);
    const { id } = JSON.parse(started.out);
    const status = await run(["--url", base, "status", id, "--json"]);
    assert.equal(JSON.parse(status.out).status, "working");
    const cancelled = await run(["--url", base, "cancel", id, "--json"]);
    assert.equal(JSON.parse(cancelled.out).status, "cancelled");
    const again = await run(["--url", base, "cancel", id]);
    assert.equal(again.code, 1);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 150);
    const interrupted = await run(["--url", base, "reindex", "--shelves", "100"], {
      signal: stop.signal,
    });
    assert.equal(interrupted.code, 130);
  });
});

Deno.test("cli tasks: a tree without a long-running leaf has no status command", async () => {
  const io = memoryIo();
  assert.equal(await runCli(api({ ping: tree.children!.ping }), ["status", "x"], { io }), 2);
});

Deno.test("cli tasks: a long-running command's help lists --wait and --detach", async () => {
  const help = await run(["reindex", "--help"]);
  assert.match(help.out, /Task flags:\n {2}--wait {4}wait for the task/);
  assert.match(help.out, /--detach {2}write the task's handle/);
  assert.doesNotMatch((await run(["ping", "--help"])).out, /Task flags/);
});
