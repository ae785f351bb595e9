// oauth() against a real authorization server (tests/support/oidc_provider.ts) over REST: the
// identity a token names reaches the handler; no token, a bad one, one in the query string and one
// short of a scope are refused with RFC 6750's challenge and no handler run; the issuer's keys
// rotate and go down; opaque tokens are introspected; the RFC 9728 metadata is published where the
// challenges point; scopes add up along a leaf's path or come from the guard's defaults.
import assert from "node:assert/strict";
import { api, op, use } from "@ramify/api/tree";
import { catalogueOf } from "@ramify/api/tree/catalogue";
import { createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createHandler } from "@ramify/api/serve";
import { oauth, type OAuthOptions, type OAuthUser } from "@ramify/api/auth";
import { OIDC_CLIENTS, type OidcProvider, withOidcProvider } from "../support/oidc_provider.ts";
import { hostileTokens, OTHER_RESOURCE } from "../support/oidc_hostile.ts";

const RESOURCE = "https://api.test/api";
const METADATA = "https://api.test/.well-known/oauth-protected-resource/api";

/** A guarded tree whose handlers count their calls. */
function guarded(op_: OidcProvider, options: Partial<OAuthOptions> = {}) {
  const calls = { count: 0 };
  const guard = oauth({
    issuer: op_.issuer,
    audience: RESOURCE,
    cooldownMs: 50,
    scopes: ({ tags }) => tags.readOnly ? [] : ["books:write"],
    ...options,
  });
  const who = (user: OAuthUser) => {
    calls.count++;
    return { sub: user.sub, client_id: user.client_id, scope: user.scope };
  };
  const tree = api({
    me: op((_input, ctx) => who(ctx.user), use(guard), http.get, { tags: { readOnly: true } }),
    // Declares no scopes: the guard's default for a mutation (books:write).
    note: op((_input, ctx) => who(ctx.user), use(guard), http.post),
    books: api({
      add: op((_input, ctx) => who(ctx.user), use(guard), http.post),
      wipe: op((_input, ctx) => who(ctx.user), use(guard), http.delete, {
        scopes: ["catalog:admin"],
      }),
    }, { meta: { scopes: ["books:read"] } }),
  });
  return { tree, guard, calls, fetch: createFetch(tree) };
}

const call = (
  fetch: (request: Request) => Promise<Response>,
  path: string,
  method = "GET",
  token?: string,
) =>
  fetch(
    new Request(`https://api.test${path}`, {
      method,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    }),
  );

Deno.test("oauth: a token's identity reaches the handler; scopes add up along the path", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch, calls, tree } = guarded(provider);
    const token = await provider.tokenFor(RESOURCE, "books:read books:write");
    const me = await call(fetch, "/me", "GET", token);
    assert.equal(me.status, 200);
    assert.deepEqual(await me.json(), {
      sub: OIDC_CLIENTS.app.id,
      client_id: OIDC_CLIENTS.app.id,
      scope: ["books:read", "books:write"],
    });
    assert.equal((await call(fetch, "/books/add", "POST", token)).status, 200);
    assert.equal(calls.count, 2);
    // books/wipe needs its own scope and its subtree's.
    assert.deepEqual(catalogueOf(tree).entries.map((entry) => [entry.label, entry.scopes]), [
      ["me", undefined],
      ["note", undefined],
      ["books/add", ["books:read"]],
      ["books/wipe", ["books:read", "catalog:admin"]],
    ]);
    const wipe = await call(fetch, "/books/wipe", "DELETE", token);
    assert.equal(wipe.status, 403);
    assert.equal(
      wipe.headers.get("www-authenticate"),
      `Bearer error="insufficient_scope", resource_metadata="${METADATA}", scope="books:read catalog:admin"`,
    );
    const problem = await wipe.json();
    assert.equal(problem.detail, "The token lacks the scope catalog:admin");
    assert.deepEqual(problem.data, {
      error: "insufficient_scope",
      scope: "books:read catalog:admin",
    });
    assert.equal(calls.count, 2);
  });
});

Deno.test("oauth: no token is 401 with resource_metadata and the leaf's scope", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch, calls } = guarded(provider);
    const me = await call(fetch, "/me");
    assert.equal(me.status, 401);
    assert.equal(me.headers.get("www-authenticate"), `Bearer resource_metadata="${METADATA}"`);
    assert.equal(me.headers.get("content-type"), "application/problem+json");
    await me.body?.cancel();
    const add = await call(fetch, "/books/add", "POST");
    assert.equal(
      add.headers.get("www-authenticate"),
      `Bearer resource_metadata="${METADATA}", scope="books:read"`,
    );
    await add.body?.cancel();
    assert.equal(calls.count, 0);
  });
});

