// Proves the one ownership rule (DESIGN.md, "One engine, one owner"; docs/tools.md) for what an
// MCP caller comes back to, against a real OpenID provider (tests/support/oidc_provider.ts) and
// an `oauth()` guard, over serve() on a real port: what A began is A's principal's (the token's
// issuer and subject), not its token's. A's renewed token (another token, the same subject) comes
// back to it; A's expired token gets the guard's 401 with `WWW-Authenticate`; another principal
// (B) is answered exactly as for a session no one opened (404 "Session not found"), and a caller
// with no token too, but where the request reaches a guarded leaf: the guard's challenge (401)
// comes first there, the same answer as with a session id no one holds, so it tells nothing of A's.
// 1. A 2025-era session (Streamable HTTP, `Mcp-Session-Id`): its requests, its GET stream, DELETE.
// 2. A resource subscription (`resources/subscribe`, the leaf's `meta.tools.updates` stream): A
//    hears `notifications/resources/updated` on its GET stream; B cannot subscribe or listen in
//    A's session, and B, following the same URI in its own session, hears nothing of A's changes
//    (the resource is each principal's own inbox); a token lacking the scope is refused.
// 3. A destructive leaf's pending confirmation and its handler's pending question: 2025-era, as
//    `elicitation/create` answered in the session; 2026-07-28, as input rounds (`inputResponses`
//    with the sealed `requestState`). Only A (renewed token) answers them; B's answer, or no
//    token's, never completes A's call, and the leaf runs once, as A.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, ask, op, use } from "@ramify/api/tree";
import { serve } from "@ramify/api/serve";
import { oauth } from "@ramify/api/auth";
import { OIDC_CLIENTS, withOidcProvider } from "./support/oidc_provider.ts";
import { hostileTokens } from "./support/oidc_hostile.ts";
import { bearer, bounded, sseMessages } from "./support/owners.ts";
import { as, messagesOf, openSession, send } from "./support/session_owners.ts";
import { answerOf, type JsonRpcMessage, modernRequest } from "./support/mcp_wire.ts";
import { changed, watched } from "./tools/resources_tree.ts";

/** The resource the guard serves: its tokens' `aud`. */
const RESOURCE = "https://api.test/api";
/** Each caller's own inbox, a resource whose changes can be followed. */
const INBOX = "ramify://inbox";
const SHELF = { shelf: 3 };
/** The elicitation capability a client declares (at `initialize`, or in a request's `_meta`). */
const ASKS = { elicitation: {} };

/** Who `wipe` ran for (the subjects), in order. */
const wipes: string[] = [];

function tree(issuer: string) {
  const guard = oauth({ issuer, audience: RESOURCE });
  const readOnly = { tags: { readOnly: true }, scopes: ["books:read"] } as const;
  return api({
    whoami: op((_input, ctx) => String(ctx.user.sub), use(guard), {
      tags: { readOnly: true },
      input: z.object({}),
      tools: { resource: false },
    }),
    // The caller's own inbox: its changes are the caller's subject's (`changed(sub)`).
    inbox: op((_input, ctx) => `the inbox of ${ctx.user.sub}`, use(guard), {
      ...readOnly,
      tools: { updates: "inboxChanges", tool: false },
    }),
    inboxChanges: op((_input, ctx) => watched(String(ctx.user.sub), ctx.signal), use(guard), {
      ...readOnly,
      tags: { readOnly: true, streaming: true },
    }),
    // Destructive (so confirmed first), then asks which shelf, then wipes it.
    wipe: op(
      async (_input, ctx) => {
        const said = await ask(ctx, {
          key: "shelf",
          message: "Which shelf?",
          schema: {
            type: "object",
            properties: { shelf: { type: "integer" } },
            required: ["shelf"],
          },
        });
        wipes.push(String(ctx.user.sub));
        return `wiped shelf ${said.action === "accept" ? said.content.shelf : 0}`;
      },
      use(guard),
      { tags: { destructive: true }, input: z.object({}) },
    ),
  });
}

/** What a refusal says: its status, challenge and body. */
interface Answered {
  readonly status: number;
  readonly challenge: string | null;
  readonly body: string;
}

async function answered(response: Response): Promise<Answered> {
  const challenge = response.headers.get("www-authenticate");
  return { status: response.status, challenge, body: await response.text() };
}

/** An id of the shape the server gives, of a session no one opened. */
const unknownSession = () => crypto.randomUUID().replaceAll("-", "");

const NOT_FOUND = {
  status: 404,
  challenge: null,
  body: JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32001, message: "Session not found" },
    id: null,
  }),
};

