// GraphQL over HTTP's per-request path, made cheaper without giving anything up.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, type Middleware, op, use } from "@ramify/api/tree";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { post, send, withServer } from "./http_support.ts";

Deno.test("a body is read strictly as UTF-8: a replacement character sent as such is kept", async () => {
  const tree = api({
    echo: op(({ text }: { text: string }) => text, {
      tags: { readOnly: true },
      input: z.object({ text: z.string() }),
      output: z.string(),
    }),
  });
  await withServer(createHttpGraphQLServer(tree), async (url) => {
    const query = "query($t: String!) { echo(text: $t) }";
    const kept = await post(url, { query, variables: { t: "a\uFFFDb" } });
    assert.deepEqual(kept.body, { data: { echo: "a\uFFFDb" } });
    // The answer's headers, its Vary set apart from its Content-Type.
    assert.equal(kept.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(kept.headers.get("vary"), "accept");
    // The same character made by invalid bytes is refused.
    const bytes = new TextEncoder().encode(JSON.stringify({ query, variables: { t: "aXb" } }));
    bytes[bytes.indexOf(0x58)] = 0xff;
    const refused = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0].message, /UTF-8/);
  });
});

Deno.test("the handler's context keeps its lazy signal through a middleware's copy", async () => {
  let seen: { signal: unknown; surface: unknown; extra: unknown } | undefined;
  const extra: Middleware<{ extra: number }> = (_call, next) => next({ extra: 1 });
  const tree = api({
    ping: op(
      (_input, ctx) => {
        seen = { signal: ctx.signal, surface: ctx.surface, extra: ctx.extra };
        return "pong";
      },
      { tags: { readOnly: true } },
      use(extra),
    ),
  });
  await withServer(createHttpGraphQLServer(tree), async (url) => {
    assert.deepEqual((await post(url, { query: "{ ping }" })).body, { data: { ping: "pong" } });
  });
  assert.ok(seen?.signal instanceof AbortSignal);
  assert.equal(seen?.surface, "graphql");
  assert.equal(seen?.extra, 1);
});
