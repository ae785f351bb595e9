// Tests of the client extensions (retry, timeout, interceptors, logging) and the
// pagination helpers: unit tests over a fake `next: Send` with hand-built
// requests, a fake sleep, a fake clock and a fake random, then one integration
// test each against a real `Deno.serve` with `fetch` as the sender, and
// end-to-end cases through `createClient` with the documented order.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import {
  type CallOptions,
  ClientError,
  type ClientExtension,
  type ClientRequest,
  createClient,
  createFetch,
  http,
  type Send,
} from "@ramify/api/http";
import { api, op } from "@ramify/api/tree";
import type { HttpVerb, Tags } from "@ramify/api/tree/node";
import { z } from "zod";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import { interceptors } from "@ramify/api/http/extensions/interceptors";
import { type Logger, logging } from "@ramify/api/http/extensions/logging";
import { paginate, paginatePages } from "@ramify/api/http/extensions/pagination";
import { assertType, type Equal } from "../../support/types.ts";

// ---------------------------------------------------------------- helpers

interface RequestParts {
  readonly method?: HttpVerb;
  readonly url?: string;
  readonly tags?: Tags;
  readonly headers?: HeadersInit;
  readonly body?: string;
  readonly signal?: AbortSignal;
  readonly options?: CallOptions;
}

/** A request as the client would build it; the signal defaults to the caller's. */
function makeRequest(init: RequestParts = {}): ClientRequest {
  const method = init.method ?? "GET";
  const options = init.options ?? {};
  return {
    operation: {
      method,
      path: "/books",
      steps: [{ kind: "child", name: "books" }],
      tags: init.tags ?? {},
    },
    method,
    url: init.url ?? "http://api.test/books",
    headers: new Headers(init.headers),
    body: init.body,
    signal: init.signal ?? options.signal,
    options,
  };
}

const READ_ONLY: Tags = { readOnly: true, idempotent: true };

type Outcome = Response | Error | ((request: ClientRequest) => Response | Promise<Response>);

/** A sender playing `outcomes` in order (the last one repeats), recording each request. */
function scripted(...outcomes: Outcome[]): { send: Send; calls: ClientRequest[] } {
  const calls: ClientRequest[] = [];
  const send: Send = async (request) => {
    const outcome = outcomes[Math.min(calls.length, outcomes.length - 1)];
    calls.push(request);
    if (outcome instanceof Response) return outcome;
    if (outcome instanceof Error) throw outcome;
    return await outcome(request);
  };
  return { send, calls };
}

/** A sleep that returns at once, recording the delays asked for. */
function fakeSleep(): {
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  delays: number[];
} {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms);
      return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    },
  };
}

/** A sender that never answers, and rejects with the signal's reason when it aborts. */
const untilAborted: Send = (request) =>
  new Promise((_, reject) => {
    const signal = request.signal;
    assert.ok(signal, "the request must carry a signal");
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

function chain(extensions: readonly ClientExtension[], send: Send): Send {
  return extensions.reduceRight<Send>((next, extension) => extension.wrap(next), send);
}

/** A response whose body records being cancelled. */
function trackedResponse(status: number, headers?: HeadersInit): {
  response: Response;
  cancelled: () => boolean;
} {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { status, headers }), cancelled: () => cancelled };
}

function isNamed(name: string): (error: unknown) => boolean {
  return (error) => error instanceof DOMException && error.name === name;
}

/** The real sender: `fetch`. */
const fetchSend: Send = (request) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
  });

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

// ----------------------------------------------------------- interceptors

Deno.test("interceptors: composed, the outer onRequest runs first and its onResponse last", async () => {
  const events: string[] = [];
  const { send } = scripted(() => {
    events.push("send");
    return new Response("ok");
  });
  const hooks = (name: string) =>
    interceptors({
      onRequest: () => void events.push(`${name}.onRequest`),
      onResponse: () => void events.push(`${name}.onResponse`),
    });
  await chain([hooks("outer"), hooks("inner")], send)(makeRequest());
  assert.deepEqual(events, [
    "outer.onRequest",
    "inner.onRequest",
    "send",
    "inner.onResponse",
    "outer.onResponse",
  ]);
});

