// Limits on a bad day, on every surface: a handler that never answers (503,
// its signal aborted), a body dribbled a byte at a time (408), and a rate
// limit (429 with Retry-After, RateLimit fields on every answer) over HTTP,
// GraphQL, WebSocket and MCP.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createFetch, type RateLimit, rateLimit, tokenBucket } from "@ramify/api/http";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createMcpHandler } from "@ramify/api/tools";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { dribbledPost, withServer } from "../../support/server.ts";

let aborted: unknown;
const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true } }),
  stuck: op((_: Record<string, never>, { signal }) =>
    new Promise<string>((_, reject) =>
      signal?.addEventListener("abort", () => {
        aborted = signal.reason;
        reject(signal.reason);
      })
    )
  ),
  echo: op(({ text }) => text, { input: z.object({ text: z.string() }) }),
});

Deno.test("tokenBucket: a burst of capacity, then one per refill, per key", () => {
  let time = 0;
  const limiter = tokenBucket({ capacity: 2, refillPerSecond: 4, now: () => time });
  assert.deepEqual([limiter.take("a"), limiter.take("a"), limiter.take("a")], [
    undefined,
    undefined,
    250,
  ]);
  assert.equal(limiter.take("b"), undefined, "another key has its own bucket");
  time = 250;
  assert.equal(limiter.take("a"), undefined, "a quarter second earns one back");
  assert.equal(limiter.take("a"), 250);
  const small = tokenBucket({ capacity: 1, refillPerSecond: 1, maxKeys: 2, now: () => time });
  small.take("x");
  small.take("y");
  small.take("z"); // x is forgotten: it starts full again
  assert.equal(small.take("x"), undefined);
  assert.throws(() => tokenBucket({ capacity: 0, refillPerSecond: 1 }), RangeError);
});

Deno.test("HTTP: a handler past timeoutMs is a 503 and its signal aborts", async () => {
  aborted = undefined;
  const handler = createFetch(tree, { timeoutMs: 50, onError: () => assert.fail("logged") });
  const response = await handler(new Request("http://x/stuck", { method: "POST" }));
  assert.equal(response.status, 503);
  assert.equal((await response.json()).detail, "The operation did not finish within 50 ms");
  assert.equal((aborted as DOMException).name, "TimeoutError");
  const fast = await handler(new Request("http://x/ping"));
  assert.equal(await fast.json(), "pong");
});

Deno.test("HTTP and GraphQL: a body that does not arrive within bodyTimeoutMs is a 408", async () => {
  const rest = createFetch(tree, { bodyTimeoutMs: 100 });
  const graphql = createHttpGraphQLServer(tree, { bodyTimeoutMs: 100 });
  await withServer(
    (request) => new URL(request.url).pathname === "/graphql" ? graphql(request) : rest(request),
    async (base) => {
      const http = await dribbledPost(base, "/echo");
      assert.match(http, /^HTTP\/1.1 408/);
      assert.match(http, /The body did not arrive within 100 ms/);
      const gql = await dribbledPost(base, "/graphql");
      assert.match(gql, /^HTTP\/1.1 408/);
      assert.match(gql, /"code":"REQUEST_TIMEOUT"/);
    },
  );
});

const oneRequest = (): RateLimit => ({
  limiter: tokenBucket({ capacity: 1, refillPerSecond: 0.5 }),
  key: (request) => request.headers.get("x-client") ?? "anonymous",
});

Deno.test("HTTP: over the rate limit is a 429 problem with Retry-After, per key", async () => {
  const handler = createFetch(tree, { policies: [rateLimit(oneRequest())] });
  const ask = (client: string) =>
    handler(new Request("http://x/ping", { headers: { "x-client": client } }));
  assert.equal((await ask("a")).status, 200);
  const limited = await ask("a");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "2");
  assert.equal(limited.headers.get("content-type"), "application/problem+json");
  assert.equal((await limited.json()).title, "Too Many Requests");
  assert.equal((await ask("b")).status, 200, "another key is not limited");
});

