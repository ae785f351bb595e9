// A generated module is used without this project's configuration: it must
// type-check alone, as a user's file would.
import assert from "node:assert/strict";

/** Type-checks a program on its own: no config, no import map, no lock file. */
export async function assertChecksStandalone(file: string): Promise<void> {
  await assertChecks(["--no-config", "--no-lock", file]);
}

/**
 * Type-checks a program with this project's config, whose import map resolves
 * `@ramify/api/...` as a user's would: for a program that sets a generated
 * module (itself checked standalone) beside the package's own types.
 */
export async function assertChecksWithPackage(file: string): Promise<void> {
  await assertChecks(["--config", new URL("../../deno.json", import.meta.url).pathname, file]);
}

async function assertChecks(args: readonly string[]): Promise<void> {
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
}
