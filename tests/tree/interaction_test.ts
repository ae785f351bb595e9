// The handler-facing interaction (log, progress, ask) and the confirmation
// decision, surface-neutral: a renderer installed on a context reaches the
// handler through middleware and deadlines, values merged into the context
// cannot stand for it, nothing happens (or `unsupported`) without one, a
// renderer's failure is not the handler's, and answers are checked against
// the form.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, type Middleware, op, use } from "@ramify/api/tree";
import { createCall, runCall } from "@ramify/api/tree/catalogue";
import {
  ask,
  type AskResult,
  confirmQuestion,
  type FormSchema,
  type Interaction,
  log,
  needsConfirmation,
  NOT_CONFIRMED,
  progress,
  withInteraction,
} from "../../tree/interaction.ts";
import { formProblem } from "../../tree/form_check.ts";

const FORM: FormSchema = {
  type: "object",
  properties: {
    n: { type: "integer", minimum: 1, maximum: 5 },
    word: { type: "string", minLength: 2, maxLength: 4 },
    pick: { type: "string", oneOf: [{ const: "a", title: "A" }, { const: "b", title: "B" }] },
    many: { type: "array", items: { anyOf: [{ const: "x" }, { const: "y" }] }, maxItems: 2 },
    flag: { type: "boolean" },
  },
  required: ["n"],
};

function recorder(answer?: AskResult) {
  const seen: unknown[] = [];
  const interaction: Interaction = {
    log: (level, message, data) => void seen.push(["log", level, message, data]),
    progress: (done, total, message) => void seen.push(["progress", done, total, message]),
    ...(answer === undefined ? {} : {
      ask: (message, schema) => {
        seen.push(["ask", message, schema]);
        return Promise.resolve(answer);
      },
    }),
  };
  return { seen, interaction };
}

// Middleware adding values named like a renderer: they are values, not one.
const spoof: Middleware = (_call, next) => next({ log: "spoofed", interaction: "spoofed" });

Deno.test("interaction: the renderer reaches the handler through middleware and a deadline", async () => {
  const leaf = op((_input, ctx) => {
    log(ctx, "info", "hello", { n: 1 });
    progress(ctx, 1, 2, "half");
    return "ok";
  }, use(spoof));
  const { seen, interaction } = recorder();
  const context = withInteraction({}, interaction);
  assert.equal(await runCall(createCall(api({ leaf }).children!.leaf), {}, context, 1000), "ok");
  assert.deepEqual(seen, [["log", "info", "hello", { n: 1 }], ["progress", 1, 2, "half"]]);
});

Deno.test("interaction: without a renderer log and progress do nothing and ask is unsupported", async () => {
  log({}, "info", "nobody listens");
  progress({}, 1);
  assert.deepEqual(await ask({}, { message: "?", schema: FORM }), { action: "unsupported" });
  // Values that merely look like a renderer are not one.
  const lookalike = { interaction: { ask: () => Promise.resolve({ action: "accept" }) } };
  assert.deepEqual(await ask(lookalike, { message: "?", schema: FORM }), {
    action: "unsupported",
  });
});

Deno.test("interaction (hostile): a renderer that fails does not fail the handler", async () => {
  const context = withInteraction({}, {
    log: () => {
      throw new Error("stderr closed");
    },
    progress: () => Promise.reject(new Error("stream gone")),
    ask: () => Promise.reject(new Error("transport closed")),
  });
  log(context, "error", "x");
  progress(context, 1);
  assert.deepEqual(await ask(context, { message: "?", schema: FORM }), { action: "cancel" });
  // Not a level, not a number: nothing is rendered.
  const { seen, interaction } = recorder();
  const quiet = withInteraction({}, interaction);
  log(quiet, "loud" as "info", "x");
  progress(quiet, Number.NaN);
  assert.deepEqual(seen, []);
});

