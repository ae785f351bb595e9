// Node: the hostile-body cases (hostile_bodies.mjs) against `serve()` from the
// installed package, on node:http through serveNode: REST, GraphQL and MCP, 5
// 50 and 500 MiB bodies with and without a Content-Length, cut off mid-way,
// dribbled, and written on after the 413.
// The server runs in this process: a request that killed it would end the test.
import { test } from "node:test";
import { serve } from "@ramify/api/serve";
import { checkHostileBodies, DRIBBLE_DEADLINE_MS, hostileTree } from "./hostile_bodies.mjs";

test("node serve(): hostile bodies on every surface are refused, and the server lives", {
  timeout: 60_000,
}, async () => {
  const server = await serve(hostileTree(), {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    docs: false,
    bodyTimeoutMs: DRIBBLE_DEADLINE_MS,
  });
  try {
    for (const line of await checkHostileBodies(server.url)) console.log(line);
  } finally {
    await server.close();
  }
});