Deno.test("HTTP and GraphQL: a request whose key is undefined is left alone by the limit", async () => {
  let asked = 0;
  const limit: RateLimit = {
    limiter: {
      take: () => {
        asked++;
        return 60_000;
      },
    },
    // Health checks are exempt; everything else is refused by this limiter.
    key: (request) => new URL(request.url).pathname === "/ping" ? undefined : "everyone",
  };
  const rest = createFetch(tree, { policies: [rateLimit(limit)] });
  for (let i = 0; i < 3; i++) {
    const response = await rest(new Request("http://x/ping"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("ratelimit-policy"), null);
  }
  assert.equal(asked, 0, "the limiter is not asked");
  const graphql = createHttpGraphQLServer(tree, { policies: [rateLimit(limit)] });
  const refused = await graphql(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ ping }" }),
    }),
  );
  assert.equal(refused.status, 429, "a keyed request is limited");
  assert.equal(asked, 1);
});

Deno.test("GraphQL over HTTP and WebSocket: over the rate limit is a 429 with Retry-After", async () => {
  const graphql = createHttpGraphQLServer(tree, { policies: [rateLimit(oneRequest())] });
  const post = () =>
    graphql(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
  assert.equal((await post()).status, 200);
  const limited = await post();
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "2");
  assert.equal((await limited.json()).errors[0].extensions.code, "TOO_MANY_REQUESTS");
  const ws = createWsHandler(createGraphQLServer(tree), { policies: [rateLimit(oneRequest())] });
  await withServer(ws, async (base) => {
    const url = base.replace("http", "ws");
    const first = new WebSocket(url, "graphql-transport-ws");
    await new Promise((resolve) => first.onopen = resolve);
    first.close();
    const refused = await fetch(base, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "2");
    await refused.body?.cancel();
  });
});