Deno.test("interceptors: composed, the inner onError runs first and may recover for the outer", async () => {
  const events: string[] = [];
  const { send } = scripted(new TypeError("down"));
  const extensions = [
    interceptors({
      onResponse: (response) => void events.push(`outer.onResponse ${response.status}`),
      onError: () => void events.push("outer.onError"),
    }),
    interceptors({
      onError: () => {
        events.push("inner.onError");
        return new Response("cached", { status: 203 });
      },
    }),
  ];
  const response = await chain(extensions, send)(makeRequest());
  assert.equal(await response.text(), "cached");
  assert.deepEqual(events, ["inner.onError", "outer.onResponse 203"]);
});

Deno.test("interceptors: onRequest changes the request in place or replaces it, in order", async () => {
  const { send, calls } = scripted(new Response("ok"));
  const original = makeRequest();
  const seen: string[] = [];
  await interceptors({
    onRequest: [
      (request) => {
        request.headers.set("authorization", "Bearer t");
      },
      (request) => Promise.resolve({ ...request, url: `${request.url}?page=2` }),
      (request) => {
        seen.push(request.url);
        request.headers.set("x-seen", request.headers.get("authorization") ?? "");
      },
    ],
    onResponse: (_response, request) => void seen.push(`response for ${request.url}`),
  }).wrap(send)(original);
  const sent = calls[0];
  assert.equal(sent.url, "http://api.test/books?page=2");
  assert.equal(sent.headers.get("authorization"), "Bearer t");
  assert.equal(sent.headers.get("x-seen"), "Bearer t");
  assert.equal(original.url, "http://api.test/books", "a replacement leaves the original alone");
  assert.deepEqual(seen, [
    "http://api.test/books?page=2",
    "response for http://api.test/books?page=2",
  ]);
});

Deno.test("interceptors: onResponse replacements chain in order", async () => {
  const { send } = scripted(new Response("raw", { status: 200 }));
  const response = await interceptors({
    onResponse: [
      async (response) => new Response(`${await response.text()}+1`, { status: 201 }),
      () => undefined,
      async (response) => new Response(`${await response.text()}+2`, { status: response.status }),
    ],
  }).wrap(send)(makeRequest());
  assert.equal(response.status, 201);
  assert.equal(await response.text(), "raw+1+2");
});

Deno.test("interceptors: onError observes and rethrows, recovers, or replaces the error", async () => {
  const failure = new TypeError("down");
  const observed: unknown[] = [];
  const { send } = scripted(failure);
  const observer = (error: unknown, request: ClientRequest) => {
    observed.push(error, request.url);
  };
  // Observed by every hook, then rethrown as is.
  await assert.rejects(
    interceptors({ onError: [observer, observer] }).wrap(send)(makeRequest()),
    (error) => error === failure,
  );
  assert.deepEqual(observed, [failure, "http://api.test/books", failure, "http://api.test/books"]);

  // The first recovery wins and skips the rest; onResponse is not run on it.
  let later = false;
  let onResponse = false;
  const recovered = await interceptors({
    onError: [
      () => new Response("fallback"),
      () => void (later = true),
    ],
    onResponse: () => void (onResponse = true),
  }).wrap(send)(makeRequest());
  assert.equal(await recovered.text(), "fallback");
  assert.equal(later, false);
  assert.equal(onResponse, false);

  // A hook that throws replaces the error.
  await assert.rejects(
    interceptors({
      onError: () => {
        throw new Error("wrapped");
      },
    }).wrap(send)(makeRequest()),
    { message: "wrapped" },
  );
});

Deno.test("interceptors: errors of onRequest and onResponse are not handed to onError", async () => {
  let onError = false;
  const { send, calls } = scripted(new Response("ok"));
  await assert.rejects(
    interceptors({
      onRequest: () => {
        throw new Error("refused");
      },
      onError: () => void (onError = true),
    }).wrap(send)(makeRequest()),
    { message: "refused" },
  );
  assert.equal(calls.length, 0);
  await assert.rejects(
    interceptors({
      onResponse: () => {
        throw new Error("bad response");
      },
      onError: () => void (onError = true),
    }).wrap(send)(makeRequest()),
    { message: "bad response" },
  );
  assert.equal(onError, false);
});

