// A module bundled for the browser as a user would (`deno bundle --platform
// browser --minify`): the tests read what ends up in it.
import assert from "node:assert/strict";

/**
 * The minified browser bundle of `entry`, as text; the `external` packages
 * (bare specifiers such as "zod") stay imports, so the text is the rest's code.
 */
export async function bundle(entry: string, external: readonly string[] = []): Promise<string> {
  const out = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const result = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform",
        "browser",
        "--minify",
        ...external.flatMap((name) => ["--external", name]),
        "-o",
        out,
        entry,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(result.success, new TextDecoder().decode(result.stderr));
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(out);
  }
}
