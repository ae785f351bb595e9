// Workers bundled as a Cloudflare Workers user builds them from npm: the npm
// build of `@ramify/api` (`deno task build:npm`, made here when missing) packed
// and installed with zod, graphql, Hono and esbuild in a throw-away project,
// each worker bundled by esbuild (wrangler's bundler, which honours the
// package's `"sideEffects": false`, so unused re-exports add nothing).
import { join } from "node:path";
import { esbuildWorker } from "../../scripts/workerd.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const NPM_BUILD = join(ROOT, "npm");

async function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await new Deno.Command(command, {
    args: [...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder();
  if (!result.success) {
    throw new Error(`${command} ${args.join(" ")}: ${text.decode(result.stderr)}`);
  }
  return text.decode(result.stdout);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The npm range the import map gives `name` (`npm:zod@^4.1.0` gives `^4.1.0`). */
async function rangeOf(name: string): Promise<string> {
  const map = JSON.parse(await Deno.readTextFile(join(ROOT, "import_map.json")));
  return (map.imports[name] as string).slice(`npm:${name}@`.length);
}

/**
 * Bundles each worker module (name to path; its relative imports are copied
 * beside it) with esbuild against the packed npm build: minified ESM for the
 * browser platform, every package inside. Returns name to code.
 */
export async function bundleFromNpm(
  workers: Record<string, readonly string[]>,
): Promise<Record<string, string>> {
  if (!await exists(join(NPM_BUILD, "esm"))) {
    await run(Deno.execPath(), ["run", "-A", join(ROOT, "scripts/build_npm.ts")], ROOT);
  }
  const project = await Deno.makeTempDir({ prefix: "ramify-edge-npm-" });
  try {
    const tarball =
      (await run("npm", ["pack", "--silent", "--pack-destination", project], NPM_BUILD))
        .trim().split("\n").at(-1)!;
    await Deno.writeTextFile(
      join(project, "package.json"),
      '{ "private": true, "type": "module" }',
    );
    await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      join(project, tarball),
      `zod@${await rangeOf("zod")}`,
      `graphql@${await rangeOf("graphql")}`,
      `hono@${await rangeOf("hono")}`,
      "esbuild@0",
    ], project);
    const code: Record<string, string> = {};
    for (const [name, files] of Object.entries(workers)) {
      code[name] = await esbuildWorker(project, files);
    }
    return code;
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}
