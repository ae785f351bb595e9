// Client extension tests, retry: tag-aware retries, backoff with jitter, Retry-After, never after an abort.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import type { ClientExtension } from "@ramify/api/client";
import { retry } from "@ramify/api/http/extensions/retry";
import {
  chain,
  fakeSleep,
  fetchSend,
  isNamed,
  makeRequest,
  READ_ONLY,
  scripted,
  trackedResponse,
} from "./support.ts";

// ------------------------------------------------------------------ retry

Deno.test("retry: a retryable status is tried `attempts` times, the last response returned", async () => {
  const { send, calls } = scripted(() => new Response("busy", { status: 503 }));
  const { sleep, delays } = fakeSleep();
  const response = await retry({ sleep, random: () => 0.5 }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.equal(calls.length, 3);
  assert.equal(response.status, 503);
  assert.equal(await response.text(), "busy");
  // Full jitter: random() * min(maxDelay, baseDelay * 2^(n-1)).
  assert.deepEqual(delays, [50, 100]);
});

Deno.test("retry: stops at the first success", async () => {
  const { send, calls } = scripted(
    new Response(null, { status: 500 }),
    new Response(null, { status: 429 }),
    new Response("ok"),
  );
  const { sleep, delays } = fakeSleep();
  const response = await retry({ attempts: 5, sleep, random: () => 0.25 }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.equal(await response.text(), "ok");
  assert.equal(calls.length, 3);
  assert.deepEqual(delays, [25, 50]);
});

Deno.test("retry: the backoff grows exponentially up to maxDelay", async () => {
  const { send } = scripted(new Response(null, { status: 502 }));
  const { sleep, delays } = fakeSleep();
  await retry({ attempts: 6, baseDelay: 100, maxDelay: 300, sleep, random: () => 0.5 }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.deepEqual(delays, [50, 100, 150, 150, 150]);
});

Deno.test("retry: the jitter spans [0, ceiling)", async () => {
  const { send } = scripted(new Response(null, { status: 502 }));
  const { sleep, delays } = fakeSleep();
  const randoms = [0, 0.999];
  await retry({ sleep, random: () => randoms.shift() ?? 0 }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.deepEqual(delays, [0, 0.999 * 200]);
});

Deno.test("retry: Retry-After in seconds replaces the backoff, capped by maxDelay", async () => {
  const { send } = scripted(
    new Response(null, { status: 503, headers: { "retry-after": "2" } }),
    new Response(null, { status: 429, headers: { "retry-after": "60" } }),
    new Response("ok"),
  );
  const { sleep, delays } = fakeSleep();
  const response = await retry({ sleep, random: () => 0.5 }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.equal(response.status, 200);
  assert.deepEqual(delays, [2_000, 10_000]);
});

Deno.test("retry: Retry-After as an HTTP date is read against the clock", async () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  const { send } = scripted(
    new Response(null, {
      status: 503,
      headers: { "retry-after": new Date(now + 3_000).toUTCString() },
    }),
    // A date in the past: retry at once.
    new Response(null, {
      status: 503,
      headers: { "retry-after": new Date(now - 60_000).toUTCString() },
    }),
    // Unreadable: the backoff applies.
    new Response(null, { status: 503, headers: { "retry-after": "soon" } }),
    new Response("ok"),
  );
  const { sleep, delays } = fakeSleep();
  await retry({ attempts: 4, sleep, random: () => 0.5, now: () => now }).wrap(send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.deepEqual(delays, [3_000, 0, 200]);
});

Deno.test("retry: a POST (no readOnly/idempotent tag) is never retried by default", async () => {
  const { send, calls } = scripted(new Response(null, { status: 503 }), new TypeError("down"));
  const { sleep } = fakeSleep();
  const extension = retry({ sleep });
  const response = await extension.wrap(send)(makeRequest({ method: "POST", body: "{}" }));
  assert.equal(response.status, 503);
  assert.equal(calls.length, 1);
  // Untagged GETs neither: the tags decide, not the verb.
  await assert.rejects(extension.wrap(send)(makeRequest()), TypeError);
  assert.equal(calls.length, 2);
});

Deno.test("retry: an idempotent PUT is retried", async () => {
  const { send, calls } = scripted(new Response(null, { status: 503 }), new Response("ok"));
  const { sleep } = fakeSleep();
  const response = await retry({ sleep }).wrap(send)(
    makeRequest({ method: "PUT", tags: { idempotent: true }, body: "{}" }),
  );
  assert.equal(response.status, 200);
  assert.equal(calls.length, 2);
  assert.equal(calls[1].body, "{}");
});

Deno.test("retry: `when` replaces the default policy", async () => {
  const { sleep } = fakeSleep();
  const post = scripted(new Response(null, { status: 503 }), new Response("ok"));
  const keyed = retry({ sleep, when: (request) => request.headers.has("idempotency-key") });
  const response = await keyed.wrap(post.send)(
    makeRequest({ method: "POST", headers: { "idempotency-key": "k1" } }),
  );
  assert.equal(response.status, 200);
  assert.equal(post.calls.length, 2);

  const read = scripted(new Response(null, { status: 503 }));
  await retry({ sleep, when: () => false }).wrap(read.send)(makeRequest({ tags: READ_ONLY }));
  assert.equal(read.calls.length, 1);
});

Deno.test("retry: `statuses` replaces the retryable statuses", async () => {
  const { sleep } = fakeSleep();
  const extension = retry({ sleep, statuses: [418] });
  const teapot = scripted(new Response(null, { status: 418 }), new Response("ok"));
  assert.equal((await extension.wrap(teapot.send)(makeRequest({ tags: READ_ONLY }))).status, 200);
  const busy = scripted(new Response(null, { status: 503 }));
  assert.equal((await extension.wrap(busy.send)(makeRequest({ tags: READ_ONLY }))).status, 503);
  assert.equal(busy.calls.length, 1);
  // 4xx other than the listed ones are never retried by default either.
  const missing = scripted(new Response(null, { status: 404 }));
  await retry({ sleep }).wrap(missing.send)(makeRequest({ tags: READ_ONLY }));
  assert.equal(missing.calls.length, 1);
});

Deno.test("retry: a network failure (TypeError) is retried; the last one is rethrown", async () => {
  const { sleep, delays } = fakeSleep();
  const flaky = scripted(new TypeError("reset"), new TypeError("reset"), new Response("ok"));
  const response = await retry({ sleep, random: () => 0.5 }).wrap(flaky.send)(
    makeRequest({ tags: READ_ONLY }),
  );
  assert.equal(await response.text(), "ok");
  assert.equal(flaky.calls.length, 3);
  assert.deepEqual(delays, [50, 100]);

  const down = scripted(new TypeError("first"), new TypeError("second"), new TypeError("last"));
  await assert.rejects(
    retry({ sleep }).wrap(down.send)(makeRequest({ tags: READ_ONLY })),
    { name: "TypeError", message: "last" },
  );
  assert.equal(down.calls.length, 3);
});

Deno.test("retry: other errors are not retried", async () => {
  const { sleep } = fakeSleep();
  const broken = scripted(new RangeError("bug"));
  await assert.rejects(
    retry({ sleep }).wrap(broken.send)(makeRequest({ tags: READ_ONLY })),
    RangeError,
  );
  assert.equal(broken.calls.length, 1);
});

Deno.test("retry: an attempt's TimeoutError is retried for safe operations only", async () => {
  const { sleep } = fakeSleep();
  const timedOut = () => new DOMException("attempt timed out", "TimeoutError");
  const safe = scripted(timedOut(), new Response("ok"));
  const response = await retry({ sleep }).wrap(safe.send)(makeRequest({ tags: READ_ONLY }));
  assert.equal(response.status, 200);
  assert.equal(safe.calls.length, 2);

  const post = scripted(timedOut(), new Response("ok"));
  await assert.rejects(
    retry({ sleep }).wrap(post.send)(makeRequest({ method: "POST" })),
    isNamed("TimeoutError"),
  );
  assert.equal(post.calls.length, 1);
});

Deno.test("retry: an AbortError is never retried", async () => {
  const { sleep } = fakeSleep();
  const { send, calls } = scripted(new DOMException("aborted", "AbortError"));
  await assert.rejects(
    retry({ sleep }).wrap(send)(makeRequest({ tags: READ_ONLY })),
    isNamed("AbortError"),
  );
  assert.equal(calls.length, 1);
});

Deno.test("retry: nothing is retried once the caller has aborted", async () => {
  const { sleep, delays } = fakeSleep();
  const controller = new AbortController();
  // The response arrives, but the caller aborted meanwhile: it is returned as is.
  const late = scripted(() => {
    controller.abort();
    return new Response(null, { status: 503 });
  });
  const response = await retry({ sleep }).wrap(late.send)(
    makeRequest({ tags: READ_ONLY, options: { signal: controller.signal } }),
  );
  assert.equal(response.status, 503);
  assert.equal(late.calls.length, 1);

  // A caller's abort whose reason is a TimeoutError is still the caller's.
  const deadline = new AbortController();
  const failing = scripted(() => {
    deadline.abort(new DOMException("caller deadline", "TimeoutError"));
    throw deadline.signal.reason;
  });
  await assert.rejects(
    retry({ sleep }).wrap(failing.send)(
      makeRequest({ tags: READ_ONLY, options: { signal: deadline.signal } }),
    ),
    { name: "TimeoutError", message: "caller deadline" },
  );
  assert.equal(failing.calls.length, 1);
  assert.deepEqual(delays, []);
});

Deno.test("retry: an abort during the sleep ends the call without another attempt", async () => {
  const controller = new AbortController();
  const { send, calls } = scripted(new Response(null, { status: 503 }));
  // The sleep sees the caller's signal and rejects with its reason.
  const sleep = (_ms: number, signal: AbortSignal | undefined) => {
    assert.equal(signal, controller.signal);
    controller.abort();
    return Promise.reject(signal?.reason);
  };
  await assert.rejects(
    retry({ sleep }).wrap(send)(
      makeRequest({ tags: READ_ONLY, options: { signal: controller.signal } }),
    ),
    isNamed("AbortError"),
  );
  assert.equal(calls.length, 1);

  // Even a sleep that ignores the signal does not lead to another attempt.
  const stubborn = new AbortController();
  const again = scripted(new Response(null, { status: 503 }));
  await assert.rejects(
    retry({
      sleep: () => {
        stubborn.abort();
        return Promise.resolve();
      },
    }).wrap(again.send)(makeRequest({ tags: READ_ONLY, options: { signal: stubborn.signal } })),
    isNamed("AbortError"),
  );
  assert.equal(again.calls.length, 1);
});

Deno.test("retry: the default sleep is cut short by the caller's abort", async () => {
  const controller = new AbortController();
  const { send, calls } = scripted(() => {
    // Aborts once retry is asleep (a 5 s backoff that must not be waited out).
    setTimeout(() => controller.abort(), 0);
    return new Response(null, { status: 503 });
  });
  await assert.rejects(
    retry({ baseDelay: 10_000, random: () => 0.5 }).wrap(send)(
      makeRequest({ tags: READ_ONLY, options: { signal: controller.signal } }),
    ),
    isNamed("AbortError"),
  );
  assert.equal(calls.length, 1);
});

Deno.test("retry: the body of a response about to be retried is cancelled, not the last one's", async () => {
  const first = trackedResponse(503);
  const second = trackedResponse(503);
  const last = trackedResponse(503);
  const { send } = scripted(first.response, second.response, last.response);
  const { sleep } = fakeSleep();
  const response = await retry({ sleep }).wrap(send)(makeRequest({ tags: READ_ONLY }));
  assert.equal(response, last.response);
  assert.equal(first.cancelled(), true);
  assert.equal(second.cancelled(), true);
  assert.equal(last.cancelled(), false);
  await response.body?.cancel();
});

Deno.test("retry: each attempt gets a fresh copy of the request", async () => {
  const { sleep } = fakeSleep();
  const { send, calls } = scripted(new Response(null, { status: 503 }));
  // An inner extension that appends a header: it must not pile up across attempts.
  const stamp: ClientExtension = {
    name: "stamp",
    wrap: (next) => (request) => {
      request.headers.append("x-attempt", "1");
      return next(request);
    },
  };
  const request = makeRequest({ tags: READ_ONLY, headers: { accept: "application/json" } });
  await chain([retry({ sleep }), stamp], send)(request);
  assert.equal(calls.length, 3);
  for (const call of calls) {
    assert.equal(call.headers.get("x-attempt"), "1");
    assert.equal(call.headers.get("accept"), "application/json");
  }
  assert.equal(request.headers.has("x-attempt"), false);
});

Deno.test("retry: attempts: 1 sends once; invalid options throw", async () => {
  const { send, calls } = scripted(new Response(null, { status: 503 }));
  await retry({ attempts: 1 }).wrap(send)(makeRequest({ tags: READ_ONLY }));
  assert.equal(calls.length, 1);
  assert.throws(() => retry({ attempts: 0 }), RangeError);
  assert.throws(() => retry({ attempts: 2.5 }), RangeError);
  assert.throws(() => retry({ baseDelay: -1 }), RangeError);
  assert.throws(() => retry({ maxDelay: Number.NaN }), RangeError);
});

Deno.test("retry (integration): two 503s with Retry-After: 0, then success", async () => {
  let hits = 0;
  await withServer(
    () =>
      ++hits <= 2
        ? new Response("busy", { status: 503, headers: { "retry-after": "0" } })
        : Response.json({ ok: true }),
    async (base) => {
      const response = await retry().wrap(fetchSend)(
        makeRequest({ url: `${base}/books`, tags: READ_ONLY }),
      );
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { ok: true });
      assert.equal(hits, 3);
    },
  );
});
