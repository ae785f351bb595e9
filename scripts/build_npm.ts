/**
 * Builds the npm package of `@ramify/api` into `npm/` from the same sources as
 * JSR, then proves it: `deno task build:npm` (`deno run -A scripts/build_npm.ts`).
 *
 * 1. Cleans `npm/` and copies the library sources (`mod.ts`, `tree/`, `http/`,
 *    `graphql/`) to `npm/src/`, so the source maps shipped point at real files.
 * 2. Finds the npm packages the sources import (bare specifiers, mapped to
 *    `npm:` ranges in `deno.json`), writes `npm/package.json` and installs
 *    them there (with the `graphql` peer) so the compiler sees their types.
 * 3. Compiles with the TypeScript compiler API (`NodeNext`, ES2022, DOM libs,
 *    no Deno types: any use of the Deno namespace fails the build) to ESM
 *    `.js` + `.d.ts` + source maps in `npm/esm/`, `./x.ts` imports rewritten to
 *    `./x.js`.
 * 4. Writes the final `package.json`: `exports` mirrors `deno.json`'s, with
 *    `types`; `dependencies` are the packages the emitted JS and `.d.ts`
 *    import, with `deno.json`'s ranges; `graphql` is a peer. Copies README and
 *    LICENSE.
 * 5. Checks the package with publint and `@arethetypeswrong/cli`.
 * 6. Packs it and installs the tarball in a throw-away consumer project, once
 *    with graphql 16 and once with graphql 17, and runs the cross-runtime suite
 *    of `scripts/npm_test/` there: a type check of a consumer module against
 *    the shipped `.d.ts`, Node's test runner, and Bun (`npx bun@1`), the
 *    README's programs among them, with nothing on standard error.
 * 7. Bundles the REST + GraphQL worker from the installed tarball with esbuild
 *    (as wrangler does) and serves it with workerd: REST, a 422, OpenAPI, GraphQL.
 * 8. Starts three Bun instances of the installed package behind HAProxy with
 *    docs/deploy.md's config: every one UP by its health check, each answering.
 * 9. Installs the tarball with the README's npm line alone (no optional
 *    peer) and runs the README's `serve()` program under Node and Bun: each
 *    surface missing its package is left out, saying what to install.
 *
 * Exits non-zero on any failure; its last line is `cross-runtime: N passed, N failed`.
 * Set `RAMIFY_NPM_KEEP=1` to keep the consumer project for a look afterwards.
 *
 * @module
 */

import ts from "typescript";
import { join, relative } from "node:path";
import {
  BuildError,
  fail,
  GRAPHQL_VERSIONS,
  ko,
  NPM_QUIET,
  ok,
  OUT,
  PEERS,
  rangeOf,
  ROOT,
  run,
  SRC,
  step,
  type Tally,
  writeJson,
} from "./npm_build/shared.ts";
import {
  attw,
  compile,
  copySources,
  dependenciesOfOutput,
  packageJson,
  packagesImportedBy,
  publint,
  readConfig,
} from "./npm_build/build.ts";
import {
  bareSuite,
  bunBinary,
  bunSuite,
  installConsumer,
  makeConsumer,
  nodeSuite,
  nodeVersion,
  typeCheckConsumer,
} from "./npm_build/prove.ts";
import { edgeSuite } from "./npm_build/edge.ts";
import { bunBehindHaproxy } from "./npm_build/balancer.ts";

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const config = await readConfig();

  step(`copying the library sources to ${relative(ROOT, SRC)}/`);
  const sources = await copySources();
  for (const [subpath, target] of Object.entries(config.exports)) {
    if (!sources.includes(join(SRC, target))) fail(`export "${subpath}" (${target}) not copied`);
  }
  console.log(`${sources.length} modules`);

  step("installing the imported npm packages into npm/ for their types");
  const imported = await packagesImportedBy(sources);
  const installDependencies: Record<string, string> = {};
  for (const name of [...imported].sort()) {
    if (!(name in PEERS)) installDependencies[name] = rangeOf(config, name);
  }
  await writeJson(join(OUT, "package.json"), packageJson(config, installDependencies));
  // The peers come in as devDependencies; node_modules never ships (`files`).
  await run("npm", ["install", ...NPM_QUIET, "--ignore-scripts"], { cwd: OUT });

  step("compiling with TypeScript " + ts.version);
  compile(sources);

  step("writing package.json, README.md and LICENSE");
  const dependencies = await dependenciesOfOutput(config);
  const manifest = packageJson(config, dependencies);
  await writeJson(join(OUT, "package.json"), manifest);
  await Deno.copyFile(join(ROOT, "README.md"), join(OUT, "README.md"));
  await Deno.copyFile(join(ROOT, "LICENSE"), join(OUT, "LICENSE"));
  console.log(`dependencies ${JSON.stringify(dependencies)}, peer ${JSON.stringify(PEERS)}`);

  const tally: Tally = { passed: 0, failed: 0 };
  const problems: string[] = [];

  step("publint");
  if (!(await publint())) problems.push("publint reported problems");

  step("@arethetypeswrong/cli");
  if (!(await attw())) problems.push("attw reported problems");

  step("packing and installing in a consumer project");
  const { dir, tarball } = await makeConsumer(config);
  console.log(`${tarball} in ${dir}`);
  const add = (what: string, part: Tally) => {
    tally.passed += part.passed;
    tally.failed += part.failed;
    console.log(`${what}: ${part.passed} ok, ${part.failed} not ok`);
    if (part.failed > 0) problems.push(`${what} failed`);
  };
  try {
    const bun = await bunBinary();
    for (const [major, range] of Object.entries(GRAPHQL_VERSIONS)) {
      step(`graphql ${major}: installing`);
      await installConsumer(config, dir, tarball, range);

      step(`graphql ${major}: type-checking a consumer against the shipped .d.ts`);
      add(`types, graphql ${major}`, typeCheckConsumer(dir, "web") ? ok : ko);
      add(`types without DOM, graphql ${major}`, typeCheckConsumer(dir, "node") ? ok : ko);

      step(`graphql ${major}: Node suite (node ${await nodeVersion()})`);
      add(`node, graphql ${major}`, await nodeSuite(dir, major));

      step(`graphql ${major}: Bun suite`);
      add(`bun, graphql ${major}`, await bunSuite(bun, dir, major));
    }

    step("the edge: the packed package bundled by esbuild, served by workerd");
    add("edge (workerd)", await edgeSuite(dir));

    step("Bun behind docs/deploy.md's HAProxy: its health check as written there");
    add("bun behind haproxy", await bunBehindHaproxy(bun, dir));

    step("the README's npm line alone: no optional peer installed");
    add("without optional peers", await bareSuite(config, join(dir, tarball), bun));
  } finally {
    if (Deno.env.get("RAMIFY_NPM_KEEP")) console.log(`kept ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }

  step("done");
  for (const problem of problems) console.error(`problem: ${problem}`);
  console.log(`cross-runtime: ${tally.passed} passed, ${tally.failed} failed`);
  return problems.length === 0 && tally.failed === 0 ? 0 : 1;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    console.error(`build:npm failed: ${error.message}`);
    Deno.exit(1);
  }
}
