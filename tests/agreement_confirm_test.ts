// A declined confirmation leaves the data unchanged on MCP as on the command
// line: one live server (HTTP and MCP over one tree and its data), the CLI
// run against it with `--url` on a terminal answering "n", a real MCP client
// declining the elicitation; then the data read over HTTP. Both refuse with
// the same line (`aborted`); both remove the book once confirmed.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, HttpError, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createMcpHandler } from "@ramify/api/tools";
import { runCli } from "@ramify/api/cli";
import { memoryIo } from "./support/cli_io.ts";

function bookstore() {
  const shelf = new Map([["1", "Dune"], ["2", "Emma"], ["3", "Persuasion"]]);
  return api({
    books: api({}, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }) => {
            const title = shelf.get(String(bookId));
            if (title === undefined) throw new HttpError(404, `No book ${bookId}`);
            return { id: bookId, title };
          }, { tags: { readOnly: true } }),
          remove: op(({ bookId }) => void shelf.delete(String(bookId)), {
            tags: { destructive: true },
          }),
        }),
      },
    }),
  });
}

Deno.test("agreement: a declined confirmation changes nothing, on MCP as on the CLI", async () => {
  const tree = bookstore();
  const mcp = createMcpHandler(tree);
  const rest = createFetch(tree);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => new URL(request.url).pathname === "/mcp" ? mcp(request) : rest(request),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  let answer: "decline" | "confirm" = "decline";
  const client = new Client({ name: "test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
  });
  client.setRequestHandler(
    "elicitation/create",
    () =>
      answer === "decline"
        ? { action: "decline" }
        : { action: "accept", content: { confirm: true } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  const status = async (id: string) => (await fetch(`${base}/books/${id}`).then(async (r) => {
    await r.body?.cancel();
    return r.status;
  }));
  try {
    const no = memoryIo({ terminal: true, answer: "n" });
    assert.equal(await runCli(tree, ["books", "1", "remove", "--url", base], { io: no }), 1);
    const declined = await client.callTool({ name: "books.remove", arguments: { bookId: "2" } });
    assert.equal(declined.isError, true);
    // The same line on both surfaces.
    assert.deepEqual(no.stderr, ["aborted\n"]);
    assert.equal((declined.content as { text: string }[])[0].text, "aborted");
    assert.deepEqual([await status("1"), await status("2")], [200, 200]);

    const yes = memoryIo({ terminal: true, answer: "y" });
    assert.equal(await runCli(tree, ["books", "1", "remove", "--url", base], { io: yes }), 0);
    answer = "confirm";
    const confirmed = await client.callTool({ name: "books.remove", arguments: { bookId: "2" } });
    assert.equal(confirmed.isError, undefined);
    assert.deepEqual([await status("1"), await status("2"), await status("3")], [404, 404, 200]);
  } finally {
    await client.close();
    await mcp.close();
    await server.shutdown();
  }
});
