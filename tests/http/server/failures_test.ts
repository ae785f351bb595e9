// How the router answers each kind of failure the tree classifies, in
// process: a caller gone away is 499 and not reported; an abort the handler
// throws while its caller is there is a reported 500; a declared error and a
// fault mid-stream end the stream with their problem; and the context
// function is told the surface and the request.
import assert from "node:assert/strict";
import { untilAborted } from "../../support/outcomes.ts";
import { api, LeafError, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";

const streaming = { tags: { readOnly: true, streaming: true } };

const tree = api({
  held: op((_input, { signal }) => untilAborted(signal)),
  cut: op(() => {
    const upstream = new AbortController();
    upstream.abort();
    return fetch("http://127.0.0.1:9/", { signal: upstream.signal });
  }),
  whoami: op((_input, ctx) => ({ surface: ctx.surface, path: ctx.path })),
  feeds: api({
    declared: op(async function* () {
      yield 1;
      throw new LeafError("FEED_GONE", { message: "The feed was taken down", data: { id: "7" } });
    }, { ...streaming, errors: { FEED_GONE: { status: 410 } } }),
    undeclared: op(async function* () {
      yield 1;
      throw new LeafError("FEED_GONE");
    }, streaming),
  }),
});

function serverOf(reported: unknown[]) {
  return createFetch(tree, {
    openapi: false,
    onError: (error) => reported.push(error),
    context: ({ surface, request }) => ({ surface, path: new URL(request.url).pathname }),
  });
}

Deno.test("failures: a caller gone away is a 499 that onError never sees", async () => {
  const reported: unknown[] = [];
  const caller = new AbortController();
  const answer = serverOf(reported)(
    new Request("http://x/held", { method: "POST", signal: caller.signal }),
  );
  caller.abort();
  const response = await answer;
  assert.equal(response.status, 499);
  assert.deepEqual(await response.json(), {
    type: "about:blank",
    title: "Client Closed Request",
    status: 499,
  });
  assert.deepEqual(reported, []);
});

Deno.test("failures: an abort the handler throws while its caller is there is a reported 500", async () => {
  const reported: unknown[] = [];
  const response = await serverOf(reported)(new Request("http://x/cut", { method: "POST" }));
  assert.equal(response.status, 500);
  assert.deepEqual(await response.json(), {
    type: "about:blank",
    title: "Internal Server Error",
    status: 500,
  });
  assert.equal(reported.length, 1);
  assert.equal((reported[0] as Error).name, "AbortError");
});

Deno.test("failures: the context function is told the surface and the request", async () => {
  const response = await serverOf([])(new Request("http://x/whoami", { method: "POST" }));
  assert.deepEqual(await response.json(), { surface: "http", path: "/whoami" });
});

Deno.test("failures: mid-stream, a declared error is its problem and a fault a reported bare 500", async () => {
  const reported: unknown[] = [];
  const handler = serverOf(reported);
  const declared = await (await handler(new Request("http://x/feeds/declared"))).text();
  assert.equal(
    declared,
    "id: 1\ndata: 1\n\nevent: error\ndata: " +
      JSON.stringify({
        type: "about:blank",
        title: "Gone",
        status: 410,
        detail: "The feed was taken down",
        code: "FEED_GONE",
        data: { id: "7" },
      }) + "\n\n",
  );
  assert.deepEqual(reported, []);
  const fault = await (await handler(new Request("http://x/feeds/undeclared"))).text();
  assert.equal(
    fault,
    "id: 1\ndata: 1\n\nevent: error\ndata: " +
      JSON.stringify({ type: "about:blank", title: "Internal Server Error", status: 500 }) + "\n\n",
  );
  assert.equal(reported.length, 1);
  assert.equal((reported[0] as LeafError).code, "FEED_GONE");
});
