// A long-running leaf's question answered over HTTP, on a real server:
// `POST {base}/.tasks/{id}/input` with `{ answer, key? }` answers it (200, the
// task working again, then its result); another identity, the anonymous
// caller and an unknown id get 404; a wrong key and a task not waiting 409; an
// answer that does not fit the question 422 (issues say where); a body that is
// not JSON, has no answer, or is over the body limit 415 / 400 / 413; the
// status document links the input while asked; OpenAPI documents it.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { createTasks } from "@ramify/api/tasks";
import { Validator } from "@seriousme/openapi-schema-validator";
import { withServer } from "../../support/server.ts";
import { byBearer } from "../../support/bearer.ts";
import { type Seen, tasksTree, until } from "../../tasks/_suite.ts";

const ANN = { authorization: "Bearer ann" };
const BOB = { authorization: "Bearer bob" };

/** The suite's tree served; `location` starts `confirm` (it asks "Go on?") and waits for its question. */
function withAsking(
  body: (base: string, location: string) => Promise<void>,
  maxBodyBytes?: number,
): () => Promise<void> {
  return async () => {
    const seen: Seen = { aborted: undefined, faults: [] };
    const tasks = createTasks({ heartbeatMs: 200 });
    const handler = createFetch(byBearer(tasksTree(seen)), { tasks, maxBodyBytes });
    try {
      await withServer(handler, async (base) => {
        const started = await post(base, "/confirm", {});
        assert.equal(started.status, 202);
        const location = started.headers.get("location")!;
        await started.body?.cancel();
        await until(async () => (await status(base, location)).status === "input_required");
        await body(base, location);
      });
    } finally {
      await tasks.close();
    }
  };
}

const post = (base: string, path: string, input: unknown, headers: HeadersInit = ANN) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof input === "string" ? input : JSON.stringify(input),
  });

const status = async (base: string, location: string, headers: HeadersInit = ANN) =>
  await (await fetch(`${base}${location}`, { headers })).json();

const QUESTION = {
  key: "ask-1",
  message: "Go on?",
  schema: { type: "object", properties: { go: { type: "boolean" } }, required: ["go"] },
};

Deno.test(
  "HTTP task input: the question and its link while asked; the answer resumes the task to its result",
  withAsking(async (base, location) => {
    const asked = await status(base, location);
    assert.deepEqual(asked.question, QUESTION);
    assert.deepEqual(asked.questions, [QUESTION]);
    assert.deepEqual(asked.links, {
      self: location,
      result: `${location}/result`,
      input: `${location}/input`,
    });
    const answered = await post(base, `${location}/input`, { answer: { go: true } });
    assert.equal(answered.status, 200);
    assert.match(answered.headers.get("content-type")!, /^application\/json/);
    const document = await answered.json();
    assert.ok(["working", "completed"].includes(document.status), document.status);
    assert.equal(document.question, undefined);
    assert.equal(document.links.input, undefined);
    await until(async () => (await status(base, location)).status === "completed");
    assert.deepEqual((await status(base, location)).result, { go: true });
  }),
);

Deno.test(
  "HTTP task input: another identity, the anonymous caller and an unknown id get 404 and answer nothing",
  withAsking(async (base, location) => {
    for (const headers of [BOB, {}]) {
      const refused = await post(base, `${location}/input`, { answer: { go: true } }, headers);
      assert.equal(refused.status, 404);
      assert.equal(refused.headers.get("content-type"), "application/problem+json");
      await refused.body?.cancel();
    }
    const unknown = await post(base, "/.tasks/nope/input", { answer: { go: true } });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    assert.equal((await status(base, location)).status, "input_required");
  }),
);

