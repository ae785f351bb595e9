// The edge, ramify against Hono: each worker bundled as a user would (`deno
// bundle --platform browser --minify`): the framework's and the app's code (zod
// and graphql left out) and the whole bundle, gzipped too; then cold starts on
// workerd (spawn to the first 200 of `/items/abc`), interleaved, medians.
//   deno run -A bench/start/edge.ts [rounds=7]
import { bundle } from "../../tests/support/bundle.ts";
import { findWorkerd, serveWorker } from "../../tests/support/workerd.ts";
import { median, ms } from "./_runs.ts";

const rounds = Number(Deno.args[0] ?? 7);
const entries = {
  "empty worker": new URL("./_empty_worker.ts", import.meta.url).pathname,
  "hono REST": new URL("./_hono_worker.ts", import.meta.url).pathname,
  "ramify REST": new URL("../../tests/support/size_entries/rest.ts", import.meta.url).pathname,
  "ramify REST + GraphQL": new URL(
    "../../tests/support/size_entries/rest_graphql.ts",
    import.meta.url,
  ).pathname,
};

async function gzipped(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const whole: Record<string, string> = {};
console.log("Bundles (minified; gzip):");
for (const [name, entry] of Object.entries(entries)) {
  const own = await bundle(entry, ["zod", "graphql"]);
  whole[name] = await bundle(entry);
  console.log(
    `  ${name.padEnd(22)} framework + app ${kb(own.length)} (${kb(await gzipped(own))}), ` +
      `whole ${kb(whole[name].length)} (${kb(await gzipped(whole[name]))})`,
  );
}

const workerd = await findWorkerd();
if (workerd === undefined) throw new Error("workerd is not installed and npm cannot install it");
const starts: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++) {
  const names = Object.keys(entries);
  for (const name of round % 2 === 0 ? names : names.reverse()) {
    const worker = await serveWorker(workerd, whole[name], "/items/abc");
    (starts[name] ??= []).push(worker.startedInMs);
    await worker.stop();
  }
}
console.log(`\nCold start on workerd (spawn to first answer), median of ${rounds}:`);
const hono = median(starts["hono REST"]);
for (const [name, samples] of Object.entries(starts)) {
  console.log(
    `  ${name.padEnd(22)} ${ms(median(samples))} (${(median(samples) / hono).toFixed(2)}x Hono)`,
  );
}
