// Shell completion: the scripts for bash, zsh and fish ask the program for
// the next words; bash completes for real, zsh and fish parse the scripts
// (each installed when missing, its test ignored, with a warning, if it cannot be).
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { z } from "zod";
import { completionScript, completionsFor, runCli } from "@ramify/api/cli";
import { ensureCommands } from "../support/commands.ts";
import { memoryIo } from "../support/cli_io.ts";

const tree = api({
  books: api({
    list: op(() => []),
    add: op(() => 1, { input: z.object({ title: z.string(), pageCount: z.number() }) }),
  }, { fallback: { name: "bookId", subtree: api({ read: op(() => 1) }) } }),
});

Deno.test("completion: the next words are the children, then a leaf's flags", () => {
  assert.deepEqual(completionsFor(tree, []), ["books"]);
  assert.deepEqual(completionsFor(tree, ["books"]), ["list", "add"]);
  assert.deepEqual(completionsFor(tree, ["books", "7"]), ["read"]);
  assert.deepEqual(completionsFor(tree, ["books", "add", "--title", "x"]).slice(0, 2), [
    "--title",
    "--page-count",
  ]);
  assert.deepEqual(completionsFor(tree, ["nope"]), []);
});

Deno.test("completion: `completion <shell>` prints the script; `__complete` answers it", async () => {
  const io = memoryIo();
  assert.equal(await runCli(tree, ["completion", "zsh"], { name: "shop", io }), 0);
  assert.equal(io.stdout.join(""), completionScript("zsh", "shop"));
  const words = memoryIo();
  await runCli(tree, ["__complete", "books"], { name: "shop", io: words });
  assert.equal(words.stdout.join(""), "list\nadd\n");
  assert.throws(() => completionScript("bash", "my shop"), /not a plain word/);
});

const CLI = new URL("../../examples/bookstore_cli.ts", import.meta.url).pathname;

/** A directory holding `bookstore`, a script running the example's command line; removed after. */
async function withProgram(use: (env: Record<string, string>, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "ramify-completion-" });
  try {
    await Deno.writeTextFile(
      `${dir}/bookstore`,
      `#!/bin/sh\nexec "${Deno.execPath()}" run -A --quiet "${CLI}" "$@"\n`,
    );
    await Deno.chmod(`${dir}/bookstore`, 0o755);
    await use({ PATH: `${dir}:${Deno.env.get("PATH")}`, NO_COLOR: "1" }, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("completion: bash completes the example for real", async () => {
  await withProgram(async (env) => {
    const complete = async (words: string[]) => {
      const script = [
        "source <(bookstore completion bash)",
        `COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")})`,
        `COMP_CWORD=${words.length - 1}`,
        "_bookstore_complete",
        'printf "%s\\n" "${COMPREPLY[@]}"',
      ].join("\n");
      const output = await new Deno.Command("bash", { args: ["-c", script], env }).output();
      return new TextDecoder().decode(output.stdout).trim().split("\n");
    };
    assert.deepEqual(await complete(["bookstore", ""]), ["books", "catalog"]);
    assert.deepEqual(await complete(["bookstore", "books", "a"]), ["add"]);
    assert.deepEqual(await complete(["bookstore", "books", "1", "re"]), [
      "read",
      "replace",
      "remove",
    ]);
    assert.deepEqual(await complete(["bookstore", "catalog", "search", "--l"]), ["--limit"]);
  });
});

const missing = await ensureCommands({ zsh: "zsh", fish: "fish" });
for (const shell of ["zsh", "fish"]) {
  const ignore = missing.includes(shell);
  if (ignore) {
    console.warn(`completion: ${shell} is not installed and could not be; its test is ignored`);
  }
  Deno.test({
    name: `completion: the ${shell} script parses`,
    ignore,
    fn: () =>
      withProgram(async (env, dir) => {
        const path = `${dir}/script.${shell}`;
        await Deno.writeTextFile(path, completionScript(shell, "bookstore"));
        const parsed = await new Deno.Command(shell, { args: ["-n", path], env }).output();
        assert.ok(parsed.success, `${shell}: ${new TextDecoder().decode(parsed.stderr)}`);
      }),
  });
}
