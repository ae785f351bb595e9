// The edge, ramify against Hono, each worker bundled two ways a user would:
// from source with `deno bundle --platform browser --minify` (a Deno or JSR
// user), and from the npm build with esbuild (a Cloudflare Workers user:
// wrangler bundles with esbuild, honouring `"sideEffects": false`). First the
// framework's and the app's code (zod and graphql left out) and the whole
// bundle, gzipped too; then cold starts on workerd (spawn to the first 200 of
// `/items/abc`), every worker interleaved, medians, ratios to Hono bundled the
// same way.
//   deno run -A bench/start/edge.ts [rounds=7]
import { bundle } from "../../tests/support/bundle.ts";
import { findWorkerd, serveWorker } from "../../scripts/workerd.ts";
import { bundleFromNpm } from "./_npm_bundle.ts";
import { median, ms } from "./_runs.ts";

const rounds = Number(Deno.args[0] ?? 7);
const at = (path: string) => new URL(path, import.meta.url).pathname;
const TREE = at("../../tests/support/size_entries/rest_tree.ts");
/** Each worker: its module, then the modules it imports by relative path. */
const workers: Record<string, readonly string[]> = {
  "empty worker": [at("./_empty_worker.ts")],
  "hono REST": [at("./_hono_worker.ts")],
  "ramify REST": [at("../../tests/support/size_entries/rest.ts"), TREE],
  "ramify REST + GraphQL": [at("../../tests/support/size_entries/rest_graphql.ts"), TREE],
};

async function gzipped(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const whole: Record<string, string> = {};
console.log("Bundles from source (deno bundle, minified; gzip):");
for (const [name, [entry]] of Object.entries(workers)) {
  const own = await bundle(entry, ["zod", "graphql"]);
  whole[name] = await bundle(entry);
  console.log(
    `  ${name.padEnd(22)} framework + app ${kb(own.length)} (${kb(await gzipped(own))}), ` +
      `whole ${kb(whole[name].length)} (${kb(await gzipped(whole[name]))})`,
  );
}
console.log("Bundles from npm (esbuild, minified; gzip):");
for (const [name, code] of Object.entries(await bundleFromNpm(workers))) {
  whole[`${name}, npm`] = code;
  console.log(`  ${name.padEnd(22)} whole ${kb(code.length)} (${kb(await gzipped(code))})`);
}

const workerd = await findWorkerd();
if (workerd === undefined) throw new Error("workerd is not installed and npm cannot install it");
const starts: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++) {
  const names = Object.keys(whole);
  for (const name of round % 2 === 0 ? names : names.reverse()) {
    const worker = await serveWorker(workerd, whole[name], "/items/abc");
    (starts[name] ??= []).push(worker.startedInMs);
    await worker.stop();
  }
}
console.log(`\nCold start on workerd (spawn to first answer), median of ${rounds}:`);
for (const [name, samples] of Object.entries(starts)) {
  const hono = median(starts[name.endsWith(", npm") ? "hono REST, npm" : "hono REST"]);
  console.log(
    `  ${name.padEnd(27)} ${ms(median(samples))} (${(median(samples) / hono).toFixed(2)}x Hono)`,
  );
}
