// Node: a tree served through node:http by @hono/node-server (the fetch
// adapter), with GraphQL over WebSocket on the same server through the `ws`
// package and `handleBunWebSocket`'s handlers, called with the typed HTTP
// client, the typed GraphQL client and the graphql-ws client; MCP at /mcp with
// the MCP SDK's client.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAdaptorServer } from "@hono/node-server";
import { WebSocket, WebSocketServer } from "ws";
import { createGraphQLServer } from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import {
  checkCli,
  checkGraphQLHttp,
  checkHttpClient,
  checkMcp,
  checkSubscription,
  makeServers,
  makeTree,
  within,
} from "./fixture.mjs";

const PROTOCOL = "graphql-transport-ws";
const options = { timeout: 60_000 };

/** The `ws` socket as `handleBunWebSocket`'s handlers take it: one peer object for its life. */
function serveSockets(wss, websocket) {
  wss.on("connection", (socket, incoming) => {
    const headers = new Headers();
    for (const [key, value] of Object.entries(incoming.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
    const peer = {
      data: { request: new Request(url, { headers }), protocol: socket.protocol },
      send: (text) => socket.send(text),
      close: (code, reason) => socket.close(code, reason),
    };
    websocket.open(peer);
    socket.on("message", (data, binary) => websocket.message(peer, binary ? data : String(data)));
    socket.on("close", (code, reason) => websocket.close(peer, code, String(reason)));
  });
}

let server;
let wss;
let baseUrl;
let closeServers;

before(async () => {
  const { fetch, ws, close } = makeServers();
  closeServers = close;
  server = createAdaptorServer({ fetch });
  wss = new WebSocketServer({
    server,
    path: "/graphql",
    handleProtocols: (offered) => offered.has(PROTOCOL) && PROTOCOL,
  });
  serveSockets(wss, ws.websocket);
  await within(new Promise((resolve) => server.listen(0, "127.0.0.1", resolve)), "listen");
  baseUrl = `http://127.0.0.1:${server.address().port}`;
}, options);

after(async () => {
  await closeServers();
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}, options);

test("node: the typed HTTP client through node:http", options, () => checkHttpClient(baseUrl));

test(
  "node: the GraphQL client over HTTP through node:http",
  options,
  () => checkGraphQLHttp(baseUrl),
);

test(
  "node: a subscription over ws with the graphql-ws client",
  options,
  () => checkSubscription(`${baseUrl.replace("http", "ws")}/graphql`, WebSocket),
);

test(
  "node: MCP over Streamable HTTP through node:http, with the SDK's client",
  options,
  () => checkMcp(baseUrl),
);

test(
  "node: the command line as a process, and against node:http with --url",
  options,
  () => checkCli(baseUrl),
);

test("node: createWsHandler names the alternatives where Deno is absent", () => {
  assert.equal(globalThis.Deno, undefined);
  assert.throws(
    () => createWsHandler(createGraphQLServer(makeTree())),
    (error) => error instanceof TypeError && /handleBunWebSocket/.test(error.message),
  );
});
