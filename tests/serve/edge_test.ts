// serve()'s one edge: its `policies` stand once in front of every surface it
// mounts (one take of a rate limit per request, whichever surface answers;
// CORS preflights at every path), each refusal in the surface's format; a
// WebSocket upgrade passes through them; a surface's own policy of the same
// name is refused when the handler is made.
import assert from "node:assert/strict";
import { createClient as createWsClient } from "graphql-ws";
import { api, op } from "@ramify/api/tree";
import { cors, rateLimit, type RateLimiter } from "@ramify/api/http";
import { createHandler, serve } from "@ramify/api/serve";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";

const tree = api({
  books: api({ titles: op(() => ["Dune"], { tags: { readOnly: true } }) }),
  ticks: op(async function* () {
    for (let i = 1; i <= 3; i++) yield i;
  }, { tags: { streaming: true } }),
});

/** A limiter that allows `allowed` requests, then refuses, counting every take. */
function counted(allowed: number): RateLimiter & { takes: number } {
  const limiter = {
    takes: 0,
    take: () => ++limiter.takes > allowed ? 2_000 : undefined,
  };
  return limiter;
}

Deno.test("serve: a rate limit given once counts each request once, on every surface", async () => {
  const limiter = counted(5);
  const server = await serve(tree, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    policies: [rateLimit({ limiter })],
  });
  const at = (path: string) => `${server.url}${path}`;
  try {
    assert.equal((await fetch(at("/books/titles"))).status, 200);
    const graphql = await fetch(at("/graphql"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ books { titles } }" }),
    });
    assert.deepEqual(await graphql.json(), { data: { books: { titles: ["Dune"] } } });
    const mcp = await fetch(at("/mcp"), mcpPost(INITIALIZE));
    assert.equal(mcp.status, 200);
    await mcp.body?.cancel();
    assert.equal((await fetch(at("/health"))).status, 200);
    const nowhere = await fetch(at("/nowhere"));
    assert.equal(nowhere.status, 404);
    await nowhere.body?.cancel();
    assert.equal(limiter.takes, 5, "one take per request, whichever surface answered");

    const rest = await fetch(at("/books/titles"));
    assert.equal(rest.status, 429);
    assert.equal(rest.headers.get("content-type"), "application/problem+json");
    assert.equal(rest.headers.get("retry-after"), "2");
    await rest.body?.cancel();
    const refusedGraphql = await fetch(at("/graphql"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ books { titles } }" }),
    });
    assert.equal(refusedGraphql.status, 429);
    assert.equal((await refusedGraphql.json()).errors[0].extensions.code, "TOO_MANY_REQUESTS");
    const refusedMcp = await fetch(at("/mcp"), mcpPost(INITIALIZE));
    assert.equal(refusedMcp.status, 429);
    assert.equal((await refusedMcp.json()).error.code, -32000);
    assert.equal(limiter.takes, 8);
  } finally {
    await server.close();
  }
});

Deno.test("serve: cors() given once answers preflights at every surface's path", async () => {
  const origin = "https://app.example";
  const handler = await createHandler(tree, { policies: [cors({ origin })] });
  const preflight = async (path: string, method: string) => {
    const answer = (await handler.fetch(
      new Request(`http://localhost${path}`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": method },
      }),
    ))!;
    return {
      status: answer.status,
      origin: answer.headers.get("access-control-allow-origin"),
      methods: answer.headers.get("access-control-allow-methods"),
    };
  };
  try {
    assert.deepEqual(await preflight("/books/titles", "GET"), {
      status: 204,
      origin,
      methods: "GET, HEAD, OPTIONS",
    });
    assert.deepEqual(await preflight("/graphql", "POST"), {
      status: 204,
      origin,
      methods: "GET, POST, OPTIONS",
    });
    assert.deepEqual(await preflight("/mcp", "POST"), {
      status: 204,
      origin,
      methods: "GET, POST, DELETE, OPTIONS",
    });
    const health = (await handler.fetch(
      new Request("http://localhost/health", { headers: { origin } }),
    ))!;
    assert.equal(health.headers.get("access-control-allow-origin"), origin);
  } finally {
    await handler.close();
  }
});

Deno.test("serve: a WebSocket upgrade passes the policies (Deno), and is limited like any request", async () => {
  const limiter = counted(1);
  const server = await serve(tree, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    mcp: false,
    policies: [cors(), rateLimit({ limiter })],
  });
  const socket = createWsClient({
    url: `ws://127.0.0.1:${server.port}/graphql`,
    retryAttempts: 0,
    lazy: true,
  });
  try {
    const ticks: unknown[] = [];
    for await (const result of socket.iterate({ query: "subscription { ticks }" })) {
      ticks.push(result.data?.ticks);
    }
    assert.deepEqual(ticks, [1, 2, 3]);
    assert.equal(limiter.takes, 1);
    const refused = await fetch(`${server.url}/graphql`, {
      headers: { upgrade: "websocket", connection: "upgrade" },
    });
    assert.equal(refused.status, 429);
    await refused.body?.cancel();
  } finally {
    await socket.dispose();
    await server.close();
  }
});

Deno.test("serve: a surface's own policy named as one of the handler's is refused when made", async () => {
  for (
    const surface of [
      { rest: { policies: [cors()] } },
      { graphql: { policies: [cors()] } },
      { graphql: { ws: { policies: [cors()] } } },
      { mcp: { policies: [cors()] } },
    ]
  ) {
    await assert.rejects(
      () => createHandler(tree, { policies: [cors()], ...surface }),
      /"cors" is a policy of the handler and of/,
    );
  }
  await assert.rejects(
    () => createHandler(tree, { rateLimit: {} } as never),
    /the option "rateLimit" is now a policy/,
  );
  // A policy of another name on one surface alone is fine.
  const handler = await createHandler(tree, {
    policies: [cors()],
    mcp: { policies: [rateLimit({ limiter: counted(0) })] },
  });
  const refused = (await handler.fetch(new Request("http://localhost/mcp", mcpPost(INITIALIZE))))!;
  assert.equal(refused.status, 429);
  await refused.body?.cancel();
  assert.equal((await handler.fetch(new Request("http://localhost/health")))!.status, 200);
  await handler.close();
});
