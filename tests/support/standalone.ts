// A generated module is used without this project's configuration: it must
// type-check alone, as a user's file would.
import assert from "node:assert/strict";

/** Type-checks a program on its own: no config, no import map, no lock file. */
export async function assertChecksStandalone(file: string): Promise<void> {
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--no-config", "--no-lock", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
}
