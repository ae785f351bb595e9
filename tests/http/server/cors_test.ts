// CORS covers every path createFetch serves, the OpenAPI document included, and
// the GraphQL-over-HTTP server takes the same option.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { cors, createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { withServer } from "../../support/server.ts";

const APP = "https://app.example";
const tree = api({ ping: op(() => "pong", http.get) });

Deno.test("CORS: /openapi.json carries the policy's headers and answers its preflight", async () => {
  const handler = createFetch(tree, { policies: [cors({ origin: APP, credentials: true })] });
  await withServer(handler, async (base) => {
    const document = await fetch(`${base}/openapi.json`, { headers: { origin: APP } });
    assert.equal(document.status, 200);
    assert.equal(document.headers.get("access-control-allow-origin"), APP);
    assert.equal(document.headers.get("access-control-allow-credentials"), "true");
    assert.match(document.headers.get("vary") ?? "", /origin/i);
    await document.body?.cancel();

    const other = await fetch(`${base}/openapi.json`, {
      headers: { origin: "https://evil.example" },
    });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    await other.body?.cancel();

    const preflight = await fetch(`${base}/openapi.json`, {
      method: "OPTIONS",
      headers: { origin: APP, "access-control-request-method": "GET" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), APP);
    assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /GET/);
    await preflight.body?.cancel();

    const options = await fetch(`${base}/openapi.json`, { method: "OPTIONS" });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get("allow"), "GET, HEAD, OPTIONS");
    await options.body?.cancel();
  });
});

Deno.test("CORS: createHttpGraphQLServer takes the same option", async () => {
  const graphql = createHttpGraphQLServer(
    api({ ping: op(() => "pong", { tags: { readOnly: true } }) }),
    { policies: [cors({ origin: APP })] },
  );
  await withServer(graphql, async (base) => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { origin: APP, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "{ ping }" }),
    });
    assert.deepEqual(await response.json(), { data: { ping: "pong" } });
    assert.equal(response.headers.get("access-control-allow-origin"), APP);

    const preflight = await fetch(`${base}/graphql`, {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), APP);
    assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
    await preflight.body?.cancel();

    const refused = await fetch(`${base}/graphql?query=%7Bping%7D`, {
      headers: { origin: "https://evil.example", accept: "application/json" },
    });
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    await refused.body?.cancel();
  });
});