Deno.test("interceptors: no hooks pass everything through", async () => {
  const response = new Response("ok");
  const { send, calls } = scripted(response);
  const request = makeRequest();
  assert.equal(await interceptors({}).wrap(send)(request), response);
  assert.equal(calls[0], request);
});

Deno.test("interceptors (integration): a header added on the way out, the response replaced", async () => {
  await withServer(
    (request) => Response.json({ auth: request.headers.get("authorization") }),
    async (base) => {
      const send = interceptors({
        onRequest: (request) => {
          request.headers.set("authorization", "Bearer secret");
        },
        onResponse: async (response) =>
          Response.json({ wrapped: await response.json() }, { status: response.status }),
      }).wrap(fetchSend);
      const response = await send(makeRequest({ url: `${base}/me` }));
      assert.deepEqual(await response.json(), { wrapped: { auth: "Bearer secret" } });
    },
  );
});

// ---------------------------------------------------------------- logging

type Line = [level: string, message: string, details: Record<string, unknown>];

function recordingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, details: Record<string, unknown>) =>
    void lines.push([level, message, details]);
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/** A clock answering 100, 112, 124, ... */
function fakeClock(): () => number {
  let time = 88;
  return () => (time += 12);
}

Deno.test("logging: request at debug, response at info, 4xx/5xx at warn, failure at error", async () => {
  const { logger, lines } = recordingLogger();
  const send = logging({ level: "debug", logger, now: fakeClock() }).wrap(
    scripted(
      new Response("ok", { headers: { "content-type": "text/plain" } }),
      new Response(null, { status: 404 }),
      new TypeError("down"),
    ).send,
  );
  await send(makeRequest({ headers: { accept: "application/json" } }));
  await send(makeRequest({ method: "DELETE" }));
  const failure = await send(makeRequest()).catch((error) => error);
  assert.ok(failure instanceof TypeError);
  const url = "http://api.test/books";
  assert.deepEqual(lines, [
    ["debug", `GET ${url}`, { method: "GET", url, headers: { accept: "application/json" } }],
    ["info", `GET ${url} 200 (12 ms)`, {
      method: "GET",
      url,
      status: 200,
      durationMs: 12,
      headers: { "content-type": "text/plain" },
    }],
    ["debug", `DELETE ${url}`, { method: "DELETE", url, headers: {} }],
    ["warn", `DELETE ${url} 404 (12 ms)`, {
      method: "DELETE",
      url,
      status: 404,
      durationMs: 12,
      headers: {},
    }],
    ["debug", `GET ${url}`, { method: "GET", url, headers: {} }],
    ["error", `GET ${url} failed`, { method: "GET", url, durationMs: 12, error: failure }],
  ]);
});

Deno.test("logging: nothing below the level is written", async () => {
  const outcomes =
    () => [new Response("ok"), new Response(null, { status: 500 }), new TypeError("x")];
  const levelsAt = async (level?: "info" | "warn" | "error" | "silent") => {
    const { logger, lines } = recordingLogger();
    const send = logging({ level, logger }).wrap(scripted(...outcomes()).send);
    await send(makeRequest());
    await send(makeRequest());
    await send(makeRequest()).catch(() => {});
    return lines.map(([lineLevel]) => lineLevel);
  };
  assert.deepEqual(await levelsAt(), ["info", "warn", "error"], "the default level is info");
  assert.deepEqual(await levelsAt("info"), ["info", "warn", "error"]);
  assert.deepEqual(await levelsAt("warn"), ["warn", "error"]);
  assert.deepEqual(await levelsAt("error"), ["error"]);
  assert.deepEqual(await levelsAt("silent"), []);
});

Deno.test("logging: response headers only at debug", async () => {
  const { logger, lines } = recordingLogger();
  await logging({ logger, now: fakeClock() }).wrap(scripted(new Response("ok")).send)(
    makeRequest(),
  );
  assert.deepEqual(lines, [["info", "GET http://api.test/books 200 (12 ms)", {
    method: "GET",
    url: "http://api.test/books",
    status: 200,
    durationMs: 12,
  }]]);
});

