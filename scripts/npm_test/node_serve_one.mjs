// Node: `serve(tree)` from @ramify/api/serve, the one line: node:http and `ws`
// wired by the package itself (serveNode). Each check gets a fresh tree and
// server, since the checks add books. Also the docs page and its files, read
// from the installed swagger-ui-dist.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WebSocket } from "ws";
import { serve } from "@ramify/api/serve";
import {
  checkGraphQLHttp,
  checkHttpClient,
  checkMcp,
  checkSubscription,
  makeTree,
  within,
} from "./fixture.mjs";

const options = { timeout: 60_000 };

async function served(check) {
  const server = await within(
    serve(makeTree(), { port: 0, hostname: "127.0.0.1", quiet: true, mcp: { name: "npm-proof" } }),
    "serve",
  );
  try {
    await check(server);
  } finally {
    await server.close();
  }
}

test(
  "node serve(): the typed HTTP client",
  options,
  () => served((server) => checkHttpClient(server.url)),
);

test(
  "node serve(): the GraphQL client over HTTP",
  options,
  () => served((server) => checkGraphQLHttp(server.url)),
);

test(
  "node serve(): a subscription over ws, wired by serveNode",
  options,
  () =>
    served((server) => checkSubscription(`${server.url.replace("http", "ws")}/graphql`, WebSocket)),
);

test("node serve(): MCP at /mcp", options, () => served((server) => checkMcp(server.url)));

test(
  "node serve(): /health, /docs and its files from swagger-ui-dist",
  options,
  () =>
    served(async (server) => {
      assert.deepEqual(await (await fetch(`${server.url}/health`)).json(), { status: "ok" });
      const page = await fetch(`${server.url}/docs`, { headers: { accept: "text/html" } });
      assert.match(await page.text(), /swagger-ui-bundle\.js/);
      const bundle = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
      assert.equal(bundle.status, 200);
      assert.ok((await bundle.arrayBuffer()).byteLength > 100_000, "the bundle's bytes");
    }),
);
