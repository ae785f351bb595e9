// createHandler and serve: every surface at its path, each switchable, clashes
// named at build, the UI files served only by name, GraphiQL only for
// browsers, one context for every surface, subscriptions over the WebSocket,
// header names in lower case on the wire, an icon on every page.
import assert from "node:assert/strict";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";
import { createClient as createWsClient } from "graphql-ws";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, type ContextFunction, op, reply } from "@ramify/api/tree";
import { createHandler, serve, startupLines } from "@ramify/api/serve";
import { freePort } from "../support/server.ts";

const tree = api({
  books: api({
    titles: op((_input, ctx) => [`Dune for ${String(ctx.tenant)}`], { tags: { readOnly: true } }),
  }),
  slow: op((_input, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal?.addEventListener("abort", () => reject(ctx.signal?.reason), { once: true });
    }), { tags: { readOnly: true } }),
  ticks: op(async function* () {
    for (let i = 1; i <= 3; i++) yield i;
  }, { tags: { streaming: true } }),
});
const surfaces: string[] = [];
const context: ContextFunction = ({ surface, request }) => {
  surfaces.push(surface);
  return { tenant: request?.headers.get("x-tenant") ?? "nobody" };
};

async function get(
  handler: { fetch(r: Request): Promise<Response | undefined> },
  path: string,
  init: RequestInit = {},
) {
  const response = (await handler.fetch(new Request(`http://localhost${path}`, init)))!;
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    text: await response.text(),
    response,
  };
}

/** A request whose `url` is relative, as Bun gives one without `Host` (Deno's `Request` cannot). */
function relative(url: string, init: RequestInit = {}): Request {
  const request = new Request(`http://localhost${url}`, init);
  Object.defineProperty(request, "url", { value: url });
  return request;
}

Deno.test("createHandler: a relative request URL (Bun, no Host) is routed by its path", async () => {
  const handler = await createHandler(tree, { context, mcp: false });
  try {
    const health = (await handler.fetch(relative("/health")))!;
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });
    const titles = (await handler.fetch(relative("/books/titles?page=1")))!;
    assert.equal(titles.status, 200);
    assert.deepEqual(await titles.json(), ["Dune for nobody"]);
    const page = (await handler.fetch(relative("/graphql", { headers: { accept: "text/html" } })))!;
    assert.equal(page.status, 200);
    await page.body?.cancel();
    assert.equal((await handler.fetch(relative("/nowhere")))!.status, 404);
  } finally {
    surfaces.splice(0);
    await handler.close();
  }
});

Deno.test("createHandler: every surface at its path, with one context", async () => {
  const handler = await createHandler(tree, { context, mcp: false });
  try {
    assert.deepEqual(handler.paths, {
      api: "/",
      openapi: "/openapi.json",
      graphql: "/graphql",
      graphiql: "/graphql",
      subscriptions: "/graphql",
      docs: "/docs",
      health: "/health",
    });
    assert.deepEqual(JSON.parse((await get(handler, "/health")).text), { status: "ok" });
    const headers = { "x-tenant": "acme" };
    assert.deepEqual(JSON.parse((await get(handler, "/books/titles", { headers })).text), [
      "Dune for acme",
    ]);
    const graphql = await get(handler, "/graphql", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ books { titles } }" }),
    });
    assert.deepEqual(JSON.parse(graphql.text), { data: { books: { titles: ["Dune for acme"] } } });
    assert.deepEqual(surfaces.splice(0), ["http", "graphql"], "the context is told the surface");
    assert.equal((await get(handler, "/openapi.json")).status, 200);
    const docs = await get(handler, "/docs", { headers: { accept: "text/html" } });
    assert.equal(docs.status, 200);
    assert.match(docs.text, /swagger-ui-bundle\.js/);
    assert.match(docs.response.headers.get("content-security-policy") ?? "", /default-src 'self'/);
    assert.match((await get(handler, "/docs/assets/swagger-init.js")).text, /validatorUrl: null/);
  } finally {
    await handler.close();
  }
});

Deno.test("createHandler: one timeoutMs for every surface, a surface's own winning", async () => {
  const handler = await createHandler(tree, {
    timeoutMs: 30,
    graphql: { timeoutMs: 60 },
    docs: false,
    mcp: false,
  });
  try {
    const rest = await get(handler, "/slow");
    assert.equal(rest.status, 503);
    assert.match(rest.text, /within 30 ms/);
    const graphql = await get(handler, "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ slow }" }),
    });
    const [error] = JSON.parse(graphql.text).errors;
    assert.equal(error.extensions.code, "TIMEOUT");
    assert.match(error.message, /within 60 ms/);
  } finally {
    await handler.close();
  }
});