Deno.test("logging: credential headers are redacted in the log, not on the wire", async () => {
  const { logger, lines } = recordingLogger();
  const { send, calls } = scripted(
    new Response("ok", { headers: { "set-cookie": "session=abc", "x-session": "s2" } }),
  );
  await logging({ level: "debug", logger, redact: ["X-Session"] }).wrap(send)(
    makeRequest({
      headers: {
        authorization: "Bearer secret",
        "proxy-authorization": "Basic cHJveHk=",
        cookie: "session=abc",
        "x-api-key": "k",
        "x-session": "s1",
        accept: "application/json",
      },
    }),
  );
  assert.deepEqual(lines[0][2].headers, {
    accept: "application/json",
    authorization: "[redacted]",
    cookie: "[redacted]",
    "proxy-authorization": "[redacted]",
    "x-api-key": "[redacted]",
    "x-session": "[redacted]",
  });
  assert.deepEqual(lines[1][2].headers, {
    "content-type": "text/plain;charset=UTF-8",
    "set-cookie": "[redacted]",
    "x-session": "[redacted]",
  });
  assert.equal(calls[0].headers.get("authorization"), "Bearer secret");
  assert.equal(calls[0].headers.get("x-session"), "s1");
});

Deno.test("logging: URL userinfo and secret query parameters are redacted", async () => {
  const { logger, lines } = recordingLogger();
  const { send, calls } = scripted(new Response("ok"));
  const url = "http://ann:pw@api.test/books?token=t1&page=2&API_KEY=k&access%5Ftoken=a&sig=s&" +
    "q=a%20b&password&secret=x#top";
  await logging({ level: "debug", logger, redact: ["sig"] }).wrap(send)(makeRequest({ url }));
  const expected = "http://[redacted]@api.test/books?token=[redacted]&page=2&API_KEY=[redacted]&" +
    "access%5Ftoken=[redacted]&sig=[redacted]&q=a%20b&password=[redacted]&secret=[redacted]#top";
  assert.equal(lines[0][1], `GET ${expected}`);
  assert.equal(lines[0][2].url, expected);
  assert.equal(lines[1][2].url, expected);
  assert.equal(calls[0].url, url, "the request is sent untouched");
  for (const [, message, details] of lines) {
    for (const secret of ["ann", "pw", "t1", "=k", "=a&", "=s&", "=x"]) {
      assert.ok(!message.includes(secret) && !JSON.stringify(details).includes(secret), secret);
    }
  }
});

Deno.test("logging: URLs without secrets are logged as they are", async () => {
  const { logger, lines } = recordingLogger();
  const url = "http://api.test/books/%C3%A9?page=2&sort=title+asc&empty=&flag";
  await logging({ logger }).wrap(scripted(new Response("ok")).send)(makeRequest({ url }));
  assert.equal(lines[0][2].url, url);
  assert.equal(lines[0][1].startsWith(`GET ${url} 200`), true);
});

Deno.test("logging: a failure is logged and rethrown unchanged", async () => {
  const { logger, lines } = recordingLogger();
  const abort = new DOMException("stopped", "AbortError");
  await assert.rejects(
    logging({ logger }).wrap(scripted(abort).send)(makeRequest()),
    (error) => error === abort,
  );
  assert.equal(lines.length, 1);
  assert.equal(lines[0][0], "error");
  assert.equal(lines[0][2].error, abort);
});

Deno.test("logging (integration): each request over the wire is logged with its status", async () => {
  const { logger, lines } = recordingLogger();
  await withServer(
    (request) =>
      new URL(request.url).pathname === "/missing"
        ? new Response("no", { status: 404 })
        : new Response("yes"),
    async (base) => {
      const send = logging({ logger }).wrap(fetchSend);
      await (await send(makeRequest({ url: `${base}/books?token=abc` }))).text();
      await (await send(makeRequest({ url: `${base}/missing` }))).text();
    },
  );
  assert.deepEqual(lines.map(([level, , details]) => [level, details.status, details.url]), [
    ["info", 200, lines[0][2].url],
    ["warn", 404, lines[1][2].url],
  ]);
  assert.match(String(lines[0][2].url), /\/books\?token=\[redacted\]$/);
  assert.equal(typeof lines[0][2].durationMs, "number");
});