Deno.test("oauth: every hostile token is 401 invalid_token, no handler run, nothing of it answered", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch, calls } = guarded(provider);
    const tokens = await hostileTokens(provider, RESOURCE, { hugeBytes: 32 * 1024 });
    const { valid, ...hostile } = tokens;
    assert.equal((await call(fetch, "/me", "GET", valid)).status, 200);
    calls.count = 0;
    const errors: unknown[] = [];
    const logged = captureConsole(errors);
    try {
      for (const [name, token] of Object.entries(hostile)) {
        const response = await call(fetch, "/me", "GET", token);
        assert.equal(response.status, 401, name);
        assert.equal(
          response.headers.get("www-authenticate"),
          `Bearer error="invalid_token", resource_metadata="${METADATA}"`,
          name,
        );
        const body = await response.text();
        for (const part of token.split(".").filter((p) => p.length > 8)) {
          assert.ok(!body.includes(part), `${name}: the answer holds none of the token`);
        }
      }
    } finally {
      logged.restore();
    }
    assert.equal(calls.count, 0);
    assert.deepEqual(errors, [], "nothing logged");
  });
});

Deno.test("oauth: a token in the query string is refused, even a valid one", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch, calls } = guarded(provider);
    const token = await provider.tokenFor(RESOURCE, "books:read");
    const response = await call(fetch, `/me?access_token=${token}`, "GET", token);
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get("www-authenticate"),
      `Bearer error="invalid_request", resource_metadata="${METADATA}"`,
    );
    assert.ok(!(await response.text()).includes(token.split(".")[1]));
    assert.equal(calls.count, 0);
  });
});

Deno.test("oauth: rotated keys: the new one is fetched on its kid, the old refused once dropped", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch } = guarded(provider, { keysMaxAgeMs: 100 });
    const old = await provider.tokenFor(RESOURCE, "books:read");
    assert.equal((await call(fetch, "/me", "GET", old)).status, 200);
    const fetches = provider.jwksFetches();
    provider.rotateKeys();
    await delay(60); // past the cooldown
    const fresh = await provider.tokenFor(RESOURCE, "books:read");
    assert.equal((await call(fetch, "/me", "GET", fresh)).status, 200);
    assert.equal(provider.jwksFetches(), fetches + 1, "fetched again for the new kid");
    assert.equal((await call(fetch, "/me", "GET", old)).status, 200, "both listed");
    provider.dropOldKey();
    await delay(120); // past the key set's age
    assert.equal((await call(fetch, "/me", "GET", old)).status, 401);
    assert.equal((await call(fetch, "/me", "GET", fresh)).status, 200);
  });
});

Deno.test("oauth: a key set that is down is 503 with Retry-After, no handler run", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch, calls } = guarded(provider);
    const token = await provider.tokenFor(RESOURCE, "books:read");
    provider.jwksDown();
    const response = await call(fetch, "/me", "GET", token);
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "1");
    const body = await response.text();
    assert.ok(!body.includes(token.split(".")[1]));
    assert.equal(JSON.parse(body).code, "ISSUER_UNAVAILABLE");
    assert.equal(calls.count, 0);
    provider.jwksUp();
    assert.equal((await call(fetch, "/me", "GET", token)).status, 200);
  });
});

Deno.test("oauth: opaque tokens are introspected (and kept a while), refused without it", async () => {
  await withOidcProvider(async (provider) => {
    const introspection = {
      clientId: OIDC_CLIENTS.api.id,
      clientSecret: OIDC_CLIENTS.api.secret,
    };
    const { fetch } = guarded(provider, { introspection });
    const token = await provider.opaqueTokenFor(RESOURCE, "books:read books:write");
    const me = await call(fetch, "/me", "GET", token);
    assert.equal(me.status, 200);
    assert.deepEqual((await me.json()).scope, ["books:read", "books:write"]);
    assert.equal((await call(fetch, "/me", "GET", "not-a-token-it-issued")).status, 401);
    const elsewhere = await provider.opaqueTokenFor(OTHER_RESOURCE, "books:read");
    const refused = await call(fetch, "/me", "GET", elsewhere);
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).detail, "The bearer token was issued for another resource");
    const without = guarded(provider).fetch;
    assert.equal((await call(without, "/me", "GET", token)).status, 401);
  });
});

Deno.test("oauth: an introspected answer is kept for cacheTtlMs, then asked again", async () => {
  await withOidcProvider(async (provider) => {
    const introspection = {
      clientId: OIDC_CLIENTS.api.id,
      clientSecret: OIDC_CLIENTS.api.secret,
      cacheTtlMs: 300,
    };
    const { fetch } = guarded(provider, { introspection });
    const token = await provider.opaqueTokenFor(RESOURCE, "books:read");
    assert.equal((await call(fetch, "/me", "GET", token)).status, 200);
    assert.equal(await provider.revoke(token), 200);
    assert.equal((await call(fetch, "/me", "GET", token)).status, 200, "kept");
    await delay(350);
    assert.equal((await call(fetch, "/me", "GET", token)).status, 401, "asked again: revoked");
  });
});

