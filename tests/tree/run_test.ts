// The call runner: the one place where the caller's signal meets the leaf's
// deadline, and where an abort gets its meaning.
import assert from "node:assert/strict";
import { failure, untilAborted } from "../support/outcomes.ts";
import { op } from "@ramify/api/tree";
import { createCall, failureOf, runCall } from "@ramify/api/tree/catalogue";

Deno.test("runCall: a value given at once is returned at once; without a deadline the context is the caller's", async () => {
  const context = { signal: new AbortController().signal };
  let seen: unknown;
  const call = createCall(op((_input, ctx) => {
    seen = ctx;
    return "pong";
  }));
  assert.equal(runCall(call, {}, context), "pong");
  assert.equal(seen, context);
  assert.equal(await runCall(createCall(op(() => Promise.resolve(1))), {}, {}), 1);
});

Deno.test("runCall: past the deadline the handler's signal aborts and the call is a timeout", async () => {
  let signal: AbortSignal | undefined;
  const call = createCall(op((_input, ctx) => {
    signal = ctx.signal;
    return untilAborted(ctx.signal);
  }));
  const error = await failure(() => runCall(call, {}, {}, 20));
  assert.equal(failureOf(error).kind, "timeout");
  assert.equal(signal?.aborted, true);
  assert.equal((signal?.reason as DOMException).name, "TimeoutError");
  // In time: the value, and a signal that never aborted.
  const quick = createCall(op((_input, ctx) => {
    signal = ctx.signal;
    return "done";
  }));
  assert.equal(await runCall(quick, {}, {}, 1_000), "done");
  assert.equal(signal?.aborted, false);
});

Deno.test("runCall: the caller going away cancels; the same abort with the caller present is a fault", async () => {
  const caller = new AbortController();
  const call = createCall(op((_input, ctx) => untilAborted(ctx.signal)));
  const pending = failure(() => runCall(call, {}, { signal: caller.signal }));
  caller.abort();
  assert.equal(failureOf(await pending).kind, "cancelled");
  // Within a deadline too: the combined signal carries the caller's abort.
  const again = new AbortController();
  const timed = failure(() => runCall(call, {}, { signal: again.signal }, 5_000));
  again.abort();
  assert.equal(failureOf(await timed).kind, "cancelled");
  // An abort the server caused (an upstream call cut off) with the caller still there.
  const upstream = createCall(op(() => {
    throw new DOMException("upstream cut off", "AbortError");
  }));
  const error = await failure(() =>
    runCall(upstream, {}, { signal: new AbortController().signal })
  );
  assert.equal(failureOf(error).kind, "fault");
});

Deno.test("failureOf: a stream's abort counts as cancelled only when the caller's signal is aborted", () => {
  const abort = new DOMException("gone", "AbortError");
  assert.equal(failureOf(abort, { signal: AbortSignal.abort() }).kind, "cancelled");
  assert.equal(failureOf(abort, { signal: new AbortController().signal }).kind, "fault");
  assert.equal(failureOf(new Error("boom"), { signal: AbortSignal.abort() }).kind, "fault");
  // A caller that aborted with a reason of its own: the handler rethrowing it is cancelled too.
  const reason = new Error("bye");
  assert.equal(failureOf(reason, { signal: AbortSignal.abort(reason) }).kind, "cancelled");
  assert.equal(failureOf(reason, { signal: AbortSignal.abort("other") }).kind, "fault");
});
