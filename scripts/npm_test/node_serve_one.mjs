// Node: `serve(tree)` from @ramify/api/serve, the one line: node:http and `ws`
// wired by the package itself (serveNode). Each check gets a fresh tree and
// server, since the checks add books. Also the docs page and its files, read
// from the installed swagger-ui-dist, and serveNode's answer when a handler
// fails: a problem, never an empty 500.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WebSocket } from "ws";
import { serve } from "@ramify/api/serve";
import { serveNode } from "@ramify/api/serve/node";
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

test(
  "node serveNode(): a handler that fails answers a problem, never an empty 500",
  options,
  async () => {
    const failing = {
      fetch: () => Promise.reject(new Error("the handler failed")),
      websocket: { open() {}, message() {}, close() {} },
      paths: {},
      close: () => Promise.resolve(),
    };
    const logged = [];
    const error = console.error;
    console.error = (...args) => void logged.push(...args);
    const server = await serveNode(failing, { port: 0, hostname: "127.0.0.1" });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/anything`);
      assert.equal(response.status, 500);
      assert.equal(response.headers.get("content-type"), "application/problem+json");
      assert.deepEqual(await response.json(), {
        type: "about:blank",
        title: "Internal Server Error",
        status: 500,
      });
      assert.ok(logged.some((value) => value?.message === "the handler failed"));
    } finally {
      console.error = error;
      await server.close();
    }
  },
);