Deno.test("oauth: verify reads a token that is no JWT, where there is no introspection", async () => {
  await withOidcProvider(async (provider) => {
    const verify = (token: string) =>
      token === "dev-token" ? { sub: "dev", scope: "books:read books:write" } : undefined;
    const { fetch } = guarded(provider, { verify });
    const me = await call(fetch, "/me", "GET", "dev-token");
    assert.deepEqual(await me.json(), {
      sub: "dev",
      scope: ["books:read", "books:write"],
    });
    assert.equal((await call(fetch, "/me", "GET", "other")).status, 401);
    // A JWT goes to jose alone: verify never vouches for one.
    const { foreignKey } = await hostileTokens(provider, RESOURCE);
    assert.equal((await call(fetch, "/me", "GET", foreignKey)).status, 401);
  });
});

Deno.test("oauth: serve()'s handler publishes the metadata too", async () => {
  await withOidcProvider(async (provider) => {
    const { tree } = guarded(provider);
    const handler = await createHandler(tree, { graphql: false, mcp: false, docs: false });
    const response = await handler.fetch(new Request(METADATA));
    assert.equal(response?.status, 200);
    assert.equal((await response?.json()).resource, RESOURCE);
    await handler.close();
  });
});

Deno.test("oauth: scopes must be scope tokens", () => {
  assert.throws(() => op(() => 1, { scopes: ["books write"] }), /meta.scopes must be a list/);
  assert.throws(() => api({}, { meta: { scopes: ['a"b'] } }), /meta.scopes must be a list/);
});

Deno.test("oauth: the RFC 9728 metadata is published where the challenges point", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch } = guarded(provider);
    for (
      const path of [
        "/.well-known/oauth-protected-resource/api",
        "/.well-known/oauth-protected-resource",
      ]
    ) {
      const response = await call(fetch, path);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: RESOURCE,
        authorization_servers: [provider.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["books:read", "books:write", "catalog:admin"],
      });
    }
  });
});

Deno.test("oauth: OpenAPI's security is what the server enforces", async () => {
  await withOidcProvider(async (provider) => {
    const { fetch } = guarded(provider);
    const document = await (await call(fetch, "/openapi.json")).json();
    assert.deepEqual(document.components.securitySchemes.oauth2, {
      type: "openIdConnect",
      openIdConnectUrl: `${provider.issuer}/.well-known/openid-configuration`,
    });
    let probed = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
      for (
        const [method, operation] of Object.entries(
          item as Record<string, { security?: Record<string, string[]>[] }>,
        )
      ) {
        const listed = operation.security?.[0]?.oauth2;
        assert.ok(listed !== undefined, `${method} ${path} lists its security`);
        // A token with every scope but one listed is refused for that one; with all, let through.
        for (const lacking of listed) {
          const scope = provider.scopes.filter((s) => s !== lacking).join(" ");
          const token = await provider.tokenFor(RESOURCE, scope);
          const refused = await call(fetch, path, method.toUpperCase(), token);
          assert.equal(refused.status, 403, `${method} ${path} without ${lacking}`);
          await refused.body?.cancel();
          probed++;
        }
        const all = await provider.tokenFor(RESOURCE, listed.join(" ") || "books:read");
        const ok = await call(fetch, path, method.toUpperCase(), all);
        assert.equal(ok.status, 200, `${method} ${path} with ${listed.join(" ")}`);
        await ok.body?.cancel();
      }
    }
    assert.equal(probed, 4);
  });
});

Deno.test("oauth: the identity is typed in the context", () => {
  const guard = oauth({ issuer: "https://login.example", audience: "https://api.example" });
  op((_input, ctx) => {
    const scopes: readonly string[] = ctx.user.scope;
    const sub: string | undefined = ctx.user.sub;
    // @ts-expect-error: sub may be missing
    const sure: string = ctx.user.sub;
    // @ts-expect-error: no such field
    ctx.user.roles;
    return [scopes, sub, sure];
  }, use(guard));
  assert.throws(() => oauth({ issuer: "https://l.example", audience: [] }), TypeError);
  assert.throws(
    () =>
      oauth({ issuer: "https://l.example", audience: "https://a.example", algorithms: ["HS256"] }),
    /not an asymmetric JWS algorithm/,
  );
  assert.throws(
    () =>
      oauth({ issuer: "https://l.example", audience: "https://a.example", algorithms: ["none"] }),
    TypeError,
  );
});

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Captures console.error and console.warn (what onError's default writes) into `into`. */
function captureConsole(into: unknown[]) {
  const { error, warn, log } = console;
  console.error = (...args: unknown[]) => into.push(args);
  console.warn = (...args: unknown[]) => into.push(args);
  console.log = (...args: unknown[]) => into.push(args);
  return {
    restore() {
      Object.assign(console, { error, warn, log });
    },
  };
}
