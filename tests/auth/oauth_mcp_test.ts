// oauth() on MCP over HTTP (issue 45): the edge answers at the HTTP level, before the SDK, as
// MCP 2026-07-28's authorization asks. A caller without a token may initialize, list the tools
// (every tool, the guarded ones marked with the scopes they need) and call a public one; a call
// of a guarded tool, a read of a guarded resource, is a 401 naming the metadata and the scope;
// a scope short is a 403 insufficient_scope naming the scope needed (step-up); every hostile
// token is a 401 invalid_token, whatever the request asks, with no handler run and nothing of the
// token answered or logged. The handler used alone publishes the metadata its challenges name.
// A 2025-era session belongs to the token's principal (iss, sub): a renewed token keeps it, and
// the first token claims one opened without a token (a client authorizes after its handshake).
import assert from "node:assert/strict";
import { z } from "zod";
import { decodeJwt } from "jose";
import { api, op, use } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { oauth, type OAuthUser } from "@ramify/api/auth";
import { OIDC_CLIENTS, type OidcProvider, withOidcProvider } from "../support/oidc_provider.ts";
import { hostileTokens } from "../support/oidc_hostile.ts";
import { as, openSession, send } from "../support/session_owners.ts";

const RESOURCE = "https://api.test/mcp";
const METADATA = "https://api.test/.well-known/oauth-protected-resource/mcp";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function guardedMcp(provider: OidcProvider) {
  const calls = { count: 0 };
  const logged: unknown[] = [];
  const guard = oauth({ issuer: provider.issuer, audience: RESOURCE, cooldownMs: 50 });
  const who = (user: OAuthUser) => {
    calls.count++;
    return { sub: user.sub, client_id: user.client_id, scope: user.scope };
  };
  const tree = api({
    hello: op(() => "hi", { tags: { readOnly: true } }),
    me: op((_input, ctx) => who(ctx.user), use(guard), {
      tags: { readOnly: true },
      input: z.object({}),
    }),
    books: api({
      add: op((_input, ctx) => who(ctx.user), use(guard), {
        tags: { destructive: false },
        input: z.object({ title: z.string() }),
      }),
    }, { meta: { scopes: ["books:write"] } }),
  });
  const mcp = createMcpHandler(tree, { onError: (error) => void logged.push(error) });
  /** One 2026-07-28 request: its status, challenge, body text and JSON-RPC message. */
  const post = async (
    method: string,
    params: Record<string, unknown>,
    token?: string,
    url = RESOURCE,
  ) => {
    const response = await mcp(
      new Request(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof (params.name ?? params.uri) === "string"
            ? { "mcp-name": String(params.name ?? params.uri) }
            : {}),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: { ...params, _meta: ENVELOPE },
        }),
      }),
    );
    const text = await response.text();
    const data = text.split("\n").find((line) => line.startsWith("data: "));
    return {
      status: response.status,
      challenge: response.headers.get("www-authenticate"),
      retryAfter: response.headers.get("retry-after"),
      text,
      message: response.status === 200 ? JSON.parse(data?.slice(6) ?? text) : undefined,
    };
  };
  const callTool = (name: string, args: Record<string, unknown>, token?: string) =>
    post("tools/call", { name, arguments: args }, token);
  return { mcp, calls, logged, post, callTool };
}

