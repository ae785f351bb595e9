// 2025-era MCP sessions bound to their owner with the Redis store, two
// instances behind a round-robin balancer (each request to the other instance
// than the last): another user's token, no token, a DELETE by another and a
// confirmation answered from another session are each refused, the owner's
// session works on, and Redis holds the owner's fingerprint, never the token.
// The same cases on the memory store: tests/tools/session_owner_test.ts.
import assert from "node:assert/strict";
import { createMcpHandler, type McpFetchHandler } from "@ramify/api/tools";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisMcpCancellations, redisMcpSessions } from "../../redis/mcp_sessions.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";
import {
  as,
  checkConfirmation,
  checkDelete,
  checkRequests,
  openSession,
  ownedTree,
  type Shelf,
} from "../support/session_owners.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

function balanced(
  run: (base: string, shelf: Shelf, redis: RedisServer) => Promise<void>,
): () => Promise<void> {
  return () =>
    withRedis(async (redis) => {
      const shelf = { wiped: 0 };
      const connections: Redis[] = [];
      const instances: McpFetchHandler[] = [];
      for (let i = 0; i < 2; i++) {
        const connection = await connectRedis({ url: redis.url, app: "owners" });
        connections.push(connection);
        instances.push(createMcpHandler(ownedTree(shelf), {
          sessions: redisMcpSessions(connection, { idleMs: 60_000 }),
          cancellations: redisMcpCancellations(connection),
        }));
      }
      let turn = 0;
      try {
        await withServer(
          (request) => instances[turn++ % 2](request),
          (base) => run(base, shelf, redis),
        );
      } finally {
        for (const instance of instances) await instance.close();
        for (const connection of connections) await connection.close();
      }
    });
}

Deno.test({
  name: "MCP sessions on Redis: another user's token, or none, is a 404; the owner's is served",
  ignore,
  fn: balanced((base) => checkRequests(base)),
});

Deno.test({
  name: "MCP sessions on Redis: only the owner's DELETE ends a session",
  ignore,
  fn: balanced((base) => checkDelete(base)),
});

Deno.test({
  name: "MCP sessions on Redis: a confirmation is answered only within the session that asked",
  ignore,
  fn: balanced((base, shelf) => checkConfirmation(base, shelf)),
});

Deno.test({
  name: "MCP sessions on Redis: the record holds the owner's fingerprint, never the token",
  ignore,
  fn: balanced(async (base, _shelf, redis) => {
    const id = await openSession(base, as("alice-token"));
    const stored = await redis.cli("GET", `ramify:owners:mcp:session:${id}`);
    assert.match(JSON.parse(stored).owner, /^[0-9a-f]{64}$/);
    assert.doesNotMatch(stored, /alice-token/);
  }),
});
