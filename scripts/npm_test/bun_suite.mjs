// Bun: every export imports; a tree served by Bun.serve, GraphQL over
// WebSocket by `handleBunWebSocket`, called with the typed HTTP client, the
// typed GraphQL client and the graphql-ws client (on Bun's global WebSocket),
// and MCP at /mcp with the MCP SDK's client; serve()'s /health answers a
// request without Host (HAProxy's check); docs/serve.md's Bun programs, run
// with `bun` as copied, answer and print nothing on standard error; hostile
// request bodies on every surface of serve() (hostile_bodies.mjs); a task is
// its principal's behind oauth() with a real issuer (owners.mjs).
// Prints `ok`/`not ok` lines, then `bun-suite-tally: {"passed":N,"failed":N}`,
// and exits non-zero on any failure.
import assert from "node:assert/strict";
import { connect } from "node:net";
import process from "node:process";
import { createGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler, handleBunWebSocket } from "@ramify/api/graphql/ws";
import { cors, rateLimit } from "@ramify/api/http";
import { serve } from "@ramify/api/serve";
import { createClient as createWsClient } from "graphql-ws";
import {
  checkCli,
  checkGraphQLHttp,
  checkHttpClient,
  checkMcp,
  checkOneGraphQL,
  checkSubpath,
  checkSubscription,
  expectedExports,
  makeServers,
  makeTree,
  within,
} from "./fixture.mjs";
import { checkHostileBodies, DRIBBLE_DEADLINE_MS, hostileTree } from "./hostile_bodies.mjs";
import { APPS, checkEverySurface, expectStatus, readmeApp, runApp } from "./readme_apps.mjs";
import {
  checkGraphQLOwners,
  checkMcpOwners,
  checkNoFaults,
  checkPrincipals,
  checkRestOwners,
  checkWsStartOwners,
  ownersServed,
} from "./owners.mjs";

const tally = { passed: 0, failed: 0 };

async function check(title, fn) {
  try {
    await fn();
    tally.passed++;
    console.log(`ok - ${title}`);
  } catch (error) {
    tally.failed++;
    console.log(`not ok - ${title}`);
    console.log(String(error?.stack ?? error).replace(/^/gm, "    "));
  }
}

const { Bun } = globalThis;
await check("bun: running on Bun", () => assert.equal(typeof Bun?.serve, "function"));

const { name, exports } = expectedExports();
for (const [subpath, names] of Object.entries(exports)) {
  await check(
    `bun: import ${subpath === "." ? name : `${name}/${subpath.slice(2)}`}`,
    () => checkSubpath(name, subpath, names),
  );
}
await check("bun: one graphql, the application's", () => checkOneGraphQL());

let server;
let closeServers;
await check("bun: Bun.serve serves the tree, /graphql upgrades to WebSocket", () => {
  const { fetch, ws, close } = makeServers();
  closeServers = close;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, bunServer) {
      const upgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
      return upgrade && new URL(request.url).pathname === "/graphql"
        ? ws.fetch(request, bunServer)
        : fetch(request);
    },
    websocket: ws.websocket,
  });
  assert.ok(server.port > 0);
});

if (server !== undefined) {
  const baseUrl = `http://127.0.0.1:${server.port}`;
  await check("bun: the typed HTTP client through Bun.serve", () => checkHttpClient(baseUrl));
  await check(
    "bun: the GraphQL client over HTTP through Bun.serve",
    () => checkGraphQLHttp(baseUrl),
  );
  await check(
    "bun: a subscription over handleBunWebSocket with the graphql-ws client",
    () => checkSubscription(`ws://127.0.0.1:${server.port}/graphql`, WebSocket),
  );
  await check(
    "bun: MCP over Streamable HTTP through Bun.serve, with the SDK's client",
    () => checkMcp(baseUrl),
  );
  await check(
    "bun: the command line as a process, and against Bun.serve with --url",
    () => checkCli(baseUrl),
  );
  await closeServers();
  server.stop(true);
}

