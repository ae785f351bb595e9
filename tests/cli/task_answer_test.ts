// A long-running command's question on the command line: `answer <id> --json
// '<answer>' [--key k]` answers it, in process (a shared runtime) and against
// a real server (`--url`); its refusals keep the status/cancel exit codes (404
// another's or unknown, 409 not waiting or a wrong key, 422 an answer that
// does not fit: exit 1; a --json that is not JSON: exit 2). A waiting command
// whose task asks prompts for it on a terminal (field by field, asking again
// while the answer does not fit); without one it writes how to answer it and
// keeps waiting until another command does.
import assert from "node:assert/strict";
import { createFetch } from "@ramify/api/http";
import { runCli } from "@ramify/api/cli";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../support/server.ts";
import { type MemoryIo, memoryIo } from "../support/cli_io.ts";
import { until } from "../tasks/_suite.ts";
import { shelving } from "../support/shelving.ts";
import { byBearer } from "../support/bearer.ts";

const tree = byBearer(shelving);

async function run(argv: string[], opts: Parameters<typeof runCli>[2] = {}, io = memoryIo()) {
  const code = await runCli(tree, argv, { name: "shop", io, onError: () => {}, ...opts });
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

/** Where a command runs: in process on a shared runtime, or against a real server. */
type Where = (
  body: (flags: string[], opts: Parameters<typeof runCli>[2]) => Promise<void>,
) => Promise<void>;

const WHERE: Record<string, Where> = {
  "in process": async (body) => {
    const tasks = createTasks({ heartbeatMs: 200 });
    try {
      await body([], { tasks });
    } finally {
      await tasks.close();
    }
  },
  "--url": async (body) => {
    const tasks = createTasks({ heartbeatMs: 200 });
    try {
      await withServer(createFetch(tree, { tasks }), (base) => body(["--url", base], {}));
    } finally {
      await tasks.close();
    }
  },
};

/** The id a command's waiting line or detached handle names, once it asks. */
async function askingId(io: MemoryIo): Promise<string> {
  let id = "";
  await until(() => {
    id = /task (\S+) asks: /.exec(io.stderr.join(""))?.[1] ?? "";
    return id !== "";
  });
  return id;
}

for (const [where, serve] of Object.entries(WHERE)) {
  Deno.test(`cli task answers (${where}): answer <id> answers a detached task; refusals keep their codes`, () =>
    serve(async (flags, opts) => {
      const ann = [...flags, "--token", "ann"];
      const started = await run(["shelve", "--title", "Dune", "--detach", "--json", ...ann], opts);
      assert.equal(started.code, 0, started.err);
      assert.match(started.err, /shop answer \S+ --json '<answer>'/);
      const { id } = JSON.parse(started.out);
      await until(async () => {
        const line = await run(["status", id, "--json", ...ann], opts);
        return JSON.parse(line.out).status === "input_required";
      });
      const status = JSON.parse((await run(["status", id, "--json", ...ann], opts)).out);
      assert.deepEqual(status.questions.map((q: { key: string }) => q.key), ["ask-1"]);
      const refusal = async (argv: string[], code: number, line: RegExp) => {
        const refused = await run(["answer", id, ...argv], opts);
        assert.equal(refused.code, code, refused.err);
        assert.match(refused.err, line);
      };
      await refusal(["--json", '{"shelf":2}', ...flags, "--token", "bob"], 1, /error: 404 /);
      await refusal(["--json", '{"shelf":2}', ...flags], 1, /error: 404 /);
      await refusal(
        ["--json", '{"shelf":2}', "--key", "colour", ...ann],
        1,
        /error: 409 .*"colour"/,
      );
      await refusal(
        ["--json", '{"shelf":"two"}', ...ann],
        1,
        /error: 422 .*shelf: expected a number/,
      );
      await refusal(["--json", "{shelf", ...ann], 2, /--json is not JSON/);
      await refusal([...ann], 2, /answer takes the answer as --json/);
      const answered = await run(
        ["answer", id, "--json", '{"shelf":2}', "--key", "ask-1", ...ann],
        opts,
      );
      assert.equal(answered.code, 0, answered.err);
      assert.ok(["working", "completed"].includes(JSON.parse(answered.out).status));
      await until(async () => {
        const line = JSON.parse((await run(["status", id, "--json", ...ann], opts)).out);
        return line.status === "completed";
      });
      const done = JSON.parse((await run(["status", id, "--json", ...ann], opts)).out);
      assert.deepEqual(done.result, { title: "Dune", shelf: 2 });
      await refusal(["--json", '{"shelf":3}', ...ann], 1, /error: 409 .*not waiting/);
      const unknown = await run(["answer", "nope", "--json", "{}", ...ann], opts);
      assert.equal(unknown.code, 1);
    }));

  Deno.test(`cli task answers (${where}): a waiting command asks on a terminal, again while the answer does not fit`, () =>
    serve(async (flags, opts) => {
      const answers = ["two", "5"];
      const io = memoryIo({ terminal: true });
      const terminal: MemoryIo = {
        ...io,
        prompt: (question) => (io.prompts.push(question), Promise.resolve(answers.shift())),
      };
      const done = await run(
        ["shelve", "--title", "Dune", "--json", ...flags, "--token", "ann"],
        opts,
        terminal,
      );
      assert.equal(done.code, 0, done.err);
      assert.deepEqual(JSON.parse(done.out), { title: "Dune", shelf: 5 });
      assert.deepEqual(io.prompts, ["shelf (integer): ", "shelf (integer): "]);
      assert.match(done.err, /Which shelf for Dune\?\n/);
      assert.match(done.err, /shelf: expected a number/);
    }));

  Deno.test(`cli task answers (${where}): without a terminal the waiting command says how to answer and waits`, () =>
    serve(async (flags, opts) => {
      const io = memoryIo();
      const waiting = run(
        ["shelve", "--title", "Emma", "--json", ...flags, "--token", "ann"],
        opts,
        io,
      );
      const id = await askingId(io);
      assert.match(
        io.stderr.join(""),
        new RegExp(`answer it: shop answer ${id} --key ask-1 --json '<answer>'`),
      );
      const answered = await run([
        "answer",
        id,
        "--json",
        '{"shelf":9}',
        ...flags,
        "--token",
        "ann",
      ], opts);
      assert.equal(answered.code, 0, answered.err);
      const done = await waiting;
      assert.equal(done.code, 0, done.err);
      assert.deepEqual(JSON.parse(done.out), { title: "Emma", shelf: 9 });
    }));
}

Deno.test("cli task answers: in process without a shared runtime or a terminal nobody can answer: the handler hears unsupported", async () => {
  const done = await run(["shelve", "--title", "Dune", "--json", "--token", "ann"]);
  assert.equal(done.code, 0, done.err);
  assert.deepEqual(JSON.parse(done.out), { title: "Dune", shelf: 0 });
  const refused = await run(["answer", "x", "--json", "{}"]);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /answer needs a task runtime later commands share/);
});
