// The README's npm line alone (`npm i @ramify/api graphql`, and zod for the
// program): no optional peer is installed. docs/serve.md's serve() program, run
// by this runtime (node or bun), starts; each surface whose package is
// missing is left out with one line naming what to install, its path answers
// 404 like any unknown path, and the rest answers. Prints `ok`/`not ok` and
// exits non-zero on a failure.
import assert from "node:assert/strict";
import process from "node:process";
import { APPS, expectStatus, readmeApp, runApp } from "./readme_apps.mjs";
import { MCP_HELLO } from "./mcp_hello.mjs";

const runtime = globalThis.Bun === undefined ? "node" : "bun";
const title = `${runtime}: serve() without the optional peers leaves their surfaces out, saying so`;

const expected = [
  ...(runtime === "node"
    ? [
      "ramify: GraphQL subscriptions over WebSocket left out: it needs ws (npm i ws); or pass graphql: { ws: false }",
    ]
    : []),
  "ramify: GraphiQL left out: it needs graphiql, react, react-dom (npm i graphiql@3 react@18 react-dom@18); or pass graphql: { graphiql: false }",
  "ramify: MCP left out: it needs @modelcontextprotocol/server (npm i @modelcontextprotocol/server); or pass mcp: false",
  "ramify: Docs (Swagger UI) left out: it needs swagger-ui-dist (npm i swagger-ui-dist@5); or pass docs: false",
];

try {
  const stderr = await runApp(readmeApp(APPS.serve), "/health", async (base) => {
    assert.equal(await expectStatus(`${base}/hello?name=Ann`, 200), '"Hello, Ann"');
    const graphql = await expectStatus(`${base}/graphql`, 200, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: '{ hello(name: "Ann") }' }),
    });
    assert.deepEqual(JSON.parse(graphql), { data: { hello: "Hello, Ann" } });
    for (
      const [path, init] of [
        ["/mcp", MCP_HELLO],
        ["/docs", { headers: { accept: "text/html" } }],
        ["/docs/assets/swagger-ui-bundle.js", {}],
        ["/graphql/assets/graphiql.js", {}],
      ]
    ) {
      const response = await fetch(`${base}${path}`, init);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get("content-type"), "application/problem+json", path);
      assert.match(await response.text(), /No route matches/, path);
    }
    const page = await fetch(`${base}/graphql`, { headers: { accept: "text/html" } });
    assert.doesNotMatch(await page.text(), /graphiql-init/, "no GraphiQL page");
  });
  assert.deepEqual(stderr.trim().split("\n"), expected);
  console.log(`ok - ${title}`);
} catch (error) {
  console.log(`not ok - ${title}`);
  console.log(String(error?.stack ?? error).replace(/^/gm, "    "));
  process.exitCode = 1;
}