Deno.test("interaction: ask sends the form as written and checks the answer", async () => {
  const good = { n: 2, word: "abc", pick: "b", many: ["x", "y"], flag: true };
  const { seen, interaction } = recorder({ action: "accept", content: good });
  const answer = await ask(withInteraction({}, interaction), { message: "Fill", schema: FORM });
  assert.deepEqual(answer, { action: "accept", content: good });
  assert.deepEqual(seen, [["ask", "Fill", FORM]]);
  for (const action of ["decline", "cancel"] as const) {
    const { interaction } = recorder({ action });
    assert.deepEqual(await ask(withInteraction({}, interaction), { message: "?", schema: FORM }), {
      action,
    });
  }
});

Deno.test("interaction (hostile): answers that break the form are refused", async () => {
  const wrong: [unknown, string][] = [
    ["text", "expected an object"],
    [{}, "n: required"],
    [{ n: 9 }, "n: too large"],
    [{ n: 0 }, "n: too small"],
    [{ n: 2.5 }, "n: expected an integer"],
    [{ n: 1, word: "a" }, "word: too short"],
    [{ n: 1, word: "abcde" }, "word: too long"],
    [{ n: 1, pick: "c" }, "pick: not one of the choices"],
    [{ n: 1, many: ["x", "z"] }, "many: not one of the choices"],
    [{ n: 1, many: ["x", "y", "x"] }, "many: too many"],
    [{ n: 1, flag: "yes" }, "flag: expected a boolean"],
    [{ n: 1, other: 1 }, "other: not in the form"],
    [JSON.parse('{"n": 1, "__proto__": {"x": 1}}'), "__proto__: not in the form"],
  ];
  for (const [content, problem] of wrong) {
    assert.equal(formProblem(FORM, content), problem, JSON.stringify(content));
    const { interaction } = recorder({ action: "accept", content: content as never });
    assert.deepEqual(await ask(withInteraction({}, interaction), { message: "?", schema: FORM }), {
      action: "cancel",
    });
  }
});

Deno.test("interaction: a Standard Schema is sent as JSON Schema and its output typed", async () => {
  const schema = z.object({ count: z.number().int().max(3), label: z.string().default("none") });
  const { seen, interaction } = recorder({ action: "accept", content: { count: 2 } });
  const answer = await ask(withInteraction({}, interaction), { message: "?", schema });
  assert.deepEqual(answer, { action: "accept", content: { count: 2, label: "none" } });
  const sent = (seen[0] as [string, string, FormSchema])[2];
  assert.equal(sent.type, "object");
  assert.deepEqual(Object.keys(sent.properties), ["count", "label"]);
  // Not a flat form: refused before anything is asked.
  await assert.rejects(
    ask(withInteraction({}, interaction), {
      message: "?",
      schema: z.object({ deep: z.object({}) }),
    }),
    TypeError,
  );
  await assert.rejects(
    ask(withInteraction({}, interaction), { message: "?", schema: z.string() as never }),
    TypeError,
  );
});

Deno.test("interaction: ask rejects when the call ends while it waits", async () => {
  const stop = new AbortController();
  const context = withInteraction({ signal: stop.signal }, {
    ask: (_message, _schema, signal) =>
      new Promise((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(signal.reason))
      ),
  });
  const asked = ask(context, { message: "?", schema: FORM });
  stop.abort(new DOMException("gone", "AbortError"));
  await assert.rejects(asked, (error: Error) => error.name === "AbortError");
});

Deno.test("confirmation: destructive leaves, one question, one refusal line", () => {
  assert.equal(needsConfirmation(op(() => null, { tags: { destructive: true } })), true);
  assert.equal(needsConfirmation(op(() => null, { tags: { readOnly: true } })), false);
  assert.equal(needsConfirmation(op(() => null)), false);
  assert.equal(confirmQuestion("books 7 remove"), '"books 7 remove" is destructive. Proceed?');
  assert.equal(NOT_CONFIRMED, "aborted");
});
