// One option vocabulary on every server (issue 44): the input depth limit is
// `maxInputDepth` on REST, GraphQL over HTTP, MCP and serve(), each refusing
// at the limit (64 by default, or the one given), its old names unknown
// options; an option key a server does not know is refused when it is made,
// naming the key; `onError` is given the request on every HTTP surface.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler, handleBunWebSocket } from "@ramify/api/graphql/ws";
import { createMcpHandler, serveMcpStdio } from "@ramify/api/tools";
import { createHandler, serve } from "@ramify/api/serve";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { withServer } from "./support/server.ts";

const tree = api({
  keep: op(() => "kept", { input: z.object({ v: z.unknown() }), tags: { destructive: false } }),
  crash: op((): string => {
    throw new Error("boom");
  }),
});

/** Arguments `{ v: [[...]] }` nesting `depth` levels, the object counted. */
function nested(depth: number): { v: unknown } {
  let value: unknown = [];
  for (let level = 2; level < depth; level++) value = [value];
  return { v: value };
}

/** One surface's answer to a call of `keep` with `args`: whether it ran the leaf. */
type Call = (args: unknown) => Promise<boolean>;

const rest =
  (handle: (request: Request) => Promise<Response | undefined>): Call => async (args) => {
    const response = (await handle(
      new Request("http://localhost/keep", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(args),
      }),
    ))!;
    const body = await response.json();
    if (response.status === 200) return true;
    assert.equal(response.status, 400, JSON.stringify(body));
    return false;
  };

const graphql = (handle: (request: Request) => Promise<Response | undefined>): Call =>
async (
  args,
) => {
  const response = (await handle(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "mutation($v: JSON) { keep(v: $v) }", variables: args }),
    }),
  ))!;
  const body = await response.json();
  if (body.data?.keep === "kept") return true;
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(body.errors[0].extensions.code, "BAD_REQUEST");
  return false;
};

/** Runs `run` with a call of `keep` over MCP (the SDK's client) on `handle`, served. */
async function overMcp(
  handle: (request: Request) => Promise<Response | undefined>,
  run: (call: Call) => Promise<void>,
): Promise<void> {
  await withServer(async (request) => (await handle(request))!, async (base) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      await run(async (args) => {
        const result = await client.callTool({ name: "keep", arguments: args as never });
        if (result.isError !== true) return true;
        assert.match(JSON.stringify(result.content), /nests deeper than/);
        return false;
      });
    } finally {
      await client.close();
    }
  });
}

/** 64 levels pass and 65 are refused by default; with `limit`, `limit` and `limit + 1`. */
async function refusesAt(call: Call, limit = 64): Promise<void> {
  assert.equal(await call(nested(limit)), true, `${limit} levels pass`);
  assert.equal(await call(nested(limit + 1)), false, `${limit + 1} levels are refused`);
}

Deno.test("maxInputDepth: REST refuses past 64, or past the limit given", async () => {
  await refusesAt(rest(createFetch(tree)));
  await refusesAt(rest(createFetch(tree, { maxInputDepth: 5 })), 5);
});

Deno.test("maxInputDepth: GraphQL over HTTP refuses past 64, or past the limit given", async () => {
  await refusesAt(graphql(createHttpGraphQLServer(tree)));
  await refusesAt(graphql(createHttpGraphQLServer(tree, { maxInputDepth: 5 })), 5);
  // Given a server built apart, the transport's own option.
  await refusesAt(
    graphql(createHttpGraphQLServer(createGraphQLServer(tree), { maxInputDepth: 5 })),
    5,
  );
});

Deno.test("maxInputDepth: MCP refuses past 64, or past the limit given", async () => {
  for (const [opts, limit] of [[{}, 64], [{ maxInputDepth: 5 }, 5]] as const) {
    const mcp = createMcpHandler(tree, opts);
    await overMcp(mcp, (call) => refusesAt(call, limit));
    await mcp.close();
  }
});