Deno.test("oauth over MCP: anonymous callers list every tool and call the public ones; guarded ones are challenged", async () => {
  await withOidcProvider(async (provider) => {
    const { mcp, calls, logged, post, callTool } = guardedMcp(provider);
    try {
      const listed = await post("tools/list", {});
      assert.equal(listed.status, 200, listed.text);
      const marks = Object.fromEntries(
        listed.message.result.tools.map((tool: { name: string; _meta?: unknown }) => [
          tool.name,
          tool._meta,
        ]),
      );
      assert.deepEqual(marks, {
        hello: undefined,
        me: { securitySchemes: [{ type: "oauth2", scopes: [] }] },
        "books.add": { securitySchemes: [{ type: "oauth2", scopes: ["books:write"] }] },
      });
      const hello = await callTool("hello", {});
      assert.equal(hello.status, 200);
      assert.equal(hello.message.result.content[0].text, "hi");

      const me = await callTool("me", {});
      assert.equal(me.status, 401);
      assert.equal(me.challenge, `Bearer resource_metadata="${METADATA}"`);
      assert.deepEqual(JSON.parse(me.text), {
        error: "invalid_token",
        error_description: "This operation needs a bearer token (Authorization: Bearer <token>)",
      });
      const add = await callTool("books.add", { title: "Emma" });
      assert.equal(add.status, 401);
      assert.equal(add.challenge, `Bearer resource_metadata="${METADATA}", scope="books:write"`);
      // A guarded leaf read as a resource is challenged as its tool is.
      const read = await post("resources/read", { uri: "ramify://me" });
      assert.equal(read.status, 401, read.text);
      assert.equal(calls.count, 0, "no handler ran");

      // Used without createFetch, the handler publishes the metadata its challenges name.
      const metadata = await mcp(new Request(METADATA));
      assert.equal(metadata.status, 200);
      assert.deepEqual(await metadata.json(), {
        resource: RESOURCE,
        authorization_servers: [provider.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["books:write"],
      });
      assert.deepEqual(logged, []);
    } finally {
      await mcp.close();
    }
  });
});

Deno.test("oauth over MCP: a token's identity reaches the tool; a scope short is a 403 step-up", async () => {
  await withOidcProvider(async (provider) => {
    const { mcp, calls, logged, post, callTool } = guardedMcp(provider);
    const reader = await provider.tokenFor(RESOURCE, "books:read");
    const writer = await provider.tokenFor(RESOURCE, "books:read books:write");
    const identity = (scope: string[]) => ({
      sub: OIDC_CLIENTS.app.id,
      client_id: OIDC_CLIENTS.app.id,
      scope,
    });
    try {
      // The scoped caller sees the same list, marks and all: one answer, cacheable for everyone.
      const anonymous = await post("tools/list", {});
      const scoped = await post("tools/list", {}, reader);
      assert.deepEqual(scoped.message.result, anonymous.message.result);

      const me = await callTool("me", {}, reader);
      assert.equal(me.status, 200, me.text);
      assert.deepEqual(JSON.parse(me.message.result.content[0].text), identity(["books:read"]));
      const read = await post("resources/read", { uri: "ramify://me" }, reader);
      assert.equal(read.status, 200, read.text);

      const before = calls.count;
      const short = await callTool("books.add", { title: "Emma" }, reader);
      assert.equal(short.status, 403);
      assert.equal(
        short.challenge,
        `Bearer error="insufficient_scope", resource_metadata="${METADATA}", scope="books:write"`,
      );
      assert.deepEqual(JSON.parse(short.text), {
        error: "insufficient_scope",
        error_description: "The token lacks the scope books:write",
      });
      assert.equal(calls.count, before, "no handler ran");
      const added = await callTool("books.add", { title: "Emma" }, writer);
      assert.equal(added.status, 200, added.text);
      assert.deepEqual(
        JSON.parse(added.message.result.content[0].text),
        identity(["books:read", "books:write"]),
      );
      assert.deepEqual(logged, []);
    } finally {
      await mcp.close();
    }
  });
});

Deno.test("oauth over MCP: every hostile token is a 401 invalid_token, whatever the request asks", async () => {
  await withOidcProvider(async (provider) => {
    const { mcp, calls, logged, post, callTool } = guardedMcp(provider);
    const { valid, ...bad } = await hostileTokens(provider, RESOURCE, { hugeBytes: 32 * 1024 });
    try {
      for (const [name, token] of Object.entries(bad)) {
        for (
          const answer of [
            await callTool("me", {}, token),
            // A token carried is verified even where none is needed.
            await callTool("hello", {}, token),
            await post("tools/list", {}, token),
          ]
        ) {
          assert.equal(answer.status, 401, `${name}: ${answer.text.slice(0, 200)}`);
          assert.match(
            answer.challenge ?? "",
            new RegExp(`^Bearer error="invalid_token", resource_metadata="${METADATA}"`),
            name,
          );
          assert.equal(JSON.parse(answer.text).error, "invalid_token");
          for (const part of token.split(".").filter((p) => p.length > 8)) {
            assert.ok(!answer.text.includes(part), `${name}: nothing of the token answered`);
            assert.ok(!answer.challenge?.includes(part), `${name}: nothing of it in the challenge`);
          }
        }
      }
      // A token in the query string is refused, even a valid one: a URL ends up in logs.
      const query = await post(
        "tools/call",
        { name: "me", arguments: {} },
        undefined,
        `${RESOURCE}?access_token=${valid}`,
      );
      assert.equal(query.status, 401);
      assert.match(query.challenge ?? "", /^Bearer error="invalid_request"/);
      assert.equal(calls.count, 0, "no handler ran");
      assert.deepEqual(logged, [], "nothing logged");
    } finally {
      await mcp.close();
    }
  });
});

Deno.test("oauth over MCP: a 2025-era session is its token's principal's, and claimed by the first", async () => {
  await withOidcProvider(async (provider) => {
    const { mcp } = guardedMcp(provider);
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const reader = await provider.tokenFor(RESOURCE, "books:read");
    const renewed = await provider.tokenFor(RESOURCE, "books:read books:write");
    const { exp, iat, ...claims } = decodeJwt(reader);
    const stranger = await provider.sign({ ...claims, sub: "someone-else", iat, exp });
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const status = async (token: string | undefined, session: string) => {
      const response = await send(base, as(token, session), list);
      await response.body?.cancel();
      return response.status;
    };
    try {
      const anonymous = await openSession(base, as(undefined));
      assert.equal(await status(reader, anonymous), 200, "claimed by the first token");
      assert.equal(await status(undefined, anonymous), 404, "then no one else's");
      assert.equal(await status(stranger, anonymous), 404, "another principal's token");
      assert.equal(await status(renewed, anonymous), 200, "a renewed token of the same principal");
      const owned = await openSession(base, as(reader));
      assert.equal(await status(renewed, owned), 200);
      assert.equal(await status(stranger, owned), 404);
      assert.equal(await status(undefined, owned), 404);
    } finally {
      await mcp.close();
      await server.shutdown();
    }
  });
});

Deno.test("oauth over MCP: an issuer whose keys cannot be had is a 503 with Retry-After", async () => {
  await withOidcProvider(async (provider) => {
    const { mcp, calls, callTool } = guardedMcp(provider);
    const token = await provider.tokenFor(RESOURCE, "books:read");
    provider.jwksDown();
    try {
      const down = await callTool("me", {}, token);
      assert.equal(down.status, 503, down.text);
      assert.equal(JSON.parse(down.text).error, "temporarily_unavailable");
      assert.ok(Number(down.retryAfter) >= 1, "Retry-After");
      assert.equal(calls.count, 0);
    } finally {
      await mcp.close();
    }
  });
});
