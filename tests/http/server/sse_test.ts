// Server-Sent Events as createFetch writes them: the first item is waited for
// a short while before the status is sent (then the stream opens without it),
// events carry ids, a quiet stream gets heartbeat comments, and a client
// resumes with Last-Event-ID where the leaf takes it.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createClient, createFetch } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import { Gate } from "../../support/outcomes.ts";
import { withServer } from "../../support/server.ts";

const streaming = { tags: { readOnly: true, streaming: true } };

const tree = api({
  // Each fails before its first item: the point of the test.
  // deno-lint-ignore require-yield
  missing: op(async function* () {
    throw new HttpError(404, "No such feed");
  }, streaming),
  // deno-lint-ignore require-yield
  crashed: op(async function* () {
    throw new Error("secret");
  }, streaming),
  slow: op(async function* () {
    yield 1;
    await new Promise((resolve) => setTimeout(resolve, 120));
    yield 2;
  }, streaming),
  feed: op(async function* ({ lastEventId }) {
    for (let n = Number(lastEventId ?? 0) + 1; n <= 5; n++) yield { n };
  }, { ...streaming, input: z.object({ lastEventId: z.string().optional() }) }),
  plain: op(async function* () {
    yield "a";
    yield "b";
  }, streaming),
});

Deno.test("SSE: an HttpError before the first item answers with its status; a crash is a 500", async () => {
  const errors: unknown[] = [];
  await withServer(createFetch(tree, { onError: (e) => errors.push(e) }), async (base) => {
    const missing = await fetch(`${base}/missing`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "No such feed");
    assert.deepEqual(errors, [], "an HttpError is never logged as a crash");

    const crashed = await fetch(`${base}/crashed`);
    assert.equal(crashed.status, 500);
    assert.ok(!(await crashed.text()).includes("secret"));
    assert.equal(errors.length, 1);

    const client = createClient(tree, { baseUrl: base });
    const error = await client.missing().catch((e) => e);
    assert.equal(error.status, 404);
  });
});

Deno.test("SSE: a stream whose first item is not ready opens at once; a late failure is an error event", async () => {
  const first = new Gate();
  const lateFailure = new Gate();
  const waiting = api({
    quiet: op(async function* () {
      await first.passed;
      yield "first";
    }, streaming),
    // deno-lint-ignore require-yield
    failsLate: op(async function* () {
      await lateFailure.passed;
      throw new HttpError(404, "Gone meanwhile");
    }, streaming),
  });
  await withServer(createFetch(waiting, { heartbeatMs: 0 }), async (base) => {
    // The headers arrive while the handler still waits: the client sees the
    // subscription open. (Without it they would come only once the gate opens
    // by itself, which the check below catches instead of hanging.)
    let item = "waiting";
    const fallback = setTimeout(() => {
      item = "given";
      first.open();
    }, 5000);
    const response = await fetch(`${base}/quiet`);
    clearTimeout(fallback);
    assert.equal(item, "waiting", "the headers came before the first item");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value, ": open\n\n");
    first.open();
    let text = "";
    for (let step = await reader.read(); !step.done; step = await reader.read()) text += step.value;
    assert.equal(text, 'id: 1\ndata: "first"\n\n');

    // Past the bound the status is sent: a failure then is the stream's error event.
    const late = await fetch(`${base}/failsLate`);
    assert.equal(late.status, 200);
    lateFailure.open();
    assert.match(
      await late.text(),
      /event: error\ndata: \{.*"status":404.*"detail":"Gone meanwhile"/,
    );
  });
});

Deno.test("SSE: a quiet stream gets heartbeat comments, which clients skip", async () => {
  await withServer(createFetch(tree, { heartbeatMs: 20 }), async (base) => {
    const text = await (await fetch(`${base}/slow`)).text();
    assert.match(text, /^id: 1\ndata: 1\n\n(: heartbeat\n\n)+id: 2\ndata: 2\n\n$/);
    const items: unknown[] = [];
    for await (const item of await createClient(tree, { baseUrl: base }).slow()) items.push(item);
    assert.deepEqual(items, [1, 2]);
  });
  await withServer(createFetch(tree, { heartbeatMs: 0 }), async (base) => {
    assert.equal(
      await (await fetch(`${base}/slow`)).text(),
      "id: 1\ndata: 1\n\nid: 2\ndata: 2\n\n",
    );
  });
});

Deno.test("SSE: Last-Event-ID reaches a leaf that takes lastEventId, and ids go on from it", async () => {
  await withServer(createFetch(tree), async (base) => {
    const fresh = await (await fetch(`${base}/feed`)).text();
    assert.match(fresh, /^id: 1\ndata: \{"n":1\}\n\n/);
    const resumed = await (await fetch(`${base}/feed`, { headers: { "last-event-id": "3" } }))
      .text();
    assert.equal(resumed, 'id: 4\ndata: {"n":4}\n\nid: 5\ndata: {"n":5}\n\n');
    // A leaf that does not take it starts over, numbering from 1.
    const plain = await (await fetch(`${base}/plain`, { headers: { "last-event-id": "9" } }))
      .text();
    assert.equal(plain, 'id: 1\ndata: "a"\n\nid: 2\ndata: "b"\n\n');
  });
});