Deno.test("maxInputDepth: serve() gives its own to every surface, and a surface's own wins", async () => {
  const quiet = { docs: false, health: false } as const;
  const handler = await createHandler(tree, { ...quiet, maxInputDepth: 5 });
  await refusesAt(rest(handler.fetch), 5);
  await refusesAt(graphql(handler.fetch), 5);
  await overMcp(handler.fetch, (call) => refusesAt(call, 5));
  await handler.close();

  const own = await createHandler(tree, {
    ...quiet,
    maxInputDepth: 5,
    rest: { maxInputDepth: 7 },
    graphql: { maxInputDepth: 6, ws: false },
    mcp: { maxInputDepth: 8 },
  });
  await refusesAt(rest(own.fetch), 7);
  await refusesAt(graphql(own.fetch), 6);
  await overMcp(own.fetch, (call) => refusesAt(call, 8));
  await own.close();

  const server = await serve(tree, { ...quiet, port: 0, quiet: true, maxInputDepth: 5 });
  const over = (request: Request) =>
    fetch(new URL(new URL(request.url).pathname, server.url), request);
  await refusesAt(rest(over), 5);
  await server.close();
});

Deno.test("maxInputDepth: the old names are unknown options on every server", async () => {
  // Untyped callers: the limit as each surface once spelt it (never released).
  const old = (key: string) => ({ [key]: 4 }) as Record<string, unknown>;
  // No did-you-mean: `maxInputDepth` is too many edits away from each,
  // and none names another limit.
  const unknown = (caller: string, key: string) =>
    new RegExp(`^TypeError: ${caller}: unknown option "${key}"$`);
  const server = createGraphQLServer(tree);
  assert.throws(
    () => createFetch(tree, old("maxBodyDepth")),
    unknown("createFetch", "maxBodyDepth"),
  );
  for (const target of [tree, server] as const) {
    assert.throws(
      () => createHttpGraphQLServer(target as never, old("maxBodyDepth")),
      unknown("createHttpGraphQLServer", "maxBodyDepth"),
    );
  }
  assert.throws(
    () => createWsHandler(server, old("maxVariablesDepth")),
    unknown("createWsHandler", "maxVariablesDepth"),
  );
  assert.throws(
    () => handleBunWebSocket(server, old("maxVariablesDepth")),
    unknown("handleBunWebSocket", "maxVariablesDepth"),
  );
  assert.throws(
    () => createMcpHandler(tree, old("maxArgumentsDepth")),
    unknown("createMcpHandler", "maxArgumentsDepth"),
  );
  await assert.rejects(
    () => serveMcpStdio(tree, old("maxArgumentsDepth")),
    unknown("serveMcpStdio", "maxArgumentsDepth"),
  );
  // serve() hands each surface its own, which refuses them as the surface does.
  await assert.rejects(
    () => createHandler(tree, { graphql: old("maxBodyDepth"), mcp: false }),
    unknown("createHttpGraphQLServer", "maxBodyDepth"),
  );
  await assert.rejects(
    () => createHandler(tree, { graphql: false, mcp: old("maxArgumentsDepth") }),
    unknown("createMcpHandler", "maxArgumentsDepth"),
  );
});