Deno.test("MCP: a rate limit answers 429; a tool past timeoutMs is a 503 tool error", async () => {
  aborted = undefined;
  const mcp = createMcpHandler(tree, {
    // The tags here pick HTTP verbs for the other tests, not MCP hints.
    warnMissingHints: false,
    timeoutMs: 50,
    policies: [rateLimit({
      limiter: tokenBucket({ capacity: 6, refillPerSecond: 0.001 }),
      key: (request) => request.headers.get("x-client") ?? "anonymous",
    })],
    onError: () => assert.fail("logged"),
  });
  await withServer(mcp, async (base) => {
    const client = new Client({ name: "limits", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const result = await client.callTool({ name: "stuck", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(
      (result.content as { text: string }[])[0].text,
      "503 Service Unavailable: The operation did not finish within 50 ms",
    );
    assert.equal((aborted as DOMException).name, "TimeoutError");
    let limited: Response | undefined;
    for (let i = 0; i < 10 && limited === undefined; i++) {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      if (response.status === 429) limited = response;
      else await response.body?.cancel();
    }
    assert.ok(limited !== undefined, "the limit was never reached");
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    assert.equal((await limited.json()).error.message, "Too many requests; try again later");
    await client.close().catch(() => {});
  });
  await mcp.close();
});

/** A limiter of two requests per key (one back every 1000 s) that counts its calls. */
function counted() {
  const bucket = tokenBucket({ capacity: 2, refillPerSecond: 0.001 });
  const limiter = {
    calls: 0,
    take: (key: string) => (limiter.calls++, bucket.take(key)),
    decide: (key: string) => (limiter.calls++, bucket.decide(key)),
  };
  return limiter;
}

/** The rate limit fields of three answers in a row: two allowed, then refused. */
const THREE = [
  ['"default";q=2;w=2000', '"default";r=1;t=1000', null],
  ['"default";q=2;w=2000', '"default";r=0;t=1000', null],
  ['"default";q=2;w=2000', '"default";r=0;t=1000', "1000"],
];
const fields = (headers: Headers) =>
  ["ratelimit-policy", "ratelimit", "retry-after"].map((name) => headers.get(name));

/** The head of a WebSocket handshake's answer, over a raw connection. */
async function handshake(port: number): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(
      "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
        "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n",
    ));
    const buffer = new Uint8Array(4096);
    const read = await conn.read(buffer);
    return new TextDecoder().decode(buffer.subarray(0, read ?? 0)).split("\r\n\r\n")[0];
  } finally {
    conn.close();
  }
}

Deno.test("RateLimit fields on every surface, allowed and refused, from one take per request", async () => {
  const rest = counted();
  const handler = createFetch(tree, { policies: [rateLimit({ limiter: rest })] });
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const response = await handler(new Request("http://x/ping"));
    await response.body?.cancel();
    answers.push(fields(response.headers));
  }
  assert.deepEqual(answers, THREE);
  assert.equal(rest.calls, 3);

  const gql = counted();
  const graphql = createHttpGraphQLServer(tree, { policies: [rateLimit({ limiter: gql })] });
  answers.length = 0;
  for (let i = 0; i < 3; i++) {
    const response = await graphql(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
    await response.body?.cancel();
    answers.push(fields(response.headers));
  }
  assert.deepEqual(answers, THREE);
  assert.equal(gql.calls, 3);

  const sockets = counted();
  await withServer(
    createWsHandler(createGraphQLServer(tree), { policies: [rateLimit({ limiter: sockets })] }),
    async (base) => {
      const port = Number(new URL(base).port);
      const heads = [await handshake(port), await handshake(port), await handshake(port)];
      assert.match(heads[0], /^HTTP\/1.1 101/);
      assert.match(heads[0], /\r\nratelimit: "default";r=1;t=1000/i);
      assert.match(heads[1], /\r\nratelimit-policy: "default";q=2;w=2000/i);
      assert.match(heads[2], /^HTTP\/1.1 429/);
      assert.match(heads[2], /\r\nratelimit: "default";r=0;t=1000/i);
      assert.match(heads[2], /\r\nretry-after: 1000/i);
    },
  );
  assert.equal(sockets.calls, 3);

  const tools = counted();
  const mcp = createMcpHandler(tree, {
    warnMissingHints: false,
    policies: [rateLimit({ limiter: tools })],
  });
  await withServer(mcp, async (base) => {
    answers.length = 0;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      await response.body?.cancel();
      answers.push(fields(response.headers));
    }
  });
  await mcp.close();
  assert.deepEqual(answers, THREE);
  assert.equal(tools.calls, 3);

  // A limiter that only says how long to wait: Retry-After alone.
  const plain = createFetch(tree, { policies: [rateLimit({ limiter: { take: () => 5_000 } })] });
  const refused = await plain(new Request("http://x/ping"));
  await refused.body?.cancel();
  assert.deepEqual(fields(refused.headers), [null, null, "5"]);
});

Deno.test("RateLimit fields reach a passed-through Response whose headers are immutable", async () => {
  const moved = api({
    old: op(() => Response.redirect("http://x/new", 308), { tags: { readOnly: true } }),
  });
  const handler = createFetch(moved, { policies: [rateLimit({ limiter: counted() })] });
  const response = await handler(new Request("http://x/old"));
  assert.equal(response.status, 308);
  assert.equal(response.headers.get("location"), "http://x/new");
  assert.deepEqual(fields(response.headers), THREE[0]);
});

Deno.test("RateLimit fields: a policy name is written as a structured-field string", async () => {
  const policy = { name: 'per "user" \\ day', quota: 5, windowSeconds: 86_400 };
  const handler = createFetch(tree, {
    policies: [rateLimit({
      limiter: {
        take: () => undefined,
        decide: () => ({ allowed: true, waitMs: 0, remaining: 4, resetMs: 17_280_000, policy }),
      },
    })],
  });
  const response = await handler(new Request("http://x/ping"));
  await response.body?.cancel();
  assert.deepEqual(fields(response.headers), [
    '"per \\"user\\" \\\\ day";q=5;w=86400',
    '"per \\"user\\" \\\\ day";r=4;t=17280',
    null,
  ]);
});