// ------------------------------------------------------------- pagination

interface Book {
  readonly id: number;
}

const BOOKS: readonly Book[] = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));

interface CursorInput {
  readonly shelf: string;
  readonly cursor?: string;
  readonly after?: string;
}

interface CursorPage {
  readonly books: readonly Book[];
  readonly next: string | null;
}

/** A cursor-paged listing of BOOKS, 3 per page, the cursor being the next index. */
function cursorLeaf(param: "cursor" | "after" = "cursor") {
  const inputs: CursorInput[] = [];
  const calls: (CallOptions | undefined)[] = [];
  const leaf = (input: CursorInput, options?: CallOptions): Promise<CursorPage> => {
    inputs.push(input);
    calls.push(options);
    const start = Number(input[param] ?? 0);
    const end = start + 3;
    return Promise.resolve({
      books: BOOKS.slice(start, end),
      next: end < BOOKS.length ? String(end) : null,
    });
  };
  return { leaf, inputs, calls };
}

interface OffsetInput {
  readonly offset?: number;
  readonly limit?: number;
  readonly skip?: number;
  readonly take?: number;
}

interface OffsetPage {
  readonly data: readonly Book[];
  readonly total: number;
}

function offsetLeaf(items: readonly Book[] = BOOKS) {
  const inputs: OffsetInput[] = [];
  const leaf = (input: OffsetInput): Promise<OffsetPage> => {
    inputs.push(input);
    const offset = input.offset ?? input.skip ?? 0;
    const limit = input.limit ?? input.take ?? 10;
    return Promise.resolve({ data: items.slice(offset, offset + limit), total: items.length });
  };
  return { leaf, inputs };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

const cursorStyle = {
  style: "cursor",
  items: (page: CursorPage) => page.books,
  next: (page: CursorPage) => page.next,
} as const;

Deno.test("paginate (cursor): every item across pages, the cursor sent back", async () => {
  const { leaf, inputs } = cursorLeaf();
  const books = await collect(paginate(leaf, { shelf: "a" }, cursorStyle));
  assert.deepEqual(books, BOOKS);
  assert.deepEqual(inputs, [
    { shelf: "a" },
    { shelf: "a", cursor: "3" },
    { shelf: "a", cursor: "6" },
  ]);
});

Deno.test("paginate (cursor): a custom param, a resumed cursor, and '' as the end", async () => {
  const { leaf, inputs } = cursorLeaf("after");
  const ids = await collect(
    paginate(leaf, { shelf: "a", after: "3" }, {
      style: "cursor",
      cursorParam: "after",
      items: (page) => page.books.map((book) => book.id),
      next: (page) => page.next ?? "",
    }),
  );
  assert.deepEqual(ids, [4, 5, 6, 7]);
  assert.deepEqual(inputs, [{ shelf: "a", after: "3" }, { shelf: "a", after: "6" }]);
});

Deno.test("paginate (offset): pages of pageSize until a short page", async () => {
  const { leaf, inputs } = offsetLeaf();
  const books = await collect(
    paginate(leaf, {}, { style: "offset", pageSize: 3, items: (page) => page.data }),
  );
  assert.deepEqual(books, BOOKS);
  assert.deepEqual(inputs, [
    { offset: 0, limit: 3 },
    { offset: 3, limit: 3 },
    { offset: 6, limit: 3 },
  ]);
});

Deno.test("paginate (offset): an exact multiple ends on the empty page, or earlier with total", async () => {
  const six = BOOKS.slice(0, 6);
  const plain = offsetLeaf(six);
  assert.deepEqual(
    await collect(paginate(plain.leaf, {}, { style: "offset", pageSize: 3, items: (p) => p.data })),
    six,
  );
  assert.equal(plain.inputs.length, 3);

  const counted = offsetLeaf(six);
  assert.deepEqual(
    await collect(
      paginate(counted.leaf, {}, {
        style: "offset",
        pageSize: 3,
        items: (page) => page.data,
        total: (page) => page.total,
      }),
    ),
    six,
  );
  assert.equal(counted.inputs.length, 2);

  // A leaf whose input may be left out.
  const optional = offsetLeaf(six);
  const leaf = (input?: OffsetInput) => optional.leaf(input ?? {});
  assert.deepEqual(
    await collect(
      paginate(leaf, undefined, { style: "offset", pageSize: 4, items: (p) => p.data }),
    ),
    six,
  );
  assert.deepEqual(optional.inputs, [{ offset: 0, limit: 4 }, { offset: 4, limit: 4 }]);

  const empty = offsetLeaf([]);
  assert.deepEqual(
    await collect(paginate(empty.leaf, {}, { style: "offset", pageSize: 3, items: (p) => p.data })),
    [],
  );
  assert.equal(empty.inputs.length, 1);
});

Deno.test("paginate (offset): custom params, starting at the input's offset", async () => {
  const { leaf, inputs } = offsetLeaf();
  const books = await collect(
    paginate(leaf, { skip: 2 }, {
      style: "offset",
      offsetParam: "skip",
      limitParam: "take",
      pageSize: 4,
      items: (page) => page.data,
    }),
  );
  assert.deepEqual(books, BOOKS.slice(2));
  assert.deepEqual(inputs, [{ skip: 2, take: 4 }, { skip: 6, take: 4 }]);
});

Deno.test("paginate: maxPages caps the requests in both styles", async () => {
  const cursor = cursorLeaf();
  assert.deepEqual(
    await collect(paginate(cursor.leaf, { shelf: "a" }, { ...cursorStyle, maxPages: 2 })),
    BOOKS.slice(0, 6),
  );
  assert.equal(cursor.inputs.length, 2);

  const offset = offsetLeaf();
  assert.deepEqual(
    await collect(
      paginate(offset.leaf, {}, {
        style: "offset",
        pageSize: 2,
        maxPages: 1,
        items: (p) => p.data,
      }),
    ),
    BOOKS.slice(0, 2),
  );
  assert.equal(offset.inputs.length, 1);

  await assert.rejects(
    collect(paginate(cursor.leaf, { shelf: "a" }, { ...cursorStyle, maxPages: 0 })),
    RangeError,
  );
  await assert.rejects(
    collect(paginate(offset.leaf, {}, { style: "offset", pageSize: 0, items: (p) => p.data })),
    RangeError,
  );
});

Deno.test("paginate: breaking out early stops further requests", async () => {
  const { leaf, inputs } = cursorLeaf();
  const seen: Book[] = [];
  for await (const book of paginate(leaf, { shelf: "a" }, cursorStyle)) {
    seen.push(book);
    if (book.id === 2) break;
  }
  assert.deepEqual(seen, BOOKS.slice(0, 2));
  assert.equal(inputs.length, 1);

  // Pages are fetched only as items are used: the fourth item needs the second page.
  const lazy = cursorLeaf();
  const iterator = paginate(lazy.leaf, { shelf: "a" }, cursorStyle);
  for (let i = 0; i < 3; i++) await iterator.next();
  assert.equal(lazy.inputs.length, 1);
  await iterator.next();
  assert.equal(lazy.inputs.length, 2);
  await iterator.return();
  assert.equal(lazy.inputs.length, 2);
});

Deno.test("paginate: the signal goes to each page request and aborting stops the iteration", async () => {
  const controller = new AbortController();
  const { leaf, inputs, calls } = cursorLeaf();
  const seen: Book[] = [];
  await assert.rejects(
    (async () => {
      for await (
        const book of paginate(leaf, { shelf: "a" }, { ...cursorStyle, signal: controller.signal })
      ) {
        seen.push(book);
        if (book.id === 3) controller.abort();
      }
    })(),
    isNamed("AbortError"),
  );
  assert.deepEqual(seen, BOOKS.slice(0, 3));
  assert.equal(inputs.length, 1);
  assert.equal(calls[0]?.signal, controller.signal);
});

Deno.test("paginatePages: yields whole pages", async () => {
  const { leaf } = cursorLeaf();
  const pages = await collect(paginatePages(leaf, { shelf: "a" }, cursorStyle));
  assert.deepEqual(pages.map((page) => page.books.length), [3, 3, 1]);
  assert.deepEqual(pages.map((page) => page.next), ["3", "6", null]);
});

Deno.test("paginate: types are inferred from the leaf and the items function", () => {
  const { leaf } = cursorLeaf();
  const books = paginate(leaf, { shelf: "a" }, {
    style: "cursor",
    items: (page) => {
      assertType<Equal<typeof page, CursorPage>>(true);
      return page.books;
    },
    next: (page) => page.next,
  });
  assertType<Equal<typeof books, AsyncGenerator<Book, void, undefined>>>(true);

  const titles = paginate(offsetLeaf().leaf, {}, {
    style: "offset",
    pageSize: 2,
    items: (page) => page.data.map((book) => `#${book.id}`),
  });
  assertType<Equal<typeof titles, AsyncGenerator<string, void, undefined>>>(true);

  const pages = paginatePages(leaf, { shelf: "a" }, cursorStyle);
  assertType<Equal<typeof pages, AsyncGenerator<CursorPage, void, undefined>>>(true);

  // The input is checked against the leaf's input type, not inferred from it.
  // @ts-expect-error `shelf` is required by the leaf
  paginate(leaf, {}, cursorStyle);
  // @ts-expect-error `shelf` is a string
  paginate(leaf, { shelf: 1 }, cursorStyle);
  // @ts-expect-error the items function must take the leaf's page
  paginate(leaf, { shelf: "a" }, {
    style: "offset",
    pageSize: 2,
    items: (page: OffsetPage) => page.data,
  });
});

Deno.test("paginate (integration): a cursor-paged endpoint over the wire", async () => {
  await withServer(
    (request) => {
      const start = Number(new URL(request.url).searchParams.get("cursor") ?? 0);
      const end = start + 3;
      return Response.json({
        books: BOOKS.slice(start, end),
        next: end < BOOKS.length ? String(end) : null,
      });
    },
    async (base) => {
      const send = chain([retry(), timeout({ ms: 10_000 })], fetchSend);
      // A leaf the way the typed client exposes one: (input, callOptions?) => Promise<Page>.
      const listBooks = async (
        input: { cursor?: string },
        options?: CallOptions,
      ): Promise<CursorPage> => {
        const query = input.cursor === undefined ? "" : `?cursor=${input.cursor}`;
        const response = await send(
          makeRequest({ url: `${base}/books${query}`, tags: READ_ONLY, options }),
        );
        return await response.json();
      };
      assert.deepEqual(await collect(paginate(listBooks, {}, cursorStyle)), BOOKS);
    },
  );
});

// ------------------------------------------------- through createClient

interface ShelfPage {
  readonly books: readonly Book[];
  readonly next: string | null;
}

/** A tree with a paged read-only list, a POST, and a read that waits for `release`. */
function shelfTree(released: Promise<void>) {
  return api({
    books: api({
      list: op(({ cursor }): ShelfPage => {
        const start = Number(cursor ?? 0);
        const end = start + 3;
        return { books: BOOKS.slice(start, end), next: end < BOOKS.length ? String(end) : null };
      }, { tags: { readOnly: true }, input: z.object({ cursor: z.string().optional() }) }),
      add: op(({ title }) => ({ title }), http.post, { input: z.object({ title: z.string() }) }),
      slow: op(async () => {
        await released;
        return "late";
      }, http.get),
    }),
  });
}

interface Shelf {
  readonly client: ReturnType<typeof createShelfClient>;
  /** The headers of each request the server received. */
  readonly seen: Headers[];
  /** Resolves when the first request reaches the server. */
  readonly arrived: Promise<void>;
}

/**
 * Serves the tree behind a gate that answers the first `failures` requests
 * with 503 and `Retry-After: 0`, and runs `run` with a client of it.
 */
async function withShelf(
  failures: number,
  extensions: readonly ClientExtension[],
  run: (shelf: Shelf) => Promise<void>,
): Promise<void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const tree = shelfTree(released);
  const handler = createFetch(tree);
  const seen: Headers[] = [];
  await withServer(
    (request) => {
      seen.push(request.headers);
      arrive();
      return seen.length <= failures
        ? new Response("busy", { status: 503, headers: { "retry-after": "0" } })
        : handler(request);
    },
    async (baseUrl) => {
      try {
        await run({ client: createShelfClient(tree, baseUrl, extensions), seen, arrived });
      } finally {
        // The slow leaf's handlers end here, so the server can shut down.
        release();
      }
    },
  );
}