await check("bun: createWsHandler names the alternatives where Deno is absent", () => {
  assert.throws(
    () => createWsHandler(createGraphQLServer(makeTree())),
    (error) => error instanceof TypeError && /handleBunWebSocket/.test(error.message),
  );
});

/** A fresh tree on `serve()` for each check, since the checks add books. */
async function served(check) {
  const options = { port: 0, hostname: "127.0.0.1", quiet: true, mcp: false };
  const server = await serve(makeTree(), options);
  try {
    await check(server);
  } finally {
    await server.close();
  }
}

await check(
  "bun: serve() runs on Bun.serve: health and GraphQL over HTTP",
  () =>
    served(async (server) => {
      assert.deepEqual(await (await fetch(`${server.url}/health`)).json(), { status: "ok" });
      await checkGraphQLHttp(server.url);
    }),
);

/** The head of the answer (status line and fields) to `request`, written as it is on a raw socket. */
function rawHead(port, request, what) {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let head = "";
      socket.on("error", reject);
      socket.on("data", (chunk) => {
        head += chunk.toString("latin1");
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) return;
        socket.destroy();
        resolve(head.slice(0, end).split("\r\n"));
      });
      socket.write(request);
    }),
    what,
  );
}

/**
 * The status line of a GET written on a raw socket as HTTP/1.0 without `Host`,
 * as HAProxy's health check of docs/deploy.md sends it (Bun's `request.url` is
 * then relative).
 */
async function statusWithoutHost(port, path) {
  const [status] = await rawHead(
    port,
    `GET ${path} HTTP/1.0\r\n\r\n`,
    "the answer to a request without Host",
  );
  return status;
}

await check(
  "bun: serve() answers an HTTP/1.0 health check without Host at /health",
  () =>
    served(async (server) => {
      assert.match(await statusWithoutHost(server.port, "/health"), /^HTTP\/1\.[01] 200 /);
    }),
);

await check(
  "bun: serve() upgrades /graphql to WebSocket on Bun.serve",
  () =>
    served((server) =>
      checkSubscription(`${server.url.replace("http", "ws")}/graphql`, globalThis.WebSocket)
    ),
);

/**
 * A WebSocket handshake written on a raw socket (fetch may not send `Upgrade`):
 * the status and content type of the answer.
 */
async function handshake(port) {
  const [status, ...fields] = await rawHead(
    port,
    "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
      "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n",
    "the handshake's answer",
  );
  const type = fields.find((line) => /^content-type:/i.test(line))?.split(":")[1].trim();
  return { status: Number(status.split(" ")[1]), type };
}

/** A limiter that counts every take, and refuses once told to. */
function switched() {
  const limiter = {
    takes: 0,
    refusing: false,
    take: () => (limiter.takes++, limiter.refusing ? 2_000 : undefined),
  };
  return limiter;
}

await check(
  "bun: serve()'s policies stand in front of the WebSocket upgrade: each takes one; refused, 429",
  async () => {
    const limiter = switched();
    const options = {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      mcp: false,
      policies: [cors(), rateLimit({ limiter })],
    };
    const server = await serve(makeTree(), options);
    try {
      await checkSubscription(`${server.url.replace("http", "ws")}/graphql`, globalThis.WebSocket);
      // Each upgrade took one (the lazy client connects again for each operation).
      assert.ok(limiter.takes >= 1);
      limiter.refusing = true;
      assert.equal((await handshake(server.port)).status, 429);
    } finally {
      await server.close();
    }
  },
);

