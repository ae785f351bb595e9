// Workers bundled as a Cloudflare Workers user builds them from npm: the npm
// build of `@ramify/api` (`deno task build:npm`, made here when missing) packed
// and installed with zod, graphql, Hono and esbuild in a throw-away project,
// each worker bundled by esbuild (wrangler's bundler, which honours the
// package's `"sideEffects": false`, so unused re-exports add nothing).
import { join } from "node:path";
import { esbuildWorker } from "../../scripts/workerd.ts";
import { ESM, NPM_QUIET, OUT, rangeOf, ROOT, run } from "../../scripts/npm_build/shared.ts";
import { readConfig } from "../../scripts/npm_build/build.ts";

/**
 * Bundles each worker module (name to path; its relative imports are copied
 * beside it) with esbuild against the packed npm build: minified ESM for the
 * browser platform, every package inside. Returns name to code.
 */
export async function bundleFromNpm(
  workers: Record<string, readonly string[]>,
): Promise<Record<string, string>> {
  if (!await Deno.stat(ESM).then(() => true, () => false)) {
    await run(Deno.execPath(), ["run", "-A", join(ROOT, "scripts/build_npm.ts")]);
  }
  const config = await readConfig();
  const project = await Deno.makeTempDir({ prefix: "ramify-edge-npm-" });
  try {
    const packed = await run("npm", ["pack", "--json", "--pack-destination", project, OUT], {
      capture: true,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
    await Deno.writeTextFile(
      join(project, "package.json"),
      '{ "private": true, "type": "module" }',
    );
    const ranged = ["zod", "graphql", "hono"].map((name) => `${name}@${rangeOf(config, name)}`);
    await run("npm", ["install", ...NPM_QUIET, join(project, filename), ...ranged, "esbuild@0"], {
      cwd: project,
    });
    const code: Record<string, string> = {};
    for (const [name, files] of Object.entries(workers)) {
      code[name] = await esbuildWorker(project, files);
    }
    return code;
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}
