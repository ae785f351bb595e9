// `--input -` and `--input @file` in a real process: standard input is read as
// bytes and decoded once, strictly (tree/utf8.ts), so a character split between
// two of its chunks arrives whole and bytes that are not UTF-8 are a usage
// error (exit 2) instead of U+FFFD handed to the leaf.
import assert from "node:assert/strict";

const CLI = new URL("./echo_cli.ts", import.meta.url).pathname;

/** Runs `echo --input <source>` with `stdin` piped in: its exit code, stdout and stderr. */
async function echo(source: string, stdin: Uint8Array) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "echo", "--input", source, "--json"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(stdin);
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  return { code, out: new TextDecoder().decode(stdout), err: new TextDecoder().decode(stderr) };
}

const json = (text: string) => new TextEncoder().encode(JSON.stringify({ text }));

Deno.test("cli --input -: a large input of multi-byte characters arrives whole", async () => {
  // After the 9 bytes of `{"text":"`, 2-byte characters: a chunk of 64 KiB (or any even
  // size) ends inside one of them.
  const text = "é".repeat(200_000);
  const { code, out, err } = await echo("-", json(text));
  assert.equal(err, "");
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(out), { length: text.length, text });
});

Deno.test("cli --input: bytes that are not UTF-8 are a usage error, from stdin or a file", async () => {
  const encoder = new TextEncoder();
  const invalid = new Uint8Array([...encoder.encode('{"text":"a'), 0xff, ...encoder.encode('"}')]);
  const fromStdin = await echo("-", invalid);
  assert.deepEqual([fromStdin.code, fromStdin.out], [2, ""]);
  assert.equal(fromStdin.err, "error: --input: standard input is not valid UTF-8\n");
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeFile(file, invalid);
    const fromFile = await echo(`@${file}`, new Uint8Array());
    assert.deepEqual([fromFile.code, fromFile.out], [2, ""]);
    assert.equal(fromFile.err, `error: --input: ${file} is not valid UTF-8\n`);
  } finally {
    await Deno.remove(file);
  }
});
