// The one edge: request policies are values, composed once in the order
// listed, in front of REST, GraphQL over HTTP and WebSocket, and MCP; each
// surface writes a policy's refusal in its own format; the options they
// replaced are refused by name; a long-running GET has no HEAD.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import {
  applyPolicies,
  checkPolicies,
  cors,
  createFetch,
  type Policy,
  rateLimit,
} from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createMcpHandler } from "@ramify/api/tools";
import { createTasks } from "@ramify/api/tasks";
import { withServer } from "../support/server.ts";
import { mcpPost } from "../support/mcp_wire.ts";

const tree = api({
  ping: op(() => "pong", http.get),
  add: op(({ a, b }: { a: number; b: number }) => a + b, http.post),
  reindex: op(() => ({ indexed: 1 }), http.get, { tags: { longRunning: true } }),
});
// Where the long-running leaf's tasks run: REST takes it as a value.
const tasks = createTasks();

/** A policy that writes its name on the way in, and refuses requests carrying `x-refuse`. */
function recording(name: string, seen: string[]): Policy {
  return {
    name,
    apply: (next, surface) => (request) => {
      seen.push(`${name}:${surface.name}`);
      return request.headers.has("x-refuse")
        ? Promise.resolve(surface.refuse({
          status: 403,
          code: "FORBIDDEN",
          message: `refused by ${name}`,
          headers: { "x-refused-by": name },
        }))
        : next(request);
    },
  };
}

Deno.test("edge: policies run once each, first listed first, on every surface", async () => {
  const seen: string[] = [];
  const policies = [recording("outer", seen), recording("inner", seen)];
  const rest = createFetch(tree, { tasks, policies });
  const graphql = createHttpGraphQLServer(tree, { policies });
  const mcp = createMcpHandler(tree, { policies, warnMissingHints: false });
  try {
    await withServer(rest, async (base) => {
      assert.equal(await (await fetch(`${base}/ping`)).json(), "pong");
    });
    await withServer(graphql, async (base) => {
      const response = await fetch(`${base}/graphql?query=%7Bping%7D`);
      assert.deepEqual(await response.json(), { data: { ping: "pong" } });
    });
    await withServer(mcp, async (base) => {
      const response = await fetch(base, mcpPost());
      assert.equal(response.status, 200);
      await response.body?.cancel();
    });
    assert.deepEqual(seen, [
      "outer:http",
      "inner:http",
      "outer:graphql",
      "inner:graphql",
      "outer:mcp",
      "inner:mcp",
    ]);
  } finally {
    await mcp.close();
  }
});

Deno.test("edge: a refusal is written in each surface's format, before the surface reads anything", async () => {
  let ran = 0;
  const counted = api({ ping: op(() => (ran++, "pong"), http.get) });
  const policies = [recording("gate", [])];
  const refuse = { "x-refuse": "1" };
  await withServer(createFetch(counted, { policies }), async (base) => {
    const response = await fetch(`${base}/ping`, { headers: refuse });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    assert.equal(response.headers.get("x-refused-by"), "gate");
    assert.equal((await response.json()).detail, "refused by gate");
  });
  await withServer(createHttpGraphQLServer(counted, { policies }), async (base) => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { ...refuse, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ ping }" }),
    });
    assert.equal(response.status, 403);
    assert.deepEqual(await response.json(), {
      errors: [{ message: "refused by gate", extensions: { code: "FORBIDDEN" } }],
    });
  });
  const mcp = createMcpHandler(counted, { policies, warnMissingHints: false });
  try {
    await withServer(mcp, async (base) => {
      const post = mcpPost();
      const response = await fetch(base, {
        ...post,
        headers: { ...refuse, ...post.headers as Record<string, string> },
      });
      assert.equal(response.status, 403);
      assert.deepEqual(await response.json(), {
        jsonrpc: "2.0",
        error: { code: -32000, message: "refused by gate" },
        id: null,
      });
    });
  } finally {
    await mcp.close();
  }
  const ws = createWsHandler(createGraphQLServer(counted), { policies });
  await withServer((request) => ws(request), async (base) => {
    const response = await fetch(base, {
      headers: { ...refuse, upgrade: "websocket", connection: "upgrade" },
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    await response.body?.cancel();
  });
  assert.equal(ran, 0, "no handler ran");
});

