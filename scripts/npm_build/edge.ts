// The edge, proven for both ways a worker is built: the REST + GraphQL worker
// (tests/support/size_entries/rest_graphql.ts) served by workerd and called
// over the network: a GET with a capture, a 422 problem, a good POST, the
// OpenAPI document and a GraphQL answer (its transport loaded by that first
// GraphQL request). tests/edge/workerd_test.ts runs it on the source bundled
// by `deno bundle`; the npm build's proof on the packed package bundled by
// esbuild, as wrangler bundles it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { esbuildWorker, findWorkerd, serveWorker } from "../workerd.ts";
import { NPM_QUIET, ROOT, run, type Tally } from "./shared.ts";

/** The worker's module, then the modules it imports by relative path. */
export const EDGE_WORKER = [
  join(ROOT, "tests/support/size_entries/rest_graphql.ts"),
  join(ROOT, "tests/support/size_entries/rest_tree.ts"),
];

/** Serves `code` on workerd and calls every surface it holds; throws on the first wrong answer. */
export async function proveEdgeWorker(workerd: string, code: string): Promise<void> {
  // No package stays an import: workerd gets one self-contained module.
  assert.ok(!/\bfrom"[^".][^"]*"/.test(code), "the bundle imports a package");
  const { base, stop } = await serveWorker(workerd, code, "/openapi.json");
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
}

/**
 * The npm build at the edge: esbuild (installed into the consumer project
 * `dir`, where the tarball is) bundles the worker, workerd serves it. Counts
 * nothing when workerd cannot be installed, saying so.
 */
export async function edgeSuite(dir: string): Promise<Tally> {
  const workerd = await findWorkerd();
  if (workerd === undefined) {
    console.warn("edge: skipped, workerd is not on PATH and `npm install workerd` failed");
    return { passed: 0, failed: 0 };
  }
  await run("npm", ["install", ...NPM_QUIET, "--no-save", "esbuild@0", "zod"], { cwd: dir });
  try {
    await proveEdgeWorker(workerd, await esbuildWorker(dir, EDGE_WORKER));
    console.log(
      "ok - workerd serves the npm build bundled by esbuild: REST, 422, OpenAPI, GraphQL",
    );
    return { passed: 1, failed: 0 };
  } catch (error) {
    console.error(`not ok - the npm build at the edge: ${error}`);
    return { passed: 0, failed: 1 };
  }
}