Deno.test("options: a key a server does not know is refused when it is made, naming it", async () => {
  // Untyped callers: the option as a past release spelt it.
  const stale = { handlerTimeoutMs: 5_000 } as Record<string, unknown>;
  const named = (caller: string) =>
    new RegExp(
      `^TypeError: ${caller}: unknown option "handlerTimeoutMs" \\(did you mean "timeoutMs"\\?\\)`,
    );
  assert.throws(() => createFetch(tree, stale), named("createFetch"));
  assert.throws(() => createGraphQLServer(tree, stale), named("createGraphQLServer"));
  assert.throws(() => createHttpGraphQLServer(tree, stale), named("createHttpGraphQLServer"));
  assert.throws(() => createMcpHandler(tree, stale), named("createMcpHandler"));
  await assert.rejects(() => serveMcpStdio(tree, stale), named("serveMcpStdio"));
  await assert.rejects(() => createHandler(tree, stale), named("createHandler"));
  await assert.rejects(() => serve(tree, { ...stale, port: 0, quiet: true }), named("serve"));

  const server = createGraphQLServer(tree);
  const unknown = (caller: string, key: string) => new RegExp(`${caller}: unknown option "${key}"`);
  // The transport given a server knows its own options only: `timeoutMs` is the server's.
  assert.throws(
    () => createHttpGraphQLServer(server, { timeoutMs: 5 } as never),
    unknown("createHttpGraphQLServer", "timeoutMs"),
  );
  assert.throws(
    () => createWsHandler(server, { maxInputDept: 4 } as never),
    /createWsHandler: unknown option "maxInputDept" \(did you mean "maxInputDepth"\?\)/,
  );
  assert.throws(
    () => handleBunWebSocket(server, { initTimout: 5 } as never),
    /handleBunWebSocket: unknown option "initTimout" \(did you mean "initTimeout"\?\)/,
  );
  // MCP's origin guard is another policy than REST's form guard: not taken for it.
  assert.throws(
    () => createMcpHandler(tree, { trustedOrigins: ["https://app.example.com"] } as never),
    unknown("createMcpHandler", "trustedOrigins"),
  );
  // serve() hands each surface's options to that surface, which checks them.
  await assert.rejects(
    () => createHandler(tree, { rest: stale }),
    named("createFetch"),
  );
  await assert.rejects(
    () => createHandler(tree, { graphql: { paht: "/gql" } as never, mcp: false }),
    /unknown option "paht" \(did you mean "path"\?\)/,
  );
  await assert.rejects(
    () => createHandler(tree, { mcp: { allowedOrigin: ["localhost"] } as never }),
    /createMcpHandler: unknown option "allowedOrigin" \(did you mean "allowedOrigins"\?\)/,
  );
  await assert.rejects(
    () => createHandler(tree, { docs: { titel: "API" } as never, graphql: false, mcp: false }),
    /createHandler \(docs\): unknown option "titel" \(did you mean "title"\?\)/,
  );
  // Nothing close: no suggestion.
  assert.throws(
    () => createFetch(tree, { zzz: 1 } as never),
    /^TypeError: createFetch: unknown option "zzz"$/,
  );
});

Deno.test("onError: given the request on REST, GraphQL over HTTP and MCP over HTTP", async () => {
  const seen: { surface: string; error: unknown; request: Request | undefined; args: number }[] =
    [];
  const observer = (surface: string) =>
    function (error: unknown, request?: Request) {
      seen.push({ surface, error, request, args: arguments.length });
    };
  const restHandler = createFetch(tree, { onError: observer("rest") });
  const response = await restHandler(new Request("http://localhost/crash", { method: "POST" }));
  assert.equal(response.status, 500);
  await response.body?.cancel();

  const graphqlHandler = createHttpGraphQLServer(tree, { onError: observer("graphql") });
  const answered = await graphqlHandler(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-probe": "graphql" },
      body: JSON.stringify({ query: "mutation { crash }" }),
    }),
  );
  assert.equal((await answered.json()).errors[0].extensions.code, "INTERNAL_SERVER_ERROR");

  const mcp = createMcpHandler(tree, { onError: observer("mcp") });
  await withServer(mcp, async (base) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const result = await client.callTool({ name: "crash", arguments: {} });
    assert.equal(result.isError, true);
    await client.close();
  });
  await mcp.close();

  assert.deepEqual(seen.map(({ surface }) => surface), ["rest", "graphql", "mcp"]);
  for (const { surface, error, request, args } of seen) {
    assert.equal((error as Error).message, "boom", surface);
    assert.ok(request instanceof Request, `${surface}: the request`);
    assert.equal(args, 2, surface);
  }
  assert.equal(new URL(seen[0].request!.url).pathname, "/crash");
  assert.equal(seen[1].request!.headers.get("x-probe"), "graphql");
  assert.equal(new URL(seen[2].request!.url).pathname, "/mcp");

  // One that takes one argument works as before.
  let once: unknown;
  const single = createFetch(tree, { onError: (error) => once = error });
  await (await single(new Request("http://localhost/crash", { method: "POST" }))).body?.cancel();
  assert.equal((once as Error).message, "boom");
});