Deno.test("edge: cors() preflights with the methods each surface allows, and decorates refusals", async () => {
  const origin = "https://app.example";
  const limit = rateLimit({ limiter: { take: () => 5_000 } });
  const preflight = (url: string, method = "POST") =>
    fetch(url, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method },
    });
  const policies = [cors({ origin }), limit];
  // The preflight itself is limited too: the limiter here refuses everything, so
  // each surface is first asked without the limit, then with it.
  await withServer(createFetch(tree, { tasks, policies: [cors({ origin })] }), async (base) => {
    const ping = await preflight(`${base}/ping`, "GET");
    assert.equal(ping.status, 204);
    assert.equal(ping.headers.get("access-control-allow-origin"), origin);
    assert.equal(ping.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
    const document = await preflight(`${base}/openapi.json`, "GET");
    assert.equal(document.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
    const missing = await fetch(`${base}/nowhere`, { headers: { origin } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("access-control-allow-origin"), origin);
    await missing.body?.cancel();
  });
  await withServer(createFetch(tree, { tasks, policies }), async (base) => {
    const refused = await fetch(`${base}/ping`, { headers: { origin } });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("access-control-allow-origin"), origin, "CORS on a refusal");
    assert.equal(refused.headers.get("retry-after"), "5");
    await refused.body?.cancel();
  });
  await withServer(
    createHttpGraphQLServer(tree, { policies: [cors({ origin })] }),
    async (base) => {
      const answer = await preflight(`${base}/graphql`);
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS");
    },
  );
  const mcp = createMcpHandler(tree, { policies: [cors({ origin })], warnMissingHints: false });
  try {
    await withServer(mcp, async (base) => {
      const answer = await preflight(base);
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get("access-control-allow-origin"), origin);
      assert.equal(
        answer.headers.get("access-control-allow-methods"),
        "GET, POST, DELETE, OPTIONS",
      );
    });
  } finally {
    await mcp.close();
  }
});

Deno.test("edge: what is no policy list, a policy named twice, and the moved options are refused when made", () => {
  assert.throws(() => checkPolicies([cors(), cors()]), /"cors" is listed twice/);
  assert.throws(() => checkPolicies([{ name: "x" }]), /must be a policy value/);
  assert.throws(() => checkPolicies(cors()), /a list of policies/);
  const moved =
    /the option "(cors|rateLimit)" is now a policy: policies: \[(cors|rateLimit)\(\.\.\.\)\]/;
  const given = [{ cors: true }, { rateLimit: { limiter: { take: () => undefined } } }];
  for (const old of given) {
    assert.throws(() => createFetch(tree, old as never), moved);
    assert.throws(() => createHttpGraphQLServer(tree, old as never), moved);
    assert.throws(() => createMcpHandler(tree, old as never), moved);
    assert.throws(() => createWsHandler(createGraphQLServer(tree), old as never), moved);
  }
  assert.throws(() => createFetch(tree, { tasks, policies: [cors(), cors()] }), /listed twice/);
  assert.throws(() => rateLimit({} as never), /expected \{ limiter, key\? \}/);
});

Deno.test("edge: applyPolicies with no policies is the handler itself", () => {
  const handler = () => Promise.resolve(new Response("hi"));
  const surface = { name: "http" as const, refuse: () => new Response(null, { status: 500 }) };
  assert.equal(applyPolicies(handler, surface, undefined), handler);
  assert.equal(applyPolicies(handler, surface, []), handler);
});

Deno.test("edge: a long-running GET has no HEAD (it would start a task no one reads)", async () => {
  await withServer(createFetch(tree, { tasks }), async (base) => {
    const head = await fetch(`${base}/reindex`, { method: "HEAD" });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get("allow"), "GET, OPTIONS");
    const options = await fetch(`${base}/reindex`, { method: "OPTIONS" });
    assert.equal(options.headers.get("allow"), "GET, OPTIONS");
    const ping = await fetch(`${base}/ping`, { method: "HEAD" });
    assert.equal(ping.status, 200, "a plain GET keeps its HEAD");
    const started = await fetch(`${base}/reindex`);
    assert.equal(started.status, 202, "GET starts the task");
    await started.body?.cancel();
  });
});
