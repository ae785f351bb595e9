// The hostile-body cases of the npm proof (scripts/npm_test/hostile_bodies.mjs,
// run there on Node and Bun) on Deno: `serve()` with REST, GraphQL and MCP, 5,
// 50 and 500 MiB bodies with and without a Content-Length, cut off mid-way,
// dribbled and written on after the 413,
// each answered as documented, the server alive after each, memory bounded;
// and the Node adapter (serveNode) on Deno's node:http, between two proofs.
import { createHandler, serve } from "@ramify/api/serve";
import { serveNode } from "@ramify/api/serve/node";
import {
  checkHostileBodies,
  DRIBBLE_DEADLINE_MS,
  hostileTree,
} from "../../scripts/npm_test/hostile_bodies.mjs";

Deno.test("serve() on Deno: hostile bodies on every surface are refused, and the server lives", async () => {
  const server = await serve(hostileTree(), {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    docs: false,
    bodyTimeoutMs: DRIBBLE_DEADLINE_MS,
    mcp: { warnMissingHints: false },
  });
  try {
    for (const line of await checkHostileBodies(server.url)) console.log(line);
  } finally {
    await server.close();
  }
});

Deno.test("serveNode on Deno's node:http: the same hostile bodies, the same answers", async () => {
  const handler = await createHandler(hostileTree(), {
    docs: false,
    bodyTimeoutMs: DRIBBLE_DEADLINE_MS,
    graphql: { graphiql: false, ws: false },
    mcp: { warnMissingHints: false },
  });
  const server = await serveNode(handler, { port: 0, hostname: "127.0.0.1" });
  try {
    for (const line of await checkHostileBodies(`http://127.0.0.1:${server.port}`)) {
      console.log(line);
    }
  } finally {
    await handler.close();
    await server.close();
  }
});