await check(
  "bun: handleBunWebSocket's policies: the upgrade taken over, then refused as a problem",
  async () => {
    const limiter = switched();
    const ws = handleBunWebSocket(createGraphQLServer(makeTree()), {
      policies: [rateLimit({ limiter })],
    });
    const bunServer = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request, server) => ws.fetch(request, server),
      websocket: ws.websocket,
    });
    try {
      await checkSubscription(`ws://127.0.0.1:${bunServer.port}/graphql`, WebSocket);
      const taken = limiter.takes;
      assert.ok(taken >= 1);
      limiter.refusing = true;
      assert.deepEqual(await handshake(bunServer.port), {
        status: 429,
        type: "application/problem+json",
      });
      assert.equal(limiter.takes, taken + 1);
    } finally {
      bunServer.stop(true);
    }
  },
);

await check(
  "bun: serve() refuses hostile bodies on every surface, and lives",
  async () => {
    const options = {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      docs: false,
      bodyTimeoutMs: DRIBBLE_DEADLINE_MS,
    };
    const server = await serve(hostileTree(), options);
    try {
      for (const line of await checkHostileBodies(server.url)) console.log(`    ${line}`);
    } finally {
      await server.close();
    }
  },
);

await check(
  "bun: docs/serve.md's serve() program serves every surface, and warns of nothing",
  async () => {
    assert.equal(await runApp(readmeApp(APPS.serve), "/health", checkEverySurface), "");
  },
);

await check("bun: docs/serve.md's Bun.serve program answers, and warns of nothing", async () => {
  const stderr = await runApp(readmeApp(APPS.bun), "/hello?name=Ann", async (base) => {
    assert.equal(await expectStatus(`${base}/hello?name=Ann`, 200), '"Hello, Ann"');
  });
  assert.equal(stderr, "");
});

await check(
  "bun: docs/serve.md's Bun.serve program with subscriptions answers over HTTP and WebSocket, and warns of nothing",
  async () => {
    const stderr = await runApp(readmeApp(APPS.bunWebSocket), "/hello?name=Ann", async (base) => {
      assert.equal(await expectStatus(`${base}/hello?name=Ann`, 200), '"Hello, Ann"');
      const socket = createWsClient({
        url: `${base.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      try {
        const ticks = [];
        const events = socket.iterate({ query: "subscription { ticks }" });
        await within(
          (async () => {
            for await (const result of events) ticks.push(result.data?.ticks);
          })(),
          "the docs program's ticks",
        );
        assert.deepEqual(ticks, [1, 2, 3]);
      } finally {
        await socket.dispose();
      }
    });
    assert.equal(stderr, "");
  },
);

// The ownership checks on serve() (Bun.serve), one server and issuer for all of them.
let owners;
await check(
  "bun owners: serve() of a long-running leaf behind oauth(), with its issuer",
  async () => {
    const listen = (tree, options) =>
      serve(tree, {
        ...options,
        port: 0,
        hostname: "127.0.0.1",
        quiet: true,
        mcp: { name: "npm-owners" },
      });
    owners = await ownersServed(listen);
  },
);
if (owners !== undefined) {
  await check(
    "bun owners: A's tokens are two of one subject, the expired one A's, B another",
    () => checkPrincipals(owners),
  );
  await check(
    "bun owners: REST: A starts (202 + Location); expired 401, B and none 404 and change nothing; A renewed reads, answers, cancels",
    () => checkRestOwners(owners),
  );
  await check(
    "bun owners: GraphQL query { task(id) }: A renewed finds it, expired UNAUTHENTICATED, B and none NOT_FOUND",
    () => checkGraphQLOwners(owners),
  );
  await check(
    "bun owners: MCP 2026-07-28 tasks/get: A renewed reads it, expired HTTP 401, B and none the unknown task",
    () => checkMcpOwners(owners),
  );
  await check(
    "bun owners: a task started over GraphQL WebSocket with connectionParams is A's: A reads it over REST, B 404",
    () => checkWsStartOwners(owners, WebSocket),
  );
  await check("bun owners: no fault reached onError", () => checkNoFaults(owners));
  await owners.close();
}

console.log(`bun-suite-tally: ${JSON.stringify(tally)}`);
process.exit(tally.failed === 0 ? 0 : 1);
