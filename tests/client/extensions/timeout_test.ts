// Client extension tests, timeout: a deadline per call, as an abort with a TimeoutError.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { createClient, createFetch } from "@ramify/api/http";
import type { Send } from "@ramify/api/client";
import { api, op } from "@ramify/api/tree";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import {
  chain,
  fakeSleep,
  fetchSend,
  isNamed,
  makeRequest,
  READ_ONLY,
  scripted,
  trackedResponse,
  untilAborted,
} from "./support.ts";

// ---------------------------------------------------------------- timeout

Deno.test("timeout: the client's deadline rejects with a TimeoutError", async () => {
  await assert.rejects(
    timeout({ ms: 1 }).wrap(untilAborted)(makeRequest()),
    isNamed("TimeoutError"),
  );
});

Deno.test("timeout: the call's timeout overrides the client's", async () => {
  // A long client deadline, a short call one.
  await assert.rejects(
    timeout({ ms: 3_600_000 }).wrap(untilAborted)(makeRequest({ options: { timeout: 1 } })),
    isNamed("TimeoutError"),
  );
  // A call timeout of 0 turns the client's off: the request goes through untouched.
  const { send, calls } = scripted(new Response("ok"));
  const request = makeRequest({ options: { timeout: 0 } });
  await timeout({ ms: 1 }).wrap(send)(request);
  assert.equal(calls[0], request);
});

Deno.test("timeout: no deadline configured means the request goes through untouched", async () => {
  const { send, calls } = scripted(new Response("ok"));
  const request = makeRequest();
  await timeout().wrap(send)(request);
  await timeout({ ms: Infinity }).wrap(send)(request);
  assert.deepEqual(calls, [request, request]);
  assert.equal(request.signal, undefined);
});

Deno.test("timeout: the deadline is combined with the request's signal, in a copy", async () => {
  const controller = new AbortController();
  const { send, calls } = scripted(new Response("ok"));
  const request = makeRequest({ options: { signal: controller.signal } });
  await timeout({ ms: 3_600_000 }).wrap(send)(request);
  const sent = calls[0];
  assert.notEqual(sent, request);
  assert.equal(request.signal, controller.signal, "the caller's request is not changed");
  assert.ok(sent.signal && sent.signal !== controller.signal);
  assert.equal(sent.signal.aborted, false);
  assert.equal(sent.headers, request.headers);
  assert.equal(sent.url, request.url);
  controller.abort();
  assert.equal(sent.signal.aborted, true, "the caller's abort reaches the combined signal");
});

Deno.test("timeout: the caller's own abort wins over the deadline", async () => {
  const controller = new AbortController();
  const { send } = scripted((request) => {
    controller.abort();
    return untilAborted(request);
  });
  await assert.rejects(
    timeout({ ms: 3_600_000 }).wrap(send)(
      makeRequest({ options: { signal: controller.signal } }),
    ),
    isNamed("AbortError"),
  );
  // Already aborted: rejects with the caller's reason without sending.
  const { send: never, calls } = scripted(new Response("ok"));
  await assert.rejects(
    timeout({ ms: 3_600_000 }).wrap(never)(makeRequest({ signal: AbortSignal.abort("stop") })),
    (reason) => reason === "stop",
  );
  assert.equal(calls.length, 0);
});

Deno.test("timeout: rejects at the deadline even when the sender ignores the signal", async () => {
  let answer: (response: Response) => void = () => {};
  const late = trackedResponse(200);
  const deaf: Send = () => new Promise((resolve) => (answer = resolve));
  await assert.rejects(timeout({ ms: 1 }).wrap(deaf)(makeRequest()), isNamed("TimeoutError"));
  // The response that arrives after the rejection is not leaked.
  answer(late.response);
  await Promise.resolve();
  assert.equal(late.cancelled(), true);
});

Deno.test("timeout: invalid values throw, per client or per call", async () => {
  assert.throws(() => timeout({ ms: -1 }), RangeError);
  assert.throws(() => timeout({ ms: Number.NaN }), RangeError);
  const { send, calls } = scripted(new Response("ok"));
  await assert.rejects(timeout().wrap(send)(makeRequest({ options: { timeout: -5 } })), RangeError);
  assert.equal(calls.length, 0);
});

Deno.test("timeout: inside retry, each attempt has its own deadline", async () => {
  const { sleep } = fakeSleep();
  const { send, calls } = scripted(untilAborted, untilAborted, new Response("ok"));
  const response = await chain([retry({ sleep }), timeout({ ms: 1 })], send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.equal(response.status, 200);
  assert.equal(calls.length, 3);
  assert.equal(new Set(calls.map((call) => call.signal)).size, 3);
});

Deno.test("timeout (integration): a slow server is cut off with a TimeoutError", async () => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached = false;
  await withServer(
    async () => {
      reached = true;
      // Held until the test is done, then let go so the server can shut down.
      // (Not on `request.signal`: Deno 2.9 warns about its legacy semantics.)
      await released;
      return new Response("too late");
    },
    async (base) => {
      try {
        await assert.rejects(
          timeout({ ms: 100 }).wrap(fetchSend)(makeRequest({ url: `${base}/slow` })),
          isNamed("TimeoutError"),
        );
        assert.equal(reached, true);
      } finally {
        release();
      }
    },
  );
});

Deno.test("timeout (integration): a healthy stream outlives the deadline; idleMs bounds its silences", async () => {
  let closed = 0;
  const tree = api({
    ticks: op(async function* () {
      try {
        yield 1;
        await new Promise((resolve) => setTimeout(resolve, 150));
        yield 2;
      } finally {
        closed++;
      }
    }, { tags: { readOnly: true, streaming: true } }),
  });
  await withServer(createFetch(tree, { heartbeatMs: 0 }), async (base) => {
    const patient = createClient(tree, { baseUrl: base, extensions: [timeout({ ms: 50 })] });
    const items: unknown[] = [];
    for await (const item of await patient.ticks()) items.push(item);
    assert.deepEqual(items, [1, 2], "the deadline covered the headers only");

    const strict = createClient(tree, {
      baseUrl: base,
      extensions: [timeout({ ms: 1_000, idleMs: 50 })],
    });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const item of await strict.ticks()) seen.push(item);
    })().catch((e) => e);
    assert.deepEqual(seen, [1]);
    assert.equal(error?.name, "TimeoutError");
    // The server notices the closed connection and closes its generator.
    for (let i = 0; i < 100 && closed < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(closed, 2);
  });
});
