// The cost of building the OpenAPI document (projection included) for trees of
// 100, 1,000 and 10,000 leaves. Growth should be close to linear: compare the
// per-leaf figures in BENCHMARKS.md.
import { httpProjection } from "@ramify/api/http/dx";
import { toOpenApiFromRoute } from "@ramify/api/http";
import { generatedTree } from "../tests/support/generated_tree.ts";

for (const leaves of [100, 1_000, 10_000]) {
  const tree = generatedTree(leaves);
  // Each iteration projects anew: a fresh route is never in the document cache.
  Deno.bench({
    name: `toOpenApi, ${leaves} leaves`,
    group: "openapi",
    baseline: leaves === 100,
    n: leaves === 10_000 ? 20 : undefined,
    async fn() {
      await toOpenApiFromRoute(httpProjection(tree), { title: "Bench", version: "1.0.0" });
    },
  });
}
