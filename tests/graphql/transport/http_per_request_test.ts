// GraphQL over HTTP's per-request path, made cheaper without giving anything up.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, type Middleware, op, use } from "@ramify/api/tree";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { cors } from "@ramify/api/http";
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
    assert.equal(kept.headers.get("content-type"), "application/json; charset=utf-8");
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

Deno.test("the headers an answer is made from are its own: what one answer gains, the next has not", async () => {
  const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
  const handler = createHttpGraphQLServer(tree, {
    policies: [cors({ origin: ["https://app.example"] })],
  });
  const ask = (headers: Record<string, string>) =>
    handler(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
  // CORS adds its headers to the first answer; a caller changes that answer's too.
  const first = await ask({ origin: "https://app.example" });
  assert.equal(first.headers.get("access-control-allow-origin"), "https://app.example");
  first.headers.set("content-type", "text/plain");
  first.headers.append("vary", "cookie");
  // Neither reaches the next answer, of either media type, or an error's.
  for (const accept of ["application/json", "application/graphql-response+json"]) {
    const next = await ask({ accept });
    assert.equal(next.headers.get("access-control-allow-origin"), null);
    assert.equal(next.headers.get("content-type"), `${accept}; charset=utf-8`);
    assert.deepEqual(await next.json(), { data: { ping: "pong" } });
    const failed = await handler(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body: JSON.stringify({ query: "{ nope }" }),
      }),
    );
    assert.equal(failed.status, accept === "application/json" ? 200 : 400);
    assert.equal(failed.headers.get("content-type"), `${accept}; charset=utf-8`);
    assert.equal(failed.headers.get("vary")?.includes("cookie"), false);
    await failed.body?.cancel();
  }
  assert.match(first.headers.get("vary") ?? "", /^origin, cookie$/i);
});

Deno.test("a GET's answer varies by Accept; a POST's, never stored by a cache, carries its Content-Type alone", async () => {
  const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
  await withServer(createHttpGraphQLServer(tree), async (url) => {
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const got = await send(`${url}?query=${encodeURIComponent("{ ping }")}`, {
        headers: { accept },
      });
      assert.deepEqual(got.body, { data: { ping: "pong" } });
      assert.equal(got.headers.get("vary"), "accept");
      assert.equal(got.headers.get("content-type"), `${accept}; charset=utf-8`);
      const failed = await send(`${url}?query=${encodeURIComponent("{ nope }")}`, {
        headers: { accept },
      });
      assert.equal(failed.headers.get("vary"), "accept");

      const posted = await send(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body: JSON.stringify({ query: "{ ping }" }),
      });
      assert.deepEqual(posted.body, { data: { ping: "pong" } });
      assert.deepEqual(
        [...posted.headers.keys()].filter((name) => name !== "date" && name !== "content-length"),
        [
          "content-type",
        ],
      );
      assert.equal(posted.headers.get("content-type"), `${accept}; charset=utf-8`);
    }
  });
});