/** A JSON-RPC request with a fresh id. */
function call(method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id: crypto.randomUUID(), method, params };
}

Deno.test("agreement ownership over MCP: sessions, subscriptions and pending questions are their principal's", async (t) => {
  await withOidcProvider(async (provider) => {
    const hostile = await hostileTokens(provider, RESOURCE);
    const a1 = hostile.valid;
    const a2 = await provider.tokenFor(RESOURCE, "books:read books:write");
    const aBare = await provider.tokenFor(RESOURCE, "");
    const expired = hostile.expired;
    const b = await provider.tokenFor(RESOURCE, "books:read books:write", OIDC_CLIENTS.api);
    const bBare = await provider.tokenFor(RESOURCE, "", OIDC_CLIENTS.api);
    const [subA, subB] = [OIDC_CLIENTS.app.id, OIDC_CLIENTS.api.id];

    const faults: unknown[] = [];
    const server = await serve(tree(provider.issuer), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      docs: false,
      onError: (error: unknown) => void faults.push(error),
    });
    const base = `http://127.0.0.1:${server.port}`;
    const mcpUrl = `${base}/mcp`;
    const held: Response[] = [];

    const post = (token: string | undefined, session: string, message: unknown) =>
      send(base, as(token, session), message);
    const get = async (token: string | undefined, session: string) => {
      const response = await fetch(mcpUrl, { method: "GET", headers: as(token, session) });
      if (response.ok) held.push(response);
      return response;
    };
    const end = (token: string | undefined, session: string) =>
      fetch(mcpUrl, { method: "DELETE", headers: as(token, session) });
    /** One request of `session`, and the same with a session no one opened: they agree. */
    const asUnknown = async (
      what: string,
      request: (session: string) => Promise<Response>,
      session: string,
    ): Promise<Answered> => {
      const mine = await answered(await request(session));
      const none = await answered(await request(unknownSession()));
      assert.deepEqual(mine, none, `${what}: answered as a session no one opened`);
      return mine;
    };
    /** The guard's refusal of an expired token: 401 `invalid_token`. */
    const assertExpired = async (response: Response, what: string) => {
      const { status, challenge, body } = await answered(response);
      assert.equal(status, 401, `${what}: ${body}`);
      assert.match(challenge ?? "", /^Bearer error="invalid_token"/, what);
    };
    /** The guard's challenge of a request without a token: 401, no error named. */
    const assertChallenged = (seen: Answered, what: string) => {
      assert.equal(seen.status, 401, `${what}: ${seen.body}`);
      assert.match(seen.challenge ?? "", /^Bearer resource_metadata="/, what);
    };
    /** A JSON-RPC answer of `message` in the session (200, its message). */
    const served = async (token: string, session: string, message: { id: string }) => {
      const response = await post(token, session, message);
      assert.equal(response.status, 200, `${JSON.stringify(message)}`);
      return await answerOf(response, message.id);
    };

    try {
      await t.step("the principals: A's tokens are of one subject; B is another", () => {
        assert.notEqual(a1, a2);
        assert.notEqual(subA, subB);
      });

      await t.step("1. a 2025-era session is its opener's principal's", async (t) => {
        const session = await openSession(base, as(a1));
        const whoami = () => call("tools/call", { name: "whoami", arguments: {} });

        await t.step("A's renewed token is served in it", async () => {
          assert.ok((await served(a2, session, call("tools/list"))).result?.tools);
          const me = await served(a2, session, whoami());
          assert.equal((me.result?.content as { text: string }[])[0].text, subA);
          const stream = await get(a2, session);
          assert.equal(stream.status, 200, "its GET stream");
        });
        await t.step("A's expired token: 401 with WWW-Authenticate", async () => {
          await assertExpired(await post(expired, session, call("tools/list")), "a request");
          await assertExpired(await post(expired, session, whoami()), "a call");
          await assertExpired(await get(expired, session), "its GET stream");
          await assertExpired(await end(expired, session), "DELETE");
        });
        await t.step("B and no token: as a session no one opened (404)", async () => {
          for (const [who, token] of [["B", b], ["no token", undefined]] as const) {
            const list = (id: string) => post(token, id, call("tools/list"));
            assert.deepEqual(await asUnknown(`${who}'s request`, list, session), NOT_FOUND);
            const stream = (id: string) => get(token, id);
            assert.deepEqual(await asUnknown(`${who}'s GET`, stream, session), NOT_FOUND);
            const ending = (id: string) => end(token, id);
            assert.deepEqual(await asUnknown(`${who}'s DELETE`, ending, session), NOT_FOUND);
          }
          const bCall = (id: string) => post(b, id, whoami());
          assert.deepEqual(await asUnknown("B's call", bCall, session), NOT_FOUND);
          // A guarded call without a token meets the guard first: the challenge, as for any session.
          const noneCall = (id: string) => post(undefined, id, whoami());
          assertChallenged(await asUnknown("a call with no token", noneCall, session), "no token");
        });
        await t.step("the session lives on for A, and A's renewed token ends it", async () => {
          assert.ok((await served(a2, session, call("tools/list"))).result?.tools);
          const ended = await end(a2, session);
          assert.equal(ended.status, 200);
          await ended.body?.cancel();
          const after = await answered(await post(a2, session, call("tools/list")));
          assert.deepEqual(after, NOT_FOUND, "ended");
        });
      });

      await t.step("2. a resource subscription is its session's principal's", async (t) => {
        const sessionA = await openSession(base, as(a1));
        const sessionB = await openSession(base, as(b));
        const subscribe = (token: string | undefined, session: string) =>
          post(token, session, call("resources/subscribe", { uri: INBOX }));
        const updated = (messages: readonly JsonRpcMessage[]) =>
          messages.filter((message) => message.method === "notifications/resources/updated");

        await t.step("A subscribes in its session with its renewed token", async () => {
          const message = call("resources/subscribe", { uri: INBOX });
          assert.deepEqual((await served(a2, sessionA, message)).result, {});
        });
        await t.step("B and no token cannot subscribe, or listen, in A's session", async () => {
          const bSubscribe = (id: string) => subscribe(b, id);
          assert.deepEqual(await asUnknown("B's subscribe", bSubscribe, sessionA), NOT_FOUND);
          const bListen = (id: string) => get(b, id);
          assert.deepEqual(await asUnknown("B's GET stream", bListen, sessionA), NOT_FOUND);
          const noneListen = (id: string) => get(undefined, id);
          assert.deepEqual(await asUnknown("no token's GET", noneListen, sessionA), NOT_FOUND);
          const noneSubscribe = (id: string) => subscribe(undefined, id);
          assertChallenged(await asUnknown("no token's subscribe", noneSubscribe, sessionA), "");
          await assertExpired(await subscribe(expired, sessionA), "A's expired token");
        });
        await t.step("the subscriber's own guards run: a token without the scope", async () => {
          const sessionBare = await openSession(base, as(bBare));
          for (const [who, token, session] of [["A", aBare, sessionA], ["B", bBare, sessionBare]]) {
            const refused = await answered(await subscribe(token, session));
            assert.equal(refused.status, 403, `${who}'s token without books:read: ${refused.body}`);
            assert.match(refused.challenge ?? "", /^Bearer error="insufficient_scope"/);
          }
        });
        await t.step(
          "A hears its inbox change; B, following its own, hears none of A's",
          async () => {
            const theirs = await answered(await subscribe(b, sessionB));
            assert.equal(theirs.status, 200, `B follows its own inbox: ${theirs.body}`);
            const streamA = await get(a2, sessionA);
            const streamB = await get(b, sessionB);
            assert.deepEqual([streamA.status, streamB.status], [200, 200]);
            const hearingB = sseMessages(streamB);
            const hearingA = sseMessages(streamA, (messages) => updated(messages).length > 0);
            let heard = false;
            void hearingA.finally(() => heard = true);
            // The stream begins after the subscription answers: A's change is made until it is heard.
            const changing = async () => {
              while (!heard) {
                changed(subA);
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            };
            const [messagesA] = await bounded(Promise.all([hearingA, changing()]), "A's change");
            assert.deepEqual(updated(messagesA).map((message) => message.params), [{ uri: INBOX }]);
            changed(subA);
            await new Promise((resolve) => setTimeout(resolve, 100));
            // Ending B's session ends its stream: what it heard until then.
            const ended = await end(b, sessionB);
            assert.equal(ended.status, 200);
            await ended.body?.cancel();
            const messagesB = await bounded(hearingB, "B's stream to end");
            // A feed is its principal's: B's subscription of the same URI runs B's own stream.
            assert.deepEqual(updated(messagesB), [], "B hears nothing of A's inbox");
          },
        );
        const ended = await end(a2, sessionA);
        await ended.body?.cancel();
      });

      await t.step("3a. 2025-era: A's pending questions are answered only by A", async (t) => {
        wipes.length = 0;
        const sessionA = await openSession(base, as(a1), ASKS);
        const sessionB = await openSession(base, as(b), ASKS);
        const wipe = call("tools/call", { name: "wipe", arguments: {} });
        const started = await post(a1, sessionA, wipe);
        assert.equal(started.status, 200);
        const next = messagesOf(started);
        const questions = [
          ["the confirmation", { confirm: true }],
          ["the handler's question", SHELF],
        ] as const;
        for (const [what, content] of questions) {
          const question = await bounded(next(), what) as JsonRpcMessage;
          assert.equal(question.method, "elicitation/create", JSON.stringify(question));
          const reply = { jsonrpc: "2.0", id: question.id, result: { action: "accept", content } };
          await t.step(`${what}: B's and no token's answers change nothing`, async () => {
            const fromB = await post(b, sessionB, reply);
            assert.ok(fromB.status < 300, `B's own session takes it (${fromB.status})`);
            await fromB.body?.cancel();
            for (const [who, token] of [["B", b], ["no token", undefined]] as const) {
              const answer = (id: string) => post(token, id, reply);
              assert.deepEqual(
                await asUnknown(`${who} in A's session`, answer, sessionA),
                NOT_FOUND,
              );
            }
            await assertExpired(await post(expired, sessionA, reply), "A's expired token");
            await new Promise((resolve) => setTimeout(resolve, 100));
            assert.deepEqual(wipes, [], "the leaf has not run");
          });
          await t.step(`${what}: A's renewed token answers it`, async () => {
            const fromA = await post(a2, sessionA, reply);
            assert.ok(fromA.status < 300, `taken (${fromA.status})`);
            await fromA.body?.cancel();
          });
        }
        const result = await bounded(next(), "the call's result") as JsonRpcMessage;
        assert.equal(result.id, wipe.id, "the call's answer");
        const content = result.result?.content as { text: string }[];
        assert.deepEqual([result.result?.isError ?? false, content[0].text], [
          false,
          "wiped shelf 3",
        ]);
        assert.deepEqual(wipes, [subA], "the leaf ran once, as A");
        await started.body?.cancel().catch(() => {});
      });

      await t.step("3b. 2026-07-28: A's pending input rounds are answered only by A", async (t) => {
        wipes.length = 0;
        /** A round of `wipe` as `token`, from a client that answers forms. */
        const round = async (token: string | undefined, given: Record<string, unknown> = {}) => {
          const params = {
            name: "wipe",
            arguments: {},
            ...given,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": ASKS,
            },
          };
          const { id, init } = modernRequest({ method: "tools/call", params }, bearer(token));
          const response = await fetch(mcpUrl, init);
          if (response.status !== 200) return { refused: await answered(response) };
          return { message: await answerOf(response, id) };
        };
        const first = await round(a1);
        assert.equal(first.message?.result?.resultType, "input_required", JSON.stringify(first));
        /** The round A is asked now: its questions and its sealed state. */
        let pending = first.message!.result!;
        const rounds = [
          ["the confirmation", "ask-1", { confirm: true }],
          ["the handler's question", "shelf", SHELF],
        ] as const;
        for (const [what, key, content] of rounds) {
          const asked = Object.keys(pending.inputRequests as Record<string, unknown>);
          assert.deepEqual(asked, [key], `${what} is pending`);
          const given = {
            inputResponses: { [key]: { action: "accept", content } },
            requestState: pending.requestState,
          };
          await t.step(`${what}: B's and no token's answers do not complete A's call`, async () => {
            // The requestState is sealed bound to the caller asked: B's echo of A's is refused.
            assertChallenged((await round(undefined, given)).refused!, "no token");
            const old = (await round(expired, given)).refused!;
            assert.equal(old.status, 401);
            assert.match(old.challenge ?? "", /^Bearer error="invalid_token"/);
            const fromB = await round(b, given);
            assert.equal(fromB.message?.error?.code, -32602, `B: ${JSON.stringify(fromB)}`);
            assert.deepEqual(wipes, [], "the leaf has not run");
          });
          await t.step(`${what}: A's renewed token answers it`, async () => {
            const fromA = await round(a2, given);
            const result = fromA.message?.result;
            if (key === "shelf") {
              const text = (result?.content as { text: string }[] | undefined)?.[0].text;
              assert.equal(text, "wiped shelf 3", JSON.stringify(fromA));
              assert.deepEqual(wipes.filter((sub) => sub === subA), [subA], "ran once, as A");
            } else {
              assert.equal(result?.resultType, "input_required", JSON.stringify(fromA));
              pending = result!;
            }
          });
        }
      });

      await t.step("no fault reached onError", () => assert.deepEqual(faults, []));
    } finally {
      for (const response of held) await response.body?.cancel().catch(() => {});
      await server.close();
    }
  });
});