function createShelfClient(
  tree: ReturnType<typeof shelfTree>,
  baseUrl: string,
  extensions: readonly ClientExtension[],
) {
  return createClient(tree, { baseUrl, extensions });
}

Deno.test("createClient: the documented order, end to end over a flaky server", async () => {
  const { logger, lines } = recordingLogger();
  const { sleep } = fakeSleep();
  let attempt = 0;
  const extensions = [
    retry({ sleep }),
    timeout({ ms: 30_000 }),
    interceptors({
      onRequest: (request) => {
        request.headers.set("authorization", "Bearer secret");
        request.headers.set("x-attempt", String(++attempt));
      },
    }),
    logging({ level: "debug", logger }),
  ];
  await withShelf(2, extensions, async ({ client, seen }) => {
    const page = await client.books.list({ cursor: "3" });
    assert.deepEqual(page, { books: BOOKS.slice(3, 6), next: "6" });
    // Retried twice; the interceptor ran on every attempt.
    assert.deepEqual(seen.map((headers) => headers.get("x-attempt")), ["1", "2", "3"]);
    assert.ok(seen.every((headers) => headers.get("authorization") === "Bearer secret"));
  });
  // Logging, innermost, saw each attempt with the interceptor's headers, redacted.
  assert.deepEqual(lines.map(([level]) => level), [
    "debug",
    "warn",
    "debug",
    "warn",
    "debug",
    "info",
  ]);
  const debugLines = lines.filter(([level]) => level === "debug");
  assert.deepEqual(
    debugLines.map(([, , details]) => details.headers),
    ["1", "2", "3"].map((attempt) => ({
      accept: "application/json, application/problem+json",
      authorization: "[redacted]",
      "x-attempt": attempt,
    })),
  );
});