Deno.test("createHandler: GraphiQL for browsers only; GraphQL GETs and other clients keep GraphQL", async () => {
  const handler = await createHandler(tree, { mcp: false });
  const page = await get(handler, "/graphql", { headers: { accept: "text/html" } });
  assert.match(page.text, /graphiql-init\.js/);
  const query = await get(handler, `/graphql?query=${encodeURIComponent("{ books { titles } }")}`, {
    headers: { accept: "text/html, application/json" },
  });
  assert.match(query.text, /Dune/);
  assert.equal(
    (await get(handler, "/graphql", { headers: { accept: "application/json" } })).status,
    400,
  );
  const off = await createHandler(tree, { mcp: false, graphql: { graphiql: false } });
  assert.equal(off.paths.graphiql, undefined);
  assert.doesNotMatch(
    (await get(off, "/graphql", { headers: { accept: "text/html" } })).text,
    /graphiql/,
  );
});

Deno.test("createHandler: UI files are served by name only; unknown names and other methods are refused", async () => {
  const handler = await createHandler(tree, { mcp: false });
  for (
    const path of [
      "/docs/assets/nope.js",
      "/docs/assets/..%2Fdeno.json",
      "/docs/assets/",
      "/docs/assets/__proto__",
      "/graphql/assets/constructor",
    ]
  ) {
    const answer = await get(handler, path);
    assert.equal(answer.status, 404, path);
    assert.equal(answer.type, "application/problem+json", path);
  }
  assert.equal(
    (await get(handler, "/docs/assets/swagger-init.js", { method: "POST" })).status,
    405,
  );
  assert.equal((await get(handler, "/docs", { method: "DELETE" })).status, 405);
});

Deno.test("createHandler: each surface can be left out; its paths then belong to the API", async () => {
  const handler = await createHandler(tree, {
    graphql: false,
    mcp: false,
    docs: false,
    health: false,
  });
  assert.deepEqual(handler.paths, { api: "/", openapi: "/openapi.json" });
  for (const path of ["/graphql", "/docs", "/docs/assets/swagger-ui.css", "/health", "/mcp"]) {
    const answer = await get(handler, path);
    assert.equal(answer.status, 404, path);
    assert.match(answer.text, /No route matches/, path);
  }
  const restless = await createHandler(tree, { rest: false, mcp: false });
  assert.equal(restless.paths.docs, undefined, "no document, no docs");
  assert.equal((await get(restless, "/books/titles")).status, 404);
});

Deno.test("createHandler: a path claimed twice, or routed by the tree, fails at build naming it", async () => {
  await assert.rejects(
    () => createHandler(tree, { mcp: false, docs: { path: "/graphql" } }),
    /\/graphql is claimed twice/,
  );
  const clash = api({ health: op(() => "mine", { tags: { readOnly: true } }) });
  await assert.rejects(
    () => createHandler(clash, { mcp: false }),
    /the tree routes \/health itself/,
  );
  await createHandler(clash, { mcp: false, health: { path: "/healthz" } });
  await assert.rejects(
    () => createHandler(tree, { health: { path: "health" } }),
    /must start with "\/"/,
  );
});

Deno.test("serve: subscriptions over the WebSocket, MCP at /mcp, and the URLs it prints", async () => {
  const server = await serve(tree, { port: 0, hostname: "127.0.0.1", quiet: true, context });
  const mcp = new McpClient({ name: "serve-test", version: "1.0.0" });
  const socket = createWsClient({ url: `ws://127.0.0.1:${server.port}/graphql`, retryAttempts: 0 });
  try {
    const ticks: unknown[] = [];
    for await (const result of socket.iterate({ query: "subscription { ticks }" })) {
      ticks.push(result.data?.ticks);
    }
    assert.deepEqual(ticks, [1, 2, 3]);
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["books.titles", "slow", "ticks"]);
    const lines = startupLines(server.url, server.paths);
    for (
      const what of [
        "/docs",
        "/graphql (GraphiQL in a browser)",
        "/mcp",
        "/health",
        "/openapi.json",
      ]
    ) {
      assert.ok(lines.includes(`${server.url}${what}`), what);
    }
  } finally {
    await mcp.close();
    await socket.dispose();
    await server.close();
  }
});

