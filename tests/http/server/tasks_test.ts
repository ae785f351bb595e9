// Long-running leaves over HTTP, end to end over a real server: 202 with the
// Location of the status resource, status with progress, the result as the
// route would answer it, a declared error, a fault (500, nothing leaked), a
// cancel aborting the handler's signal, another identity refused, `Prefer`
// (RFC 7240) chosen by the client, and a tree route on the tasks' path refused.
import assert from "node:assert/strict";
import { z } from "zod";
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

/** The suite's tree beside a schema'd leaf, served; `seen` tells what the handlers saw. */
function withTasksServer(
  body: (base: string, seen: Seen, opened: Promise<void>) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const seen: Seen = { aborted: undefined, faults: [] };
    let open!: () => void;
    const opened = new Promise<void>((resolve) => open = resolve);
    const tree = byBearer(api({
      ...tasksTree(seen, { open: () => open() }).children,
      shelves: api({
        reindex: op(({ shelf }) => ({ shelf, indexed: true }), http.post, {
          tags: { longRunning: true },
          input: z.object({ shelf: z.number().int() }),
          output: z.object({ shelf: z.number(), indexed: z.boolean() }),
          http: { status: 201 },
        }),
      }),
    }));
    const tasks = createTasks({ heartbeatMs: 200 });
    const handler = createFetch(tree, {
      tasks,
      onError: (error) => void seen.faults.push(error),
    });
    try {
      await withServer(handler, (base) => body(base, seen, opened));
    } finally {
      await tasks.close();
    }
  };
}

const post = (base: string, path: string, input: unknown, headers: HeadersInit = ANN) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });

/** Polls the result resource until it is no longer `202`. */
async function resultOf(base: string, location: string, headers: HeadersInit = ANN) {
  for (;;) {
    const response = await fetch(`${base}${location}/result`, { headers });
    if (response.status !== 202) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test(
  "HTTP tasks: 202 with Location; the status shows progress; the result as the route answers it",
  withTasksServer(async (base) => {
    const started = await post(base, "/count", { to: 3 });
    assert.equal(started.status, 202);
    const location = started.headers.get("location")!;
    assert.match(location, /^\/\.tasks\/[A-Za-z0-9_-]{24}$/);
    assert.equal(started.headers.get("retry-after"), "1");
    const handle = await started.json();
    assert.equal(handle.status, "working");
    assert.equal(handle.operation, "count");
    assert.equal(handle.links.self, location);
    await until(async () => {
      const status = await (await fetch(`${base}${location}`, { headers: ANN })).json();
      return status.progress?.done === 3;
    });
    const result = await resultOf(base, location);
    assert.equal(result.status, 200);
    assert.equal(result.headers.get("content-type"), "application/json");
    assert.deepEqual(await result.json(), { counted: 3, at: "1970-01-01T00:00:00.000Z" });
    const status = await (await fetch(`${base}${location}`, { headers: ANN })).json();
    assert.equal(status.status, "completed");
    assert.deepEqual(status.result, { counted: 3, at: "1970-01-01T00:00:00.000Z" });
    assert.equal(status.logs[0].message, "counted");
    assert.equal(typeof status.logs[0].at, "string");
    // Its declared success status and its schemas, as for any call.
    const made = await post(base, "/shelves/reindex", { shelf: 4 });
    const made201 = await resultOf(base, made.headers.get("location")!);
    assert.equal(made201.status, 201);
    assert.deepEqual(await made201.json(), { shelf: 4, indexed: true });
    // Input the schema refuses makes no task: the call's own 422, at once.
    const refused = await post(base, "/shelves/reindex", { shelf: "four" });
    assert.equal(refused.status, 422);
    assert.equal(refused.headers.get("location"), null);
    assert.equal(refused.headers.get("content-type"), "application/problem+json");
    await refused.body?.cancel();
  }),
);

Deno.test(
  "HTTP tasks: a declared error and a fault are problem+json with their status; a fault leaks nothing",
  withTasksServer(async (base, seen) => {
    const missing = await post(base, "/missing", {});
    const declared = await resultOf(base, missing.headers.get("location")!);
    assert.equal(declared.status, 404);
    assert.equal(declared.headers.get("content-type"), "application/problem+json");
    const problem = await declared.json();
    assert.equal(problem.code, "NO_SHELF");
    assert.equal(problem.detail, "No shelf 9");
    assert.deepEqual(problem.data, { shelf: 9 });
    const crash = await post(base, "/crash", {});
    const location = crash.headers.get("location")!;
    const fault = await resultOf(base, location);
    assert.equal(fault.status, 500);
    const text = await fault.text();
    assert.ok(!text.includes("secret"), text);
    assert.deepEqual(JSON.parse(text), {
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
    });
    const status = await (await fetch(`${base}${location}`, { headers: ANN })).json();
    assert.equal(status.status, "failed");
    assert.equal(status.error.status, 500);
    assert.ok(!JSON.stringify(status).includes("secret"));
    assert.equal(seen.faults.length, 1);
    assert.match(String(seen.faults[0]), /secret/);
  }),
);

Deno.test(
  "HTTP tasks: DELETE cancels (the handler's signal aborts); another identity gets 404",
  withTasksServer(async (base, seen, opened) => {
    const started = await post(base, "/forever", {});
    const location = started.headers.get("location")!;
    await started.body?.cancel();
    await opened;
    for (const method of ["GET", "DELETE"]) {
      const other = await fetch(`${base}${location}`, { method, headers: BOB });
      assert.equal(other.status, 404, method);
      await other.body?.cancel();
      const anonymous = await fetch(`${base}${location}`, { method });
      assert.equal(anonymous.status, 404, method);
      await anonymous.body?.cancel();
    }
    const cancelled = await fetch(`${base}${location}`, { method: "DELETE", headers: ANN });
    assert.equal(cancelled.status, 200);
    assert.equal((await cancelled.json()).status, "cancelled");
    await until(() => seen.aborted !== undefined);
    const again = await fetch(`${base}${location}`, { method: "DELETE", headers: ANN });
    assert.equal(again.status, 409);
    await again.body?.cancel();
    const result = await fetch(`${base}${location}/result`, { headers: ANN });
    assert.equal(result.status, 499);
    assert.equal((await result.json()).status, 499);
    const head = await fetch(`${base}${location}`, { method: "HEAD", headers: ANN });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
    const put = await fetch(`${base}${location}`, { method: "PUT", headers: ANN });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, HEAD, DELETE");
    await put.body?.cancel();
    const unknown = await fetch(`${base}/.tasks/nothing-here`, { headers: ANN });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  }),
);

Deno.test(
  "HTTP tasks: Prefer wait=N answers a call done in time as a normal call; respond-async gives the handle",
  withTasksServer(async (base) => {
    const waited = await post(base, "/count", { to: 2 }, { ...ANN, prefer: "wait=5" });
    assert.equal(waited.status, 200);
    assert.equal(waited.headers.get("preference-applied"), "wait=5");
    assert.deepEqual(await waited.json(), { counted: 2, at: "1970-01-01T00:00:00.000Z" });
    const failed = await post(base, "/missing", {}, { ...ANN, prefer: "wait=5" });
    assert.equal(failed.status, 404);
    assert.equal((await failed.json()).code, "NO_SHELF");
    const handle = await post(base, "/count", { to: 2 }, {
      ...ANN,
      prefer: "respond-async, wait=5",
    });
    assert.equal(handle.status, 202);
    assert.equal(handle.headers.get("preference-applied"), "respond-async");
    await handle.body?.cancel();
    // Not done in time: the handle, and the wait goes on at the result resource.
    const slow = await post(base, "/forever", {}, { ...ANN, prefer: "wait=1" });
    assert.equal(slow.status, 202);
    assert.equal(slow.headers.get("preference-applied"), null);
    const location = slow.headers.get("location")!;
    await slow.body?.cancel();
    const polled = await fetch(`${base}${location}/result`, {
      headers: { ...ANN, prefer: "wait=1" },
    });
    assert.equal(polled.status, 202);
    assert.equal((await polled.json()).status, "working");
    const cancel = await fetch(`${base}${location}`, { method: "DELETE", headers: ANN });
    await cancel.body?.cancel();
  }),
);

Deno.test("HTTP tasks: a tree with a long-running leaf and no tasks runtime is refused, naming what to pass", () => {
  const tree = api({ jobs: api({ reindex: op(() => 1, { tags: { longRunning: true } }) }) });
  assert.throws(
    () => createFetch(tree),
    /jobs\/reindex, tag longRunning\): pass the runtime they run in, tasks: createTasks\(\) from @ramify\/api\/tasks/,
  );
  // Any tree without one needs none, and carries no task code in a bundle (size_budget_test.ts).
  createFetch(api({ ping: op(() => "pong", http.get) }));
});

Deno.test("HTTP tasks: a tree route on /.tasks/ is refused when the tree has a long-running leaf", () => {
  const leaf = op(() => 1, { tags: { longRunning: true } });
  assert.throws(
    () => createFetch(api({ ".tasks": api({ x: op(() => 1) }), leaf }), { tasks: createTasks() }),
    /\/\.tasks\/ holds the status of tasks/,
  );
  // Without a long-running leaf the path is the tree's.
  createFetch(api({ ".tasks": api({ x: op(() => 1) }) }));
});

Deno.test("HTTP tasks: OpenAPI documents the 202, Prefer and the status resources (a valid 3.1 document)", async () => {
  const tree = api({
    reindex: op(() => ({ indexed: 1 }), http.post, { tags: { longRunning: true } }),
    ping: op(() => "pong", http.get),
  });
  const handler = createFetch(tree, { tasks: createTasks() });
  const doc = await (await handler(new Request("http://x/openapi.json"))).json();
  const post = doc.paths["/reindex"].post;
  assert.match(post.responses["202"].description, /task was started/);
  assert.deepEqual(post.responses["202"].content["application/json"].schema, {
    $ref: "#/components/schemas/TaskStatus",
  });
  assert.ok(post.parameters.some((parameter: { name: string }) => parameter.name === "Prefer"));
  assert.equal(doc.paths["/ping"].get.responses["202"], undefined);
  assert.deepEqual(Object.keys(doc.paths["/.tasks/{id}"]), ["get", "delete"]);
  assert.ok(doc.paths["/.tasks/{id}/result"].get);
  assert.ok(doc.components.schemas.TaskStatus);
  const result = await new Validator().validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
  // A tree without a long-running leaf has no task paths.
  const plain = await (await createFetch(api({ ping: op(() => "pong", http.get) }))(
    new Request("http://x/openapi.json"),
  )).json();
  assert.equal(plain.paths["/.tasks/{id}"], undefined);
  assert.equal(plain.components.schemas.TaskStatus, undefined);
});
