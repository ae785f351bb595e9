// Runs at the edge, proven: the REST + GraphQL worker (tests/support/size_entries/
// rest_graphql.ts), bundled for the browser platform with zod and graphql inside,
// served by Cloudflare's workerd (the npm package ships the runtime) and called
// over the network: a GET with a capture, a 422 problem, the OpenAPI document
// and a GraphQL answer. workerd comes from PATH, or is installed from npm once
// into a temporary folder shared by later runs.
import assert from "node:assert/strict";
import { bundle } from "../support/bundle.ts";
import { findWorkerd, serveWorker } from "../support/workerd.ts";

const WORKER = new URL("../support/size_entries/rest_graphql.ts", import.meta.url).pathname;
const workerd = await findWorkerd();
if (workerd === undefined) {
  console.warn("workerd test skipped: workerd is not on PATH and `npm install workerd` failed");
}

Deno.test({
  name: "edge: the REST + GraphQL worker runs on workerd, called over the network",
  ignore: workerd === undefined,
  async fn() {
    const code = await bundle(WORKER);
    // No package stays an import: workerd gets one self-contained module.
    assert.ok(!/\bfrom"[^".][^"]*"/.test(code), "the bundle imports a package");
    const { base, stop } = await serveWorker(workerd!, code, "/openapi.json");
    try {
      const read = await fetch(`${base}/items/abc`);
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), { id: "abc" });

      const bad = await fetch(`${base}/items/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
      assert.equal(bad.status, 422);
      assert.equal(bad.headers.get("content-type"), "application/problem+json");
      const problem = await bad.json();
      assert.equal(problem.status, 422);
      assert.deepEqual(problem.issues[0].path, ["name"]);

      const good = await fetch(`${base}/items/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      assert.deepEqual(await good.json(), { name: "x", added: true });

      const document = await fetch(`${base}/openapi.json`);
      assert.equal(document.status, 200);
      const openapi = await document.json();
      assert.equal(openapi.openapi, "3.1.0");
      assert.deepEqual(Object.keys(openapi.paths).sort(), ["/items/add", "/items/{id}"]);
      assert.ok(openapi.paths["/items/add"].post.requestBody, "the POST's body is described");

      const graphql = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query: '{ items { read(id: "abc") } }' }),
      });
      assert.equal(graphql.status, 200);
      assert.deepEqual(await graphql.json(), { data: { items: { read: { id: "abc" } } } });
    } finally {
      const log = await stop();
      assert.ok(!/uncaught|error/i.test(log), `workerd logged:\n${log}`);
    }
  },
});