Deno.test(
  "HTTP task input: a wrong key and a task not waiting are 409; an answer that does not fit is 422",
  withAsking(async (base, location) => {
    const wrongKey = await post(base, `${location}/input`, { answer: { go: true }, key: "other" });
    assert.equal(wrongKey.status, 409);
    assert.match((await wrongKey.json()).detail, /no question "other"; it asks: ask-1/);
    const misfit = await post(base, `${location}/input`, { answer: { go: "yes" } });
    assert.equal(misfit.status, 422);
    const problem = await misfit.json();
    assert.match(problem.detail, /go: expected a boolean/);
    assert.deepEqual(problem.issues, [{ message: "expected a boolean", path: ["go"] }]);
    const unknownField = await post(base, `${location}/input`, { answer: { go: true, x: 1 } });
    assert.equal(unknownField.status, 422);
    await unknownField.body?.cancel();
    // Still waiting: the refused answers reached nothing. The named key answers it.
    assert.equal((await status(base, location)).status, "input_required");
    const answered = await post(base, `${location}/input`, { answer: { go: false }, key: "ask-1" });
    assert.equal(answered.status, 200);
    await answered.body?.cancel();
    await until(async () => (await status(base, location)).status === "completed");
    const late = await post(base, `${location}/input`, { answer: { go: true } });
    assert.equal(late.status, 409);
    assert.match((await late.json()).detail, /not waiting for an answer \(completed\)/);
  }),
);

Deno.test(
  "HTTP task input: a bad body is 415, 400 or 413 (over the router's maxBodyBytes); only POST",
  withAsking(async (base, location) => {
    const url = `${base}${location}/input`;
    const cases: [RequestInit, number, RegExp][] = [
      [{ method: "POST", headers: ANN, body: "go=true" }, 415, /is JSON/],
      [
        { method: "POST", headers: { ...ANN, "content-type": "application/json" }, body: "{" },
        400,
        /not valid JSON/,
      ],
      [
        { method: "POST", headers: { ...ANN, "content-type": "application/json" }, body: "{}" },
        400,
        /needs "answer"/,
      ],
      [
        { method: "POST", headers: { ...ANN, "content-type": "application/json" }, body: "[1]" },
        400,
        /.+/,
      ],
      [
        {
          method: "POST",
          headers: { ...ANN, "content-type": "application/json" },
          body: JSON.stringify({ answer: { go: true }, key: 1 }),
        },
        400,
        /"key" names the question/,
      ],
      [
        {
          method: "POST",
          headers: { ...ANN, "content-type": "application/json" },
          body: JSON.stringify({ answer: { go: "x".repeat(5_000) } }),
        },
        413,
        /larger than 4096 bytes/,
      ],
    ];
    for (const [init, expected, detail] of cases) {
      const response = await fetch(url, init);
      assert.equal(response.status, expected, String(init.body).slice(0, 40));
      assert.match((await response.json()).detail, detail);
    }
    const got = await fetch(url, { headers: ANN });
    assert.equal(got.status, 405);
    assert.equal(got.headers.get("allow"), "POST");
    await got.body?.cancel();
    assert.equal((await status(base, location)).status, "input_required");
  }, 4096),
);

Deno.test("HTTP task input: OpenAPI documents POST /.tasks/{id}/input (a valid 3.1 document)", async () => {
  const tree = api({
    reindex: op(() => ({ indexed: 1 }), http.post, { tags: { longRunning: true } }),
  });
  const handler = createFetch(tree, { tasks: createTasks() });
  const doc = await (await handler(new Request("http://x/openapi.json"))).json();
  const input = doc.paths["/.tasks/{id}/input"].post;
  assert.equal(input.operationId, "answerTask");
  assert.deepEqual(input.requestBody.content["application/json"].schema.required, ["answer"]);
  for (const code of ["200", "400", "404", "409", "413", "415", "422", "503"]) {
    assert.ok(input.responses[code], code);
  }
  const schema = doc.components.schemas.TaskStatus;
  assert.ok(schema.properties.questions);
  assert.ok(schema.properties.links.properties.input);
  const result = await new Validator().validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
});
