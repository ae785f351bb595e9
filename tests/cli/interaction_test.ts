// A handler's `log`, `progress` and `ask` on the command line, in process:
// log lines on standard error by level, progress and questions only for a
// person at a terminal, a question asked field by field with defaults, and
// an answer that breaks the form refused as it is on MCP.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { runCli } from "@ramify/api/cli";
import { ask, log, progress } from "../../tree/interaction.ts";
import { memoryIo } from "../support/cli_io.ts";

const tree = api({
  chatty: op((_input, ctx) => {
    log(ctx, "debug", "a detail");
    log(ctx, "info", "started", { shelves: 2 });
    progress(ctx, 1, 2, "half");
    log(ctx, "error", "something broke");
    return "done";
  }),
  shelve: op(async (_input, ctx) => {
    const answer = await ask(ctx, {
      message: "Where does it go?",
      schema: z.object({
        shelf: z.number().int().min(1),
        colour: z.enum(["red", "green"]).default("red"),
        fragile: z.boolean(),
        tags: z.array(z.enum(["new", "old"])).optional(),
      }),
    });
    return answer;
  }),
});

/** A terminal that answers each question with the next line (undefined: input ended). */
function terminal(lines: (string | undefined)[]) {
  const io = memoryIo({ terminal: true });
  return Object.assign(io, {
    prompt: (question: string) => {
      io.prompts.push(question);
      return Promise.resolve(lines.shift());
    },
  });
}

Deno.test("cli interaction: log lines on stderr from info up; progress for a person only", async () => {
  const piped = memoryIo();
  assert.equal(await runCli(tree, ["chatty"], { io: piped }), 0);
  assert.deepEqual(piped.stderr, ['info: started {"shelves":2}\n', "error: something broke\n"]);
  const person = memoryIo({ terminal: true });
  assert.equal(await runCli(tree, ["chatty"], { io: person, logLevel: "debug" }), 0);
  assert.deepEqual(person.stderr, [
    "debug: a detail\n",
    'info: started {"shelves":2}\n',
    "progress: 1/2 half\n",
    "error: something broke\n",
  ]);
  const quiet = memoryIo();
  assert.equal(await runCli(tree, ["chatty"], { io: quiet, logLevel: "off" }), 0);
  assert.deepEqual(quiet.stderr, []);
});

Deno.test("cli interaction: a question asks each field; empty takes the default", async () => {
  const io = terminal(["3", "", "y", "new, old"]);
  assert.equal(await runCli(tree, ["shelve"], { io }), 0);
  assert.deepEqual(io.prompts, [
    "shelf (integer): ",
    "colour (red, green) [red]: ",
    "fragile (y/n): ",
    "tags (new, old): ",
  ]);
  assert.deepEqual(JSON.parse(io.stdout.join("")), {
    action: "accept",
    content: { shelf: 3, colour: "red", fragile: true, tags: ["new", "old"] },
  });
});

Deno.test("cli interaction (hostile): answers that break the form, or end of input, cancel", async () => {
  for (
    const lines of [
      ["zero", "", "y", ""], // not a number
      ["0", "", "y", ""], // below the minimum (the Standard Schema's own rule)
      ["2", "blue", "y", ""], // not a choice
      ["2", "", "maybe", ""], // not a boolean
      ["2", "", "y", "new, newest"], // not a choice in the list
      ["", "", "", ""], // a required field left empty
      ["2", undefined], // input ended
    ]
  ) {
    const io = terminal(lines);
    assert.equal(await runCli(tree, ["shelve"], { io }), 0);
    assert.deepEqual(JSON.parse(io.stdout.join("")), { action: "cancel" }, JSON.stringify(lines));
  }
});

Deno.test("cli interaction: without a terminal nobody is asked", async () => {
  const io = memoryIo();
  assert.equal(await runCli(tree, ["shelve"], { io }), 0);
  assert.deepEqual(JSON.parse(io.stdout.join("")), { action: "unsupported" });
  assert.deepEqual(io.prompts, []);
});
