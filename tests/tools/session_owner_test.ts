// 2025-era MCP sessions belong to the identity that opened them (the memory
// store): another user's token, no token, a DELETE by another and a
// confirmation answered from another session are each refused; the owner's
// session works on. `sessionOwner` names the identity instead (a renewed token
// of the same user keeps the session), and a guard's API key or cookie binds a
// session as a bearer token does. The same cases on Redis:
// tests/redis/mcp_session_owner_test.ts.
import assert from "node:assert/strict";
import { api, auth, HttpError, op, use } from "@ramify/api";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";
import { withServer } from "../support/server.ts";
import { INITIALIZE } from "../support/mcp_wire.ts";
import {
  as,
  checkConfirmation,
  checkDelete,
  checkRequests,
  openSession,
  ownedTree,
  send,
  type Shelf,
} from "../support/session_owners.ts";

async function served(
  run: (base: string, shelf: Shelf) => Promise<void>,
  opts: McpHandlerOptions = {},
) {
  const shelf = { wiped: 0 };
  const mcp = createMcpHandler(ownedTree(shelf), opts);
  try {
    await withServer(mcp, (base) => run(base, shelf));
  } finally {
    await mcp.close();
  }
}

const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };

Deno.test("MCP sessions: another user's token, or none, is a 404; the owner's is served", async () => {
  await served(checkRequests);
});

Deno.test("MCP sessions: only the owner's DELETE ends a session", async () => {
  await served(checkDelete);
});

Deno.test("MCP sessions: a confirmation is answered only within the session that asked", async () => {
  await served(checkConfirmation);
});

Deno.test("MCP sessions: the record keeps a fingerprint of the owner, never the token", async () => {
  const records: string[] = [];
  const kept = new Map<string, unknown>();
  await served(async (base) => {
    await openSession(base, as("alice-token"));
    await openSession(base, as(undefined));
  }, {
    sessions: {
      create: (id, record) => {
        records.push(JSON.stringify(record));
        return Promise.resolve(void kept.set(id, record));
      },
      get: (id) => Promise.resolve(kept.get(id) as never),
      delete: (id) => Promise.resolve(kept.delete(id)),
    },
  });
  assert.match(JSON.parse(records[0]).owner, /^[0-9a-f]{64}$/);
  assert.doesNotMatch(records[0], /alice-token/);
  assert.equal(JSON.parse(records[1]).owner, undefined, "no credential: no owner");
});

Deno.test("MCP sessions: sessionOwner names the identity; a renewed token of the same user keeps its session", async () => {
  const users = new Map([["alice-token", "alice"], ["alice-renewed", "alice"], [
    "bob-token",
    "bob",
  ]]);
  await served(async (base) => {
    const alice = await openSession(base, as("alice-token"));
    const renewed = await send(base, as("alice-renewed", alice), list);
    assert.equal(renewed.status, 200);
    await renewed.body?.cancel();
    const bob = await send(base, as("bob-token", alice), list);
    assert.equal(bob.status, 404);
    await bob.body?.cancel();
    const forged = await send(base, as("forged", alice), list);
    assert.equal(forged.status, 401, "an HttpError the option throws is the answer");
    assert.equal(forged.headers.get("www-authenticate"), "Bearer");
    assert.deepEqual((await forged.json()).error, { code: -32000, message: "Who are you?" });
  }, {
    sessionOwner: (request) => {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
      if (token === undefined) return undefined;
      const user = users.get(token);
      if (user === undefined) {
        throw new HttpError(401, "Who are you?", { headers: { "www-authenticate": "Bearer" } });
      }
      return user;
    },
  });
});

Deno.test("MCP sessions: a sessionOwner that fails otherwise is observed and a 500", async () => {
  const faults: unknown[] = [];
  await served(async (base) => {
    const response = await send(base, as("alice-token"), INITIALIZE);
    assert.equal(response.status, 500);
    assert.deepEqual((await response.json()).error, { code: -32603, message: "Internal error" });
  }, {
    sessionOwner: () => {
      throw new Error("the directory is down");
    },
    onError: (error) => faults.push(error),
  });
  assert.equal((faults[0] as Error).message, "the directory is down");
});

Deno.test("MCP sessions: a guard's API key header or cookie binds a session as a bearer token does", async () => {
  for (const from of [{ header: "x-api-key" }, { cookie: "sid" }] as const) {
    const key = auth({ from, verify: (value) => value.startsWith("k") ? value : undefined });
    const mcp = createMcpHandler(
      api({ whoami: op((_input, ctx) => ctx.user, use(key), { tags: { readOnly: true } }) }),
    );
    const carrying = (value: string, session?: string) => ({
      ...as(undefined, session),
      ...("header" in from ? { "x-api-key": value } : { cookie: `theme=dark; sid=${value}` }),
    });
    await withServer(mcp, async (base) => {
      const session = await openSession(base, carrying("k1"));
      const other = await send(base, carrying("k2", session), list);
      assert.equal(other.status, 404, `another ${JSON.stringify(from)}`);
      await other.body?.cancel();
      const none = await send(base, as(undefined, session), list);
      assert.equal(none.status, 404, `no ${JSON.stringify(from)}`);
      await none.body?.cancel();
      const own = await send(base, carrying("k1", session), list);
      assert.equal(own.status, 200);
      await own.body?.cancel();
    });
    await mcp.close();
  }
});
