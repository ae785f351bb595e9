// Binary results and file inputs on the command line: bytes written raw to
// standard output (in process and with --url), or to --output; refused on a
// terminal; a byte stream failing midway (what came before, an error line,
// exit 1, no half file); --file keeping its name and a media type. The
// process tests run tests/cli/bytes_cli.ts for real stdout and files.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { type CliIo, processIo, runCli } from "@ramify/api/cli";
import { withServer } from "../support/server.ts";
import { memoryIo } from "../support/cli_io.ts";
import { PNG, tree as binary } from "./bytes_cli.ts";

const CLI = new URL("./bytes_cli.ts", import.meta.url).pathname;

/** A memory io that also takes bytes, as the process's does. */
function bytesIo(opts: { terminal?: boolean; files?: Record<string, string | Uint8Array> } = {}) {
  const io = memoryIo(opts);
  const chunks: Uint8Array[] = [];
  const written = new Map<string, Uint8Array>();
  const full: CliIo = {
    ...io,
    outBytes: (chunk) => {
      chunks.push(chunk.slice());
      return Promise.resolve();
    },
    writeFile: async (path, body) => {
      written.set(path, new Uint8Array(await new Response(body).arrayBuffer()));
    },
  };
  const joined = () => new Uint8Array(chunks.flatMap((chunk) => [...chunk]));
  return { io: full, memory: io, joined, written };
}

const tree = api({
  ...binary.children,
  buffer: op(() => PNG.buffer.slice(0), { tags: { readOnly: true } }),
  stream: op(() => new Blob([PNG]).stream(), { tags: { readOnly: true } }),
  json: op(() => ({ id: 1 }), { tags: { readOnly: true } }),
  response: op(() => new Response(PNG, { headers: { "content-type": "image/png" } }), {
    tags: { readOnly: true },
  }),
  text: op(() => new Response("plain words"), { tags: { readOnly: true } }),
  describe: op(({ file }) => ({ name: file.name, type: file.type, size: file.size }), {
    input: z.object({ file: z.file() }),
    // A POST: a GET cannot carry a file.
    tags: { destructive: false },
  }),
});

Deno.test("cli bytes: a binary result is written raw to standard output", async () => {
  for (const command of ["cover", "buffer", "stream"]) {
    const { io, memory, joined } = bytesIo();
    assert.equal(await runCli(tree, [command], { io }), 0, command);
    assert.deepEqual(joined(), PNG, command);
    assert.deepEqual([memory.stdout, memory.stderr], [[], []], command);
  }
});

Deno.test("cli bytes: a Response is bytes unless its media type is text", async () => {
  const { io, memory, joined } = bytesIo();
  assert.equal(await runCli(tree, ["response"], { io }), 0);
  assert.deepEqual(joined(), PNG);
  assert.equal(await runCli(tree, ["text"], { io }), 0);
  assert.deepEqual(memory.stdout, ["plain words"]);
  const terminal = bytesIo({ terminal: true });
  assert.equal(await runCli(tree, ["response"], { io: terminal.io }), 1);
  assert.match(terminal.memory.stderr.join(""), /binary \(image\/png\); pass --output/);
});

Deno.test("cli bytes: never to a terminal: an error line naming --output, exit 1", async () => {
  const { io, memory, joined } = bytesIo({ terminal: true });
  assert.equal(await runCli(tree, ["cover"], { io }), 1);
  assert.equal(
    memory.stderr.join(""),
    "error: the result is binary (image/png, 10 bytes); pass --output <file> to write it, or pipe standard output\n",
  );
  assert.equal(joined().length, 0);
  // A stream is cancelled, never read, and its size is not known.
  const stream = bytesIo({ terminal: true });
  assert.equal(await runCli(tree, ["stream"], { io: stream.io }), 1);
  assert.match(
    stream.memory.stderr.join(""),
    /binary \(application\/octet-stream\); pass --output/,
  );
});

Deno.test("cli bytes: --output writes the result to a file, on a terminal too", async () => {
  const { io, memory, written } = bytesIo({ terminal: true });
  assert.equal(await runCli(tree, ["cover", "--output", "out.png"], { io }), 0);
  assert.deepEqual(written.get("out.png"), PNG);
  assert.deepEqual([memory.stdout, memory.stderr], [[], []]);
  assert.equal(await runCli(tree, ["json", "-o", "out.json"], { io }), 0);
  assert.equal(new TextDecoder().decode(written.get("out.json")), '{"id":1}\n');
});

