// The auth tests' authorization server (tests/support/oidc_provider.ts) is what it claims: a real
// oidc-provider that serves discovery, issues client-credentials JWTs for the resource asked
// (RFC 8707), rotates and drops keys, goes down on request, introspects and revokes opaque
// tokens; each hostile token is wrong in the one way it names; and the official MCP client's
// client-credentials flow (SEP-1046) completes against a resource server that answers as issue
// 45 asks (401 with resource_metadata, RFC 9728 metadata, 403 step-up), with a token for that
// resource. And Deno.serve itself refuses a 100 KiB token in a header: the auth tests expect it.
import assert from "node:assert/strict";
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  exportSPKI,
  importJWK,
  jwtVerify,
} from "jose";
import { OIDC_CLIENTS, withOidcProvider } from "../support/oidc_provider.ts";
import {
  hostileTokens,
  HUGE_TOKEN_BYTES,
  OTHER_ISSUER,
  OTHER_RESOURCE,
} from "../support/oidc_hostile.ts";
import { withMcpResource } from "../support/oidc_resource.ts";
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";

const API = "http://127.0.0.1:9/api";

/** A fresh view of the JWKS, fetched again on any unknown kid (jose waits 30 s by default). */
const keysOf = (jwksUri: string) => createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 0 });

Deno.test("oidc provider: discovery as OpenID Connect and RFC 8414, and a JWKS of public keys", async () => {
  await withOidcProvider(async (op) => {
    for (
      const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]
    ) {
      const response = await fetch(`${op.issuer}${path}`);
      assert.equal(response.status, 200, path);
      const metadata = await response.json();
      assert.equal(metadata.issuer, op.issuer);
      assert.equal(metadata.token_endpoint, op.tokenEndpoint);
      assert.equal(metadata.jwks_uri, op.jwksUri);
      assert.equal(metadata.introspection_endpoint, op.introspectionEndpoint);
      assert.equal(metadata.revocation_endpoint, op.revocationEndpoint);
      assert.ok(metadata.grant_types_supported.includes("client_credentials"));
      assert.ok(metadata.token_endpoint_auth_methods_supported.includes("client_secret_basic"));
    }
    const jwks = await (await fetch(op.jwksUri)).json();
    assert.deepEqual(jwks.keys.map((key: { kid: string }) => key.kid), ["key-1"]);
    assert.equal(jwks.keys[0].kty, "RSA");
    assert.equal(jwks.keys[0].d, undefined, "no private part");
    assert.equal(op.jwksFetches(), 1);
  });
});

Deno.test("oidc provider: a client-credentials token for resource R is a JWT for R with the scopes asked", async () => {
  await withOidcProvider(async (op) => {
    const token = await op.tokenFor(API, "books:write");
    assert.deepEqual(decodeProtectedHeader(token), { alg: "RS256", typ: "at+jwt", kid: "key-1" });
    const { payload } = await jwtVerify(token, keysOf(op.jwksUri), {
      issuer: op.issuer,
      audience: API,
      typ: "at+jwt",
    });
    assert.equal(payload.aud, API);
    assert.equal(payload.scope, "books:write");
    assert.equal(payload.client_id, OIDC_CLIENTS.app.id);
    assert.equal(payload.sub, OIDC_CLIENTS.app.id);
    assert.ok(payload.exp! > payload.iat!);
    assert.equal(
      decodeJwt(await op.tokenFor(API, "books:read catalog:admin")).scope,
      "books:read catalog:admin",
    );
    assert.equal(decodeJwt(await op.tokenFor(API)).scope, undefined);
    assert.equal(decodeJwt(await op.tokenFor(OTHER_RESOURCE, "books:read")).aud, OTHER_RESOURCE);
    // The provider drops a scope it does not know; tokenFor says so rather than hand on less.
    await assert.rejects(op.tokenFor(API, "books:delete"), /not granted: books:delete/);
    const wrongSecret = await op.tokenResponse(
      { grant_type: "client_credentials", resource: API },
      { id: OIDC_CLIENTS.app.id, secret: "wrong" },
    );
    assert.equal(wrongSecret.status, 401);
    assert.equal(wrongSecret.body.error, "invalid_client");
  }, { scopes: ["books:read", "books:write", "catalog:admin"] });
});

