// The typed HTTP client's task handle answers a task's question, over a real
// server: `handle.answer(value, key?)` resolves with the task working again
// (then its result), rejects with the server's ClientError for a wrong key
// (409), an answer that does not fit (422), another identity's task (404);
// and the types: an answer is an object, its key a string.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, ask, op } from "@ramify/api/tree";
import { ClientError, createClient, createFetch } from "@ramify/api/http";
import type { TaskHandle, TaskState } from "@ramify/api/client";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../support/server.ts";
import { until } from "../tasks/_suite.ts";
import { byBearer } from "../support/bearer.ts";

const tree = api({
  shelve: op(async ({ title }, ctx) => {
    const said = await ask(ctx, {
      message: `Which shelf for ${title}?`,
      schema: z.object({ shelf: z.number().int().min(1) }),
      key: "shelf",
    });
    return said.action === "accept" ? { title, shelf: said.content.shelf } : { title, shelf: 0 };
  }, {
    tags: { longRunning: true },
    input: z.object({ title: z.string() }),
    output: z.object({ title: z.string(), shelf: z.number() }),
  }),
});

function withClients(
  body: (
    ann: ReturnType<typeof createClient<typeof tree>>,
    bob: ReturnType<typeof createClient<typeof tree>>,
  ) => Promise<void>,
) {
  return async () => {
    const tasks = createTasks({ heartbeatMs: 200 });
    try {
      await withServer(createFetch(byBearer(tree), { tasks }), async (baseUrl) => {
        const as = (token: string) =>
          createClient(tree, { baseUrl, headers: { authorization: `Bearer ${token}` } });
        await body(as("ann"), as("bob"));
      });
    } finally {
      await tasks.close();
    }
  };
}

/** Waits until the handle's task asks; the state then. */
async function asked(handle: TaskHandle<unknown, unknown>): Promise<TaskState> {
  let state: TaskState | undefined;
  await until(async () => (state = await handle.status()).status === "input_required");
  return state!;
}

Deno.test(
  "HTTP client tasks: handle.answer answers the question; the result follows",
  withClients(async (ann) => {
    const handle = await ann.shelve({ title: "Dune" }, { async: true });
    const state = await asked(handle);
    assert.deepEqual(state.question?.key, "shelf");
    assert.equal(state.question?.message, "Which shelf for Dune?");
    assert.equal(state.questions?.length, 1);
    const after = await handle.answer({ shelf: 4 });
    assert.ok(["working", "completed"].includes(after.status), after.status);
    assert.deepEqual(await handle.result(), { title: "Dune", shelf: 4 });
  }),
);

Deno.test(
  "HTTP client tasks: a wrong key is 409, a misfit 422, another's task 404 (ClientErrors)",
  withClients(async (ann, bob) => {
    const handle = await ann.shelve({ title: "Emma" }, { async: true });
    await asked(handle);
    const failure = (promise: Promise<unknown>) =>
      promise.then(() => assert.fail("answered"), (error: ClientError) => error);
    const wrongKey = await failure(handle.answer({ shelf: 1 }, "colour"));
    assert.ok(wrongKey instanceof ClientError);
    assert.equal(wrongKey.status, 409);
    const misfit = await failure(handle.answer({ shelf: 0 }));
    assert.equal(misfit.status, 422);
    assert.match(misfit.problem?.detail ?? "", /shelf: too small/);
    // Bob's client reaches Ann's task by its id only to hear it does not exist.
    const theirs = await bob.shelve({ title: "Other" }, { async: true });
    const stolen = await fetch(theirs.location!.replace(theirs.id!, handle.id!) + "/input", {
      method: "POST",
      headers: { authorization: "Bearer bob", "content-type": "application/json" },
      body: JSON.stringify({ answer: { shelf: 2 } }),
    });
    assert.equal(stolen.status, 404);
    await stolen.body?.cancel();
    await theirs.cancel();
    const after = await handle.answer({ shelf: 2 }, "shelf");
    assert.notEqual(after.status, "input_required");
    assert.deepEqual(await handle.result(), { title: "Emma", shelf: 2 });
    const late = await failure(handle.answer({ shelf: 3 }));
    assert.equal(late.status, 409);
  }),
);

Deno.test("HTTP client tasks: the answer's types", () => {
  const typed = async (handle: TaskHandle<{ shelf: number }, Record<never, never>>) => {
    const state: TaskState = await handle.answer({ shelf: 1 }, "shelf");
    const key: string | undefined = state.questions?.[0].key;
    // @ts-expect-error an answer is the form's object, not a bare value
    await handle.answer(4);
    // @ts-expect-error the key names a question: a string
    await handle.answer({ shelf: 1 }, 1);
    return key;
  };
  assert.equal(typeof typed, "function");
});
