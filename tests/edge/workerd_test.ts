// Runs at the edge, proven: the REST + GraphQL worker (tests/support/size_entries/
// rest_graphql.ts), bundled for the browser platform with zod and graphql inside,
// served by Cloudflare's workerd (the npm package ships the runtime) and called
// over the network (scripts/npm_build/edge.ts: a GET with a capture, a 422
// problem, the OpenAPI document and a GraphQL answer). The npm build's proof
// runs the same calls on the packed package bundled by esbuild. workerd comes
// from PATH, or is installed from npm once into a temporary folder shared by
// later runs.
import { bundle } from "../support/bundle.ts";
import { findWorkerd } from "../../scripts/workerd.ts";
import { EDGE_WORKER, proveEdgeWorker } from "../../scripts/npm_build/edge.ts";

const workerd = await findWorkerd();
if (workerd === undefined) {
  console.warn("workerd test skipped: workerd is not on PATH and `npm install workerd` failed");
}

Deno.test({
  name: "edge: the REST + GraphQL worker runs on workerd, called over the network",
  ignore: workerd === undefined,
  async fn() {
    await proveEdgeWorker(workerd!, await bundle(EDGE_WORKER[0]));
  },
});