Deno.test("cli bytes: a leaf with an output property keeps --output for it", async () => {
  const own = api({
    render: op(({ output }) => ({ output }), {
      input: z.object({ output: z.string() }),
      tags: { readOnly: true },
    }),
  });
  const { io, memory, written } = bytesIo();
  assert.equal(await runCli(own, ["render", "--output", "svg"], { io }), 0);
  assert.deepEqual([memory.stdout, written.size], [['{"output":"svg"}\n'], 0]);
});

Deno.test("cli bytes: a stream failing midway leaves what came before, an error line, exit 1", async () => {
  const { io, memory, joined } = bytesIo();
  const faults: unknown[] = [];
  const code = await runCli(tree, ["broken"], { io, onError: (error) => faults.push(error) });
  assert.equal(code, 1);
  assert.deepEqual(joined(), PNG.subarray(0, 4));
  assert.equal(memory.stderr.join(""), "error: 500 Internal Server Error\n");
  assert.match(String(faults[0]), /the disk went away/);
});

Deno.test("cli bytes: an io without outBytes fails the command rather than garble", async () => {
  const io = memoryIo();
  assert.equal(await runCli(tree, ["cover"], { io, onError: () => {} }), 1);
  assert.deepEqual(io.stdout, []);
});

Deno.test("cli bytes: --file keeps the file's name and a media type from its extension", async () => {
  const files = { "art/cover.PNG": PNG, "notes.txt": "hi", "blob.xyz": "?", "Makefile": "all:" };
  const expected = [
    ["art/cover.PNG", "cover.PNG", "image/png"],
    ["notes.txt", "notes.txt", "text/plain"],
    ["blob.xyz", "blob.xyz", "application/octet-stream"],
    ["Makefile", "Makefile", "application/octet-stream"],
  ];
  for (const [path, name, type] of expected) {
    const { io, memory } = bytesIo({ files });
    assert.equal(await runCli(tree, ["describe", "--file", path], { io }), 0, path);
    assert.deepEqual(JSON.parse(memory.stdout.join("")), {
      name,
      type,
      size: path === "art/cover.PNG" ? PNG.length : files[path as keyof typeof files].length,
    });
  }
});

Deno.test("cli bytes: with --url, the server's binary answer is written raw", async () => {
  await withServer(createFetch(tree), async (base) => {
    const { io, memory, joined } = bytesIo();
    assert.equal(await runCli(tree, ["--url", base, "cover"], { io }), 0);
    assert.deepEqual(memory.stderr, []);
    assert.deepEqual(joined(), PNG);
    const file = bytesIo({ files: { "c.png": PNG } });
    const code = await runCli(tree, ["--url", base, "describe", "--file", "c.png"], file);
    assert.deepEqual([code, file.memory.stderr], [0, []]);
    assert.deepEqual(JSON.parse(file.memory.stdout.join("")), {
      name: "c.png",
      type: "image/png",
      size: PNG.length,
    });
  });
});

Deno.test("cli bytes: the process writes exact bytes to a pipe, and no half file", async () => {
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const cover = await run("cover");
  assert.equal(cover.code, 0);
  assert.deepEqual(cover.stdout, PNG);
  const broken = await run("broken");
  assert.equal(broken.code, 1);
  assert.deepEqual(broken.stdout, PNG.subarray(0, 4));
  assert.match(new TextDecoder().decode(broken.stderr), /^error: 500 Internal Server Error\n/);
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/cover.png`;
    assert.equal((await run("cover", "--output", out)).code, 0);
    assert.deepEqual(await Deno.readFile(out), PNG);
    const half = `${dir}/half.png`;
    assert.equal((await run("broken", "--output", half)).code, 1);
    await assert.rejects(Deno.stat(half), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli bytes: processIo writes a file whole", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await processIo().writeFile?.(`${dir}/a.bin`, new Blob([PNG]).stream());
    assert.deepEqual(await Deno.readFile(`${dir}/a.bin`), PNG);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