Deno.test("oidc provider: rotation publishes the new key beside the old, then drops the old", async () => {
  await withOidcProvider(async (op) => {
    const verify = (token: string, keys = keysOf(op.jwksUri)) =>
      jwtVerify(token, keys, { issuer: op.issuer, audience: API });
    const seenBefore = keysOf(op.jwksUri);
    const old = await op.tokenFor(API, "books:read");
    await verify(old, seenBefore);
    assert.equal(op.signingKid, "key-1");

    assert.equal(op.rotateKeys(), "key-2");
    assert.equal(op.signingKid, "key-2");
    assert.deepEqual(op.publishedKids(), ["key-1", "key-2"]);
    const rotated = await op.tokenFor(API, "books:read");
    assert.equal(decodeProtectedHeader(rotated).kid, "key-2");
    // A verifier that fetched the JWKS before the rotation finds the new key on its next fetch.
    const fetches = op.jwksFetches();
    await verify(rotated, seenBefore);
    assert.equal(op.jwksFetches(), fetches + 1);
    await verify(old);

    op.dropOldKey();
    assert.deepEqual(op.publishedKids(), ["key-2"]);
    await verify(rotated);
    await assert.rejects(verify(old), errors.JWKSNoMatchingKey);

    assert.equal(op.rotateKeys(), "key-3");
    assert.throws(() => op.rotateKeys(), /no key left/);
  });
});

Deno.test("oidc provider: the JWKS goes down and comes back; tokens are issued meanwhile", async () => {
  await withOidcProvider(async (op) => {
    op.jwksDown();
    const down = await fetch(op.jwksUri);
    assert.equal(down.status, 503);
    await down.body?.cancel();
    const token = await op.tokenFor(API, "books:read");
    await assert.rejects(jwtVerify(token, keysOf(op.jwksUri)), errors.JOSEError);
    op.jwksUp();
    await jwtVerify(token, keysOf(op.jwksUri), { issuer: op.issuer, audience: API });
    assert.equal(op.jwksFetches(), 3);
  });
});

Deno.test("oidc provider: introspection answers active for an opaque token, inactive once revoked", async () => {
  await withOidcProvider(async (op) => {
    const token = await op.opaqueTokenFor(API, "books:write");
    assert.equal(token.split(".").length, 1, "not a JWT");
    const active = await op.introspect(token);
    assert.equal(active.active, true);
    assert.equal(active.aud, API);
    assert.equal(active.scope, "books:write");
    assert.equal(active.client_id, OIDC_CLIENTS.opaque.id);
    assert.equal(active.iss, op.issuer);
    assert.equal(active.token_type, "Bearer");
    // Only the resource server (or the token's own client) may read a token's introspection.
    assert.deepEqual(await op.introspect(token, OIDC_CLIENTS.app), { active: false });
    assert.deepEqual(await op.introspect("not-a-token"), { active: false });
    assert.equal(await op.revoke(token), 200);
    assert.deepEqual(await op.introspect(token), { active: false });
    // A JWT access token is for local verification: the provider refuses to introspect one.
    const jwt = await op.introspect(await op.tokenFor(API, "books:read"));
    assert.equal(jwt.error, "unsupported_token_type");
  });
});

Deno.test("oidc provider: each hostile token is wrong in exactly the way it names", async () => {
  await withOidcProvider(async (op) => {
    const keys = keysOf(op.jwksUri);
    const expect = { issuer: op.issuer, audience: API };
    const t = await hostileTokens(op, API, { scope: "books:write" });
    const claims = (token: string) => decodeJwt(token);
    const good = claims(t.valid);
    assert.equal(good.scope, "books:write");
    await jwtVerify(t.valid, keys, expect);

    assert.equal(decodeProtectedHeader(t.algNone).alg, "none");
    assert.ok(t.algNone.endsWith("."), "no signature");
    assert.equal(claims(t.algNone).aud, API);
    await assert.rejects(jwtVerify(t.algNone, keys, expect));

    assert.equal(decodeProtectedHeader(t.foreignKey).kid, op.signingKid);
    await assert.rejects(
      jwtVerify(t.foreignKey, keys, expect),
      errors.JWSSignatureVerificationFailed,
    );
    assert.ok(!op.publishedKids().includes(decodeProtectedHeader(t.unknownKid).kid!));
    await assert.rejects(jwtVerify(t.unknownKid, keys, expect), errors.JWKSNoMatchingKey);

    assert.equal(decodeProtectedHeader(t.symmetric).alg, "HS256");
    // A real HMAC, keyed with the issuer's public key as a confused verifier would key it.
    const pem = await exportSPKI(await importJWK(await op.publicJwk(), "RS256") as CryptoKey);
    await jwtVerify(t.symmetric, new TextEncoder().encode(pem), expect);
    await assert.rejects(jwtVerify(t.symmetric, keys, expect));

    // Signed by the issuer's own key: only the claim each names is wrong.
    assert.equal(claims(t.wrongIssuer).iss, OTHER_ISSUER);
    await jwtVerify(t.wrongIssuer, keys, { audience: API });
    await assert.rejects(jwtVerify(t.wrongIssuer, keys, expect), /"iss" claim/);

    assert.equal(claims(t.wrongAudience).aud, OTHER_RESOURCE);
    await jwtVerify(t.wrongAudience, keys, { issuer: op.issuer });
    await assert.rejects(jwtVerify(t.wrongAudience, keys, expect), /"aud" claim/);

    assert.ok(claims(t.expired).exp! < Date.now() / 1000);
    await assert.rejects(jwtVerify(t.expired, keys, expect), errors.JWTExpired);

    assert.ok(claims(t.notYetValid).nbf! > Date.now() / 1000);
    await assert.rejects(jwtVerify(t.notYetValid, keys, expect), /"nbf" claim/);

    assert.ok(t.huge.length > HUGE_TOKEN_BYTES);
    const smaller = (await hostileTokens(op, API, { hugeBytes: 32 * 1024 })).huge.length;
    assert.ok(smaller > 32 * 1024 && smaller < 34 * 1024, String(smaller));
    const { payload } = await jwtVerify(t.huge, keys, expect);
    assert.equal(payload.scope, "books:write");
    const names = Object.keys(t);
    assert.equal(new Set(Object.values(t)).size, names.length, "all distinct");
  });
});

