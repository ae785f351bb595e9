// A long-running leaf's question answered over GraphQL, on a real HTTP
// server with each executor: `Task.question` / `Task.questions` show it while
// INPUT_REQUIRED, `answerTask(id, answer, key)` answers it (the task WORKING
// again, then COMPLETED); another identity and the anonymous caller get
// NOT_FOUND, a wrong key and a task not waiting CONFLICT (409), an answer
// that does not fit 422. The typed client's handle answers too; the SDL has
// the mutation only for a tree with a long-running leaf, and a tree field on
// its name is refused.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createGraphQLClient, createHttpGraphQLServer, toSDL } from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../../support/server.ts";
import { until } from "../../tasks/_suite.ts";
import { shelving } from "../../support/shelving.ts";
import { byBearer } from "../../support/bearer.ts";

const tree = byBearer(shelving);

const QUESTION = {
  key: "ask-1",
  message: "Which shelf for Dune?",
  schema: { type: "object", properties: { shelf: { type: "integer" } }, required: ["shelf"] },
};
const TASK = "id status question questions result error { status code message }";

Deno.test("graphql task answers: the SDL has answerTask and the questions; a tree field on its name is refused", () => {
  const sdl = toSDL(tree);
  assert.match(
    sdl,
    /answerTask\([\s\S]*?id: ID![\s\S]*?answer: JSON![\s\S]*?key: String\s*\): Task/,
  );
  assert.match(sdl, /type Task \{[\s\S]*?question: JSON\n[\s\S]*?questions: \[JSON!\]\n/);
  assert.throws(
    () => toSDL(api({ answerTask: op(() => 1), shelve: tree.children!.shelve })),
    /answerTask projects to Mutation\.answerTask, which a tree with a long-running leaf keeps/,
  );
});

for (const executor of ["compiled", "graphql-js"] as const) {
  Deno.test(`graphql task answers (${executor}): over HTTP, answered, refused by identity, key, state and form`, async () => {
    const tasks = createTasks({ heartbeatMs: 200 });
    const handler = createHttpGraphQLServer(tree, { executor, tasks, onError: () => {} });
    try {
      await withServer(handler, async (base) => {
        const run = async (query: string, token: string | null = "ann") => {
          const response = await fetch(`${base}/graphql`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              ...(token === null ? {} : { authorization: `Bearer ${token}` }),
            },
            body: JSON.stringify({ query }),
          });
          return await response.json();
        };
        const codeOf = (answer: { errors?: { extensions: { code: string } }[] }) =>
          answer.errors?.[0].extensions.code;
        const started = await run(`mutation { shelve(title: "Dune") { id status } }`);
        const { id } = started.data.shelve;
        const read = async (token: string | null = "ann") =>
          (await run(`{ task(id: "${id}") { ${TASK} } }`, token)).data.task;
        await until(async () => (await read()).status === "INPUT_REQUIRED");
        const asked = await read();
        assert.deepEqual(asked.question, QUESTION);
        assert.deepEqual(asked.questions, [QUESTION]);
        const answer = (value: string, extra = "", token: string | null = "ann") =>
          run(
            `mutation { answerTask(id: "${id}", answer: ${value}${extra}) { ${TASK} } }`,
            token,
          );
        for (const token of ["bob", null]) {
          const refused = await answer("{ shelf: 2 }", "", token);
          assert.equal(codeOf(refused), "NOT_FOUND", String(token));
          assert.equal(refused.errors[0].extensions.status, 404);
        }
        const wrongKey = await answer("{ shelf: 2 }", `, key: "colour"`);
        assert.equal(codeOf(wrongKey), "CONFLICT");
        assert.match(wrongKey.errors[0].message, /no question "colour"/);
        const misfit = await answer(`{ shelf: "two" }`);
        assert.equal(misfit.errors[0].extensions.status, 422);
        assert.match(misfit.errors[0].message, /shelf: expected a number/);
        assert.equal((await read()).status, "INPUT_REQUIRED");
        const answered = await answer("{ shelf: 2 }", `, key: "ask-1"`);
        assert.equal(answered.errors, undefined, JSON.stringify(answered.errors));
        assert.ok(["WORKING", "COMPLETED"].includes(answered.data.answerTask.status));
        assert.equal(answered.data.answerTask.question, null);
        await until(async () => (await read()).status === "COMPLETED");
        assert.deepEqual((await read()).result, { title: "Dune", shelf: 2 });
        const late = await answer("{ shelf: 3 }");
        assert.equal(codeOf(late), "CONFLICT");
        assert.match(late.errors[0].message, /not waiting for an answer \(completed\)/);
      });
    } finally {
      await tasks.close();
    }
  });
}

Deno.test("graphql task answers: the typed client's handle answers over HTTP", async () => {
  const tasks = createTasks({ heartbeatMs: 200 });
  const handler = createHttpGraphQLServer(tree, { tasks, onError: () => {} });
  try {
    await withServer(handler, async (base) => {
      const client = createGraphQLClient(tree, {
        transport: httpTransport({
          url: `${base}/graphql`,
          headers: { authorization: "Bearer ann" },
        }),
      });
      const handle = await client.shelve({ title: "Dune" }, { async: true });
      await until(async () => (await handle.status()).status === "input_required");
      const state = await handle.status();
      assert.deepEqual(state.question, QUESTION);
      assert.deepEqual(state.questions, [QUESTION]);
      const misfit = await handle.answer({ shelf: 1.5 }).catch((error) => error);
      assert.equal(misfit.errors[0].extensions.status, 422);
      const after = await handle.answer({ shelf: 7 });
      assert.notEqual(after.status, "input_required");
      assert.deepEqual(await handle.result(), { title: "Dune", shelf: 7 });
    });
  } finally {
    await tasks.close();
  }
});
