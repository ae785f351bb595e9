// The example with AUTH_ISSUER (issue 45): `deno task server` started as a process accepts the
// real provider's JWTs for its own URL instead of the dev token. The official MCP client
// (ClientCredentialsProvider) starts without a token, lists and reads anonymously, and at its
// first mutation completes the OAuth flow from the 401 (the metadata, a token asked for with
// `resource`, the call again); a client holding a token short of books:write steps up on the 403.
// REST agrees, and over stdio the process presents BOOKSTORE_TOKEN: a refusal is the tool's error.
import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { childEnv } from "../support/child_env.ts";
import { OIDC_CLIENTS, type OidcProvider, withOidcProvider } from "../support/oidc_provider.ts";
import { withInstances } from "../support/instances.ts";

const BOOK = { title: "Emma", author: "Jane Austen" };

/** A client of the example's MCP endpoint whose every request (token ones too) is logged. */
function oauthClient(provider: OidcProvider, url: string, log: string[], era: Era) {
  const authProvider = new ClientCredentialsProvider({
    clientId: OIDC_CLIENTS.app.id,
    clientSecret: OIDC_CLIENTS.app.secret,
    expectedIssuer: provider.issuer,
  });
  const logged: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const target = new URL(input instanceof Request ? input.url : input);
    const where = target.origin === provider.issuer ? `issuer ${target.pathname}` : target.pathname;
    log.push(`${init?.method ?? "GET"} ${where} ${response.status}`);
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    authProvider,
    fetch: logged,
  });
  const client = new Client(
    { name: "oauth", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  return { authProvider, transport, client };
}

/** The client's default (2025-era sessions, which a token's principal claims) or 2026-07-28. */
type Era = "legacy" | "modern";

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;

/**
 * One client starts anonymously and authorizes at its first mutation (the 401 flow); another,
 * holding a token short of books:write, steps up on the 403.
 */
async function flow(provider: OidcProvider, url: string, era: Era) {
  const log: string[] = [];
  const first = oauthClient(provider, url, log, era);
  await first.client.connect(first.transport);
  try {
    const { tools } = await first.client.listTools();
    const add = tools.find((tool) => tool.name === "books.add");
    assert.deepEqual(add?._meta, {
      securitySchemes: [{ type: "oauth2", scopes: ["books:write"] }],
    });
    assert.equal(tools.find((tool) => tool.name === "books.list")?._meta, undefined);
    const listed = await first.client.callTool({ name: "books.list", arguments: {} });
    assert.ok(JSON.parse(text(listed)).length >= 2, "reads stay public");
    assert.equal(first.authProvider.tokens(), undefined, "no token yet");
    assert.ok(log.every((line) => !/ 40[13]$/.test(line)), log.join("\n"));

    const added = await first.client.callTool({ name: "books.add", arguments: BOOK });
    assert.equal(added.isError, undefined, text(added));
    assert.equal(JSON.parse(text(added)).title, "Emma");
    const flow = log.slice(log.indexOf("POST /mcp 401"));
    assert.deepEqual(flow, [
      "POST /mcp 401",
      "GET /.well-known/oauth-protected-resource 200",
      "GET issuer /.well-known/oauth-authorization-server 200",
      "POST issuer /token 200",
      "POST /mcp 200",
    ]);
    const token = decodeJwt(first.authProvider.tokens()!.access_token);
    assert.equal(token.aud, url, "asked for with resource = the metadata's resource");
    assert.equal(token.scope, "books:write", "the scope the challenge named");
  } finally {
    await first.client.close();
  }

  // A client holding a token short of books:write: 403, step-up to the union, the call again.
  log.length = 0;
  const second = oauthClient(provider, url, log, era);
  second.authProvider.saveTokens({
    access_token: await provider.tokenFor(url, "books:read"),
    token_type: "Bearer",
    scope: "books:read",
  });
  await second.client.connect(second.transport);
  try {
    const added = await second.client.callTool({ name: "books.add", arguments: BOOK });
    assert.equal(added.isError, undefined, text(added));
    const flow = log.slice(log.indexOf("POST /mcp 403"));
    assert.equal(flow[0], "POST /mcp 403", log.join("\n"));
    assert.ok(flow.includes("POST issuer /token 200"), flow.join("\n"));
    assert.equal(flow.at(-1), "POST /mcp 200");
    const stepped = decodeJwt(second.authProvider.tokens()!.access_token);
    assert.deepEqual(String(stepped.scope).split(" ").toSorted(), [
      "books:read",
      "books:write",
    ]);
  } finally {
    await second.client.close();
  }
}

Deno.test("example with AUTH_ISSUER: the official MCP client completes its OAuth flow and steps up", async () => {
  await withOidcProvider(async (provider) => {
    await withInstances({ count: 1, env: { AUTH_ISSUER: provider.issuer } }, async ([server]) => {
      // The default audience is the server's own URL, as it names itself.
      const url = `http://localhost:${server.port}`;
      for (const era of ["legacy", "modern"] as const) await flow(provider, url, era);

      // REST: the same guard, the same challenge and metadata.
      const anonymous = await fetch(`${url}/books/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(BOOK),
      });
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      assert.equal(
        anonymous.headers.get("www-authenticate"),
        `Bearer resource_metadata="${url}/.well-known/oauth-protected-resource", scope="books:write"`,
      );
      const dev = await fetch(`${url}/books/add`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: "Bearer bookstore-dev-token",
        },
        body: JSON.stringify(BOOK),
      });
      await dev.body?.cancel();
      assert.equal(dev.status, 401, "the dev token is no token of the issuer");
      const metadata = await (await fetch(`${url}/.well-known/oauth-protected-resource`)).json();
      assert.deepEqual(metadata, {
        resource: url,
        authorization_servers: [provider.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["books:write", "catalog:admin"],
      });
    });
  });
});

Deno.test("example with AUTH_ISSUER over stdio: the process presents BOOKSTORE_TOKEN", async () => {
  await withOidcProvider(async (provider) => {
    const audience = "http://localhost:8000";
    const connect = async (token: string) => {
      const client = new Client({ name: "stdio", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: [
            "run",
            "--quiet",
            "--allow-env",
            "--allow-net=127.0.0.1",
            new URL("../../examples/bookstore.ts", import.meta.url).pathname,
            "--mcp-stdio",
          ],
          env: childEnv({
            AUTH_ISSUER: provider.issuer,
            AUTH_AUDIENCE: audience,
            BOOKSTORE_TOKEN: token,
          }),
        }),
      );
      return client;
    };
    const reader = await connect(await provider.tokenFor(audience, "books:read"));
    const writer = await connect(await provider.tokenFor(audience, "books:write"));
    try {
      const refused = await reader.callTool({ name: "books.add", arguments: BOOK });
      assert.equal(refused.isError, true);
      assert.equal(
        text(refused),
        '403 Forbidden: The token lacks the scope books:write\n{"error":"insufficient_scope","scope":"books:write"}',
      );
      const listed = await reader.callTool({ name: "books.list", arguments: {} });
      assert.equal(listed.isError, undefined, "reads stay public");
      const added = await writer.callTool({ name: "books.add", arguments: BOOK });
      assert.equal(added.isError, undefined, text(added));
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
