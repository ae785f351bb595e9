// Node: a task is its principal's (owners.mjs), through the built package
// served by `createHandler` on Node's adapter (`serveNode` of
// @ramify/api/serve/node, node:http and `ws`) on a real port, behind oauth()
// with a real issuer in this process. Over REST, GraphQL over HTTP, MCP
// 2026-07-28 `tasks/get`, and a task started over GraphQL WebSocket with the
// token in connectionParams.
import { after, before, test } from "node:test";
import { WebSocket } from "ws";
import { createHandler } from "@ramify/api/serve";
import { serveNode } from "@ramify/api/serve/node";
import {
  checkGraphQLOwners,
  checkMcpOwners,
  checkNoFaults,
  checkPrincipals,
  checkRestOwners,
  checkWsStartOwners,
  ownersServed,
} from "./owners.mjs";

const options = { timeout: 60_000 };

/** The handler on serveNode; closing ends the calls in flight, then stops listening. */
async function listen(tree, handlerOptions) {
  const handler = await createHandler(tree, { ...handlerOptions, mcp: { name: "npm-owners" } });
  const server = await serveNode(handler, { port: 0, hostname: "127.0.0.1" });
  return {
    port: server.port,
    close: async () => {
      await handler.close();
      await server.close();
    },
  };
}

let owners;

before(async () => {
  owners = await ownersServed(listen);
}, options);

after(() => owners?.close(), options);

test(
  "node owners: A's tokens are two of one subject, the expired one A's, B another",
  () => checkPrincipals(owners),
);

test(
  "node owners: REST: A starts (202 + Location); expired 401, B and none 404 and change nothing; A renewed reads, answers, cancels",
  options,
  () => checkRestOwners(owners),
);

test(
  "node owners: GraphQL query { task(id) }: A renewed finds it, expired UNAUTHENTICATED, B and none NOT_FOUND",
  options,
  () => checkGraphQLOwners(owners),
);

test(
  "node owners: MCP 2026-07-28 tasks/get: A renewed reads it, expired HTTP 401, B and none the unknown task",
  options,
  () => checkMcpOwners(owners),
);

test(
  "node owners: a task started over GraphQL WebSocket with connectionParams is A's: A reads it over REST, B 404",
  options,
  () => checkWsStartOwners(owners, WebSocket),
);

test("node owners: no fault reached onError", () => checkNoFaults(owners));