Deno.test("createClient: a POST is not retried, and its 503 is a ClientError", async () => {
  const { sleep, delays } = fakeSleep();
  await withShelf(1, [retry({ sleep })], async ({ client, seen }) => {
    await assert.rejects(
      client.books.add({ title: "Emma" }),
      (error) => error instanceof ClientError && error.status === 503,
    );
    assert.equal(seen.length, 1);
    assert.deepEqual(await client.books.add({ title: "Emma" }), { title: "Emma" });
  });
  assert.deepEqual(delays, []);
});

Deno.test("createClient: a per-call timeout rejects with TimeoutError, each attempt retried", async () => {
  const { sleep } = fakeSleep();
  await withShelf(0, [retry({ sleep }), timeout()], async ({ client, seen }) => {
    await assert.rejects(client.books.slow({}, { timeout: 20 }), isNamed("TimeoutError"));
    assert.equal(seen.length, 3);
  });
});

Deno.test("createClient: the caller's abort is final", async () => {
  const { sleep } = fakeSleep();
  const controller = new AbortController();
  await withShelf(0, [retry({ sleep }), timeout({ ms: 30_000 })], async (shelf) => {
    const call = shelf.client.books.slow({}, { signal: controller.signal });
    await shelf.arrived;
    controller.abort();
    await assert.rejects(call, isNamed("AbortError"));
    assert.equal(shelf.seen.length, 1);
  });
});

Deno.test("createClient: paginate walks a client leaf, types inferred from it", async () => {
  await withShelf(0, [retry(), timeout({ ms: 30_000 })], async ({ client }) => {
    const books = paginate(client.books.list, {}, {
      style: "cursor",
      items: (page) => page.books,
      next: (page) => page.next,
    });
    assertType<Equal<typeof books, AsyncGenerator<Book, void, undefined>>>(true);
    assert.deepEqual(await collect(books), BOOKS);
    // @ts-expect-error the leaf's cursor is a string
    paginate(client.books.list, { cursor: 3 }, cursorStyle);
  });
});