Deno.test("createHandler: `export default` of the handler runs under `deno serve`", async () => {
  const port = freePort();
  const dir = new URL("../../examples/", import.meta.url);
  const entry = await Deno.makeTempFile({
    dir: dir.pathname,
    prefix: "_deno_serve_",
    suffix: ".ts",
  });
  await Deno.writeTextFile(
    entry,
    `import { api, type ContextFunction, op, reply } from "@ramify/api/tree";
import { createHandler } from "@ramify/api/serve";
export default await createHandler(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }), { mcp: false });
`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["serve", "--quiet", "-A", `--port=${port}`, "--host=127.0.0.1", entry],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let body: unknown;
    for (let tries = 0; tries < 300 && body === undefined; tries++) {
      body = await fetch(`http://127.0.0.1:${port}/ping`).then((r) => r.json(), () => undefined);
      if (body === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(body, "pong");
    assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/health`)).json(), {
      status: "ok",
    });
  } finally {
    child.kill();
    await child.status;
    await Deno.remove(entry);
  }
});

Deno.test("createHandler: both pages carry an icon, so no browser asks for /favicon.ico", async () => {
  const handler = await createHandler(tree, { mcp: false });
  for (const path of ["/docs", "/graphql"]) {
    const page = await get(handler, path, { headers: { accept: "text/html" } });
    assert.match(page.text, /<link rel="icon" href="data:image\/svg\+xml,/, path);
  }
});

/** The header names of a response as they come over the wire, read from the socket. */
async function headerNamesOnTheWire(port: number, request: string): Promise<string[]> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await connection.write(new TextEncoder().encode(request));
    let head = "";
    const chunk = new Uint8Array(4096);
    while (!head.includes("\r\n\r\n")) {
      const read = await connection.read(chunk);
      if (read === null) break;
      head += new TextDecoder().decode(chunk.subarray(0, read));
    }
    return head.split("\r\n\r\n")[0].split("\r\n").slice(1).map((line) => line.split(":")[0]);
  } finally {
    connection.close();
  }
}

Deno.test("serve: every surface writes its header names in lower case, a reply's and MCP's too", async () => {
  const notes = api({
    add: op(() => reply({ id: "1" }, { status: 201, headers: { location: "/notes/1" } })),
    made: op(() => ({ id: "2" }), { http: { status: 201 } }),
    list: op(() => [], { tags: { readOnly: true } }),
  });
  const server = await serve(api({ notes }), { port: 0, hostname: "127.0.0.1", quiet: true });
  const json = (path: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n` +
    `connection: close\r\n\r\n${body}`;
  const get = (path: string) =>
    `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/html\r\nconnection: close\r\n\r\n`;
  const initialize = JSON.stringify(INITIALIZE);
  try {
    for (
      const [what, request, expected] of [
        ["a reply() with location", json("/notes/add", ""), "location"],
        ["a declared 201", json("/notes/made", ""), "content-type"],
        ["a list", get("/notes/list"), "content-type"],
        ["a problem", get("/nowhere"), "content-type"],
        [
          "GraphQL",
          json("/graphql", JSON.stringify({ query: "{ notes { list } }" })),
          "content-type",
        ],
        [
          "GraphQL over GET",
          get(`/graphql?query=${encodeURIComponent("{ notes { list } }")}`).replace(
            "accept: text/html",
            "accept: application/json",
          ),
          "vary",
        ],
        ["MCP", json("/mcp", initialize), "mcp-session-id"],
        ["the docs page", get("/docs"), "content-security-policy"],
        ["the health check", get("/health"), "content-type"],
      ] as const
    ) {
      const names = await headerNamesOnTheWire(server.port, request);
      assert.ok(names.includes(expected), `${what}: ${names.join(", ")}`);
      assert.deepEqual(names.filter((name) => name !== name.toLowerCase()), [], what);
    }
  } finally {
    await server.close();
  }
});

Deno.test("serve: a surface that throws on a request answers a problem, never an empty 500", async () => {
  // A page size of 0 is refused only when the MCP server is first made, on a request.
  const server = await serve(tree, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    mcp: { pageSize: 0 },
  });
  const logged: unknown[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(...args);
  try {
    const response = await fetch(`${server.url}/mcp`, mcpPost());
    assert.equal(response.status, 500);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(await response.json(), {
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
    });
    assert.match(String(logged.find((value) => value instanceof RangeError)), /pageSize/);
  } finally {
    console.error = error;
    await server.close();
  }
});
