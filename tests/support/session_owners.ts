// 2025-era MCP sessions bound to the identity that opened them, checked over
// the raw wire against a served handler, whatever its session store: another
// user's token, no token, a DELETE by another and a confirmation answered from
// another session are each refused (404, as for an unknown session; the
// destructive tool does not run), and the owner's session works on.
import assert from "node:assert/strict";
import { api, auth, op, use } from "@ramify/api";
import { INITIALIZE } from "./mcp_wire.ts";

/** What a test observes of the tree: how many times `wipe` ran. */
export interface Shelf {
  wiped: number;
}

const users = new Map([["alice-token", "alice"], ["alice-renewed", "alice"], [
  "bob-token",
  "bob",
]]);
const signedIn = auth({ from: "bearer", verify: (token) => users.get(token) });

/** A tree with a destructive tool behind a bearer guard, and a read. */
export function ownedTree(shelf: Shelf) {
  return api({
    wipe: op(
      () => {
        shelf.wiped++;
        return "wiped";
      },
      use(signedIn),
      { tags: { destructive: true } },
    ),
    whoami: op((_input, ctx) => ctx.user, use(signedIn), { tags: { readOnly: true } }),
  });
}

const HEAD = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};

/** Request headers carrying `token` as a bearer token, when given. */
export function as(token: string | undefined, session?: string): Record<string, string> {
  return {
    ...HEAD,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(session === undefined ? {} : { "mcp-session-id": session }),
  };
}

/** Opens a session with `headers`; its id. */
export async function openSession(
  base: string,
  headers: Record<string, string>,
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, capabilities } }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  assert.ok(id !== null, "a session id");
  return id;
}

/** POSTs one JSON-RPC message. */
export function send(base: string, headers: Record<string, string>, message: unknown) {
  return fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(message) });
}

/** A `tools/list` in the session: its status (the body read). */
async function listStatus(base: string, headers: Record<string, string>): Promise<number> {
  const response = await send(base, headers, { jsonrpc: "2.0", id: 7, method: "tools/list" });
  await response.text();
  return response.status;
}

/** A refusal as for an unknown session. */
async function assertUnknown(response: Response, what: string) {
  assert.equal(response.status, 404, what);
  assert.deepEqual(await response.json(), {
    jsonrpc: "2.0",
    error: { code: -32001, message: "Session not found" },
    id: null,
  }, what);
}

/** Another user's token, no token: 404; the owner's: served. */
export async function checkRequests(base: string): Promise<void> {
  const alice = await openSession(base, as("alice-token"));
  const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
  await assertUnknown(await send(base, as("bob-token", alice), list), "another user's token");
  await assertUnknown(await send(base, as(undefined, alice), list), "no token");
  await assertUnknown(await send(base, as("alice-token-x", alice), list), "a token not hers");
  const stream = await fetch(`${base}/mcp`, { method: "GET", headers: as("bob-token", alice) });
  await assertUnknown(stream, "another user's GET");
  assert.equal(await listStatus(base, as("alice-token", alice)), 200, "the owner is served");
  // A session opened without a credential serves requests without one only.
  const anonymous = await openSession(base, as(undefined));
  await assertUnknown(await send(base, as("bob-token", anonymous), list), "a token in no one's");
  assert.equal(await listStatus(base, as(undefined, anonymous)), 200);
}

/** DELETE by another user, or with no token: 404, the session lives; by its owner: ended. */
export async function checkDelete(base: string): Promise<void> {
  const alice = await openSession(base, as("alice-token"));
  const end = (token: string | undefined) =>
    fetch(`${base}/mcp`, { method: "DELETE", headers: as(token, alice) });
  await assertUnknown(await end("bob-token"), "a DELETE by another");
  await assertUnknown(await end(undefined), "a DELETE with no token");
  assert.equal(await listStatus(base, as("alice-token", alice)), 200, "the session lives on");
  const ended = await end("alice-token");
  assert.equal(ended.status, 200, "the owner ends it");
  await ended.body?.cancel();
  await assertUnknown(
    await send(base, as("alice-token", alice), { jsonrpc: "2.0", id: 3, method: "tools/list" }),
    "ended",
  );
}

/** The JSON-RPC messages of an SSE answer, one at a time. */
export function messagesOf(response: Response): () => Promise<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const ready: Record<string, unknown>[] = [];
  return async () => {
    while (ready.length === 0) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffered += value;
      const events = buffered.split("\n\n");
      buffered = events.pop()!;
      for (const event of events) {
        const data = event.split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim()).join("");
        if (data !== "") ready.push(JSON.parse(data));
      }
    }
    return ready.shift()!;
  };
}

/**
 * Alice's destructive call asks her to confirm; Bob, knowing the question's
 * id, answers it from his own session and tries hers (404): the tool does not
 * run. Alice's own answer then runs it, once.
 */
export async function checkConfirmation(base: string, shelf: Shelf): Promise<void> {
  const asks = { elicitation: {} };
  const alice = await openSession(base, as("alice-token"), asks);
  const bob = await openSession(base, as("bob-token"), asks);
  const call = await send(base, as("alice-token", alice), {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "wipe", arguments: {} },
  });
  assert.equal(call.status, 200);
  const next = messagesOf(call);
  const question = await next();
  assert.equal(question.method, "elicitation/create");
  const yes = {
    jsonrpc: "2.0",
    id: question.id,
    result: { action: "accept", content: { confirm: true } },
  };
  const fromBob = await send(base, as("bob-token", bob), yes);
  assert.ok(fromBob.status < 300, `Bob's own session takes the message (${fromBob.status})`);
  await fromBob.body?.cancel();
  await assertUnknown(await send(base, as("bob-token", alice), yes), "Bob in Alice's session");
  await assertUnknown(await send(base, as(undefined, alice), yes), "no token in Alice's session");
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(shelf.wiped, 0, "no one but Alice answers her question");
  const fromAlice = await send(base, as("alice-token", alice), yes);
  assert.ok(fromAlice.status < 300);
  await fromAlice.body?.cancel();
  const answer = await next();
  assert.equal(answer.id, 2);
  assert.deepEqual((answer.result as { isError?: boolean }).isError ?? false, false);
  assert.equal(shelf.wiped, 1, "Alice's answer runs the tool");
  await call.body?.cancel().catch(() => {});
}