Deno.test("oidc provider: the official MCP client gets a token for the resource and calls", async () => {
  await withOidcProvider(async (op) => {
    await withMcpResource(op, async (resource) => {
      const authProvider = new ClientCredentialsProvider({
        clientId: OIDC_CLIENTS.app.id,
        clientSecret: OIDC_CLIENTS.app.secret,
        expectedIssuer: op.issuer,
      });
      const client = new Client({ name: "oidc-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(resource.url), { authProvider }),
      );
      try {
        const result = await client.callTool({ name: "whoami", arguments: {} });
        const identity = JSON.parse((result.content as { text: string }[])[0].text);
        assert.deepEqual(identity, {
          clientId: OIDC_CLIENTS.app.id,
          scopes: ["books:read"],
          audience: resource.url,
        });
        // Step-up: refused for want of catalog:admin, the client asks for the union and retries.
        const stepped = await client.callTool({ name: "reindex", arguments: {} });
        const admin = JSON.parse((stepped.content as { text: string }[])[0].text);
        assert.deepEqual(admin.scopes.toSorted(), ["books:read", "catalog:admin"]);
        assert.equal(admin.audience, resource.url);
      } finally {
        await client.close();
      }
      // The flow: refused without a token (401 naming the metadata), the metadata read, then
      // every request with a token the provider issued for this resource; one 403 for the step-up.
      assert.equal(resource.log[0], "POST /mcp 401");
      assert.ok(resource.log.includes("GET /.well-known/oauth-protected-resource/mcp 200"));
      assert.ok(
        resource.log.slice(2).every((line) => !line.endsWith(" 401")),
        resource.log.join("\n"),
      );
      assert.equal(resource.log.filter((line) => line.endsWith(" 403")).length, 1);
      const last = decodeJwt(authProvider.tokens()!.access_token);
      assert.equal(last.aud, resource.url);
      assert.deepEqual(String(last.scope).split(" ").toSorted(), ["books:read", "catalog:admin"]);
    });
  });
});

Deno.test("oidc provider: Deno.serve refuses the 100 KiB token itself, before any handler", async () => {
  await withOidcProvider(async (op) => {
    await withMcpResource(op, async (resource) => {
      const { huge } = await hostileTokens(op, resource.url, { scope: "books:read" });
      const post = (token: string) =>
        fetch(resource.url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      const refused = await post(huge);
      // A bare 400 from Deno's HTTP server (its request head holds about 64 KiB): no challenge.
      assert.equal(refused.status, 400);
      assert.equal(refused.headers.get("www-authenticate"), null);
      await refused.body?.cancel();
      assert.deepEqual(resource.log, []);
      // One that fits reaches the resource, which sees a valid token (not JSON-RPC, so 4xx).
      const { huge: fits } = await hostileTokens(op, resource.url, {
        scope: "books:read",
        hugeBytes: 32 * 1024,
      });
      const reached = await post(fits);
      await reached.body?.cancel();
      assert.equal(resource.log.length, 1);
      assert.notEqual(reached.status, 401);
    });
  });
});
