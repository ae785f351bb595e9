// The agreement suite's large download: 20 MB made as they are read, the same
// bytes through raw HTTP, both HTTP clients and the command line (standard
// output and --output, in process and with --url). That the server's memory
// stays flat while it streams is tests/http/server/bytes_memory_test.ts; MCP
// is left out, a tool result being one JSON message (tests/tools/bytes_test.ts
// sends 5 MB); GraphQL has no bytes.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createClient, createFetch, toClientManifest } from "@ramify/api/http";
import { createClientFromManifest } from "@ramify/api/client";
import { type CliIo, runCli } from "@ramify/api/cli";
import { madeBytes, Tally } from "./support/big_bytes.ts";
import { memoryIo } from "./support/cli_io.ts";

Deno.test("agreement: 20 MB arrive whole through raw HTTP, both HTTP clients and the command line", async () => {
  const SIZE = 20 * 1024 * 1024;
  const big = api({ download: op(() => madeBytes(SIZE), http.get) });
  const made = await Tally.of(madeBytes(SIZE));
  assert.equal(made.length, SIZE);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, createFetch(big));
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const response = await fetch(`${base}/download`);
    assert.equal(response.headers.get("content-type"), "application/octet-stream");
    assert.deepEqual(await Tally.of(response.body!), made, "raw HTTP, read as it streams");
    const clients = {
      "HTTP client": createClient(big, { baseUrl: base }),
      "manifest client": createClientFromManifest<typeof big>(toClientManifest(big), {
        baseUrl: base,
      }),
    };
    for (const [name, client] of Object.entries(clients)) {
      assert.deepEqual(await Tally.of(await client.download()), made, name);
    }
    for (const url of [undefined, base]) {
      const where = url === undefined ? "command line, in process" : "command line, --url";
      const out = new Tally();
      let file: Tally["seen"] | undefined;
      const io: CliIo = {
        ...memoryIo(),
        outBytes: (chunk) => Promise.resolve(out.add(chunk)),
        writeFile: async (_path, body) => void (file = await Tally.of(body)),
      };
      const args = url === undefined ? [] : ["--url", url];
      assert.equal(await runCli(big, [...args, "download"], { io }), 0, where);
      assert.deepEqual(out.seen, made, `${where}, standard output`);
      assert.equal(await runCli(big, [...args, "download", "--output", "big.bin"], { io }), 0);
      assert.deepEqual(file, made, `${where}, --output`);
    }
  } finally {
    await server.shutdown();
  }
});
