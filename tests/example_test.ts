import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BookStore, DEV_TOKEN, serveBookstore } from "../examples/bookstore.ts";

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = DEV_TOKEN,
) {
  const response = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

Deno.test("example: the bookstore serves every operation over the network", async () => {
  const server = await serveBookstore(
    0,
    new BookStore([{ title: "Dune", author: "Frank Herbert" }]),
    DEV_TOKEN,
    true,
  );
  const base = server.url;
  try {
    const listed = await call(base, "GET", "/books/list", undefined, null);
    assert.deepEqual([listed.status, listed.body], [200, [
      { id: "1", title: "Dune", author: "Frank Herbert" },
    ]]);
    // Mutations need the staff token; reads do not.
    const anonymous = await call(base, "POST", "/books/add", { title: "Emma" }, null);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), 'Bearer realm="api"');
    assert.equal((await call(base, "DELETE", "/books/1", undefined, "wrong")).status, 401);
    const added = await call(base, "POST", "/books/add", { title: "Emma", author: "Austen" });
    assert.deepEqual([added.status, added.body], [201, {
      id: "2",
      title: "Emma",
      author: "Austen",
    }]);
    assert.equal(added.headers.get("location"), "/books/2");
    assert.equal((await call(base, "GET", "/books/2")).body.title, "Emma");
    assert.equal(
      (await call(base, "PUT", "/books/2", { title: "Emma", author: "Jane Austen" })).body.author,
      "Jane Austen",
    );
    const reserved = await call(base, "PUT", "/books/2/checkout/reserve");
    assert.deepEqual([reserved.status, reserved.body], [200, { bookId: "2", reserved: true }]);
    assert.equal((await call(base, "POST", "/books/2/checkout/start")).status, 409);
    assert.equal((await call(base, "POST", "/books/1/checkout/start")).status, 200);
    assert.equal((await call(base, "GET", "/catalog/search?q=emma&limit=5")).body.length, 1);
    assert.equal((await call(base, "GET", "/catalog/search?q=x&limit=0")).status, 422);
    assert.equal((await call(base, "GET", "/catalog/featured")).body.length, 2);
    assert.equal((await call(base, "DELETE", "/books/2")).status, 204);
    assert.equal((await call(base, "GET", "/books/2")).status, 404);
    assert.equal((await call(base, "POST", "/books/add", { title: "" })).status, 422);
    const doc = await call(base, "GET", "/openapi.json");
    assert.equal(doc.body.info.title, "Bookstore");
    const graphql = await call(base, "POST", "/graphql", {
      query: '{ books { list { title } read(bookId: "1") { author } } }',
    });
    assert.deepEqual([graphql.status, graphql.body], [200, {
      data: { books: { list: [{ title: "Dune" }], read: { author: "Frank Herbert" } } },
    }]);
    const mutation = { query: 'mutation { booksAdd(title: "Kindred", author: "Butler") { id } }' };
    const refused = await call(base, "POST", "/graphql", mutation, null);
    assert.equal(refused.body.errors[0].extensions.code, "UNAUTHENTICATED");
    const mutated = await call(base, "POST", "/graphql", mutation);
    assert.deepEqual(mutated.body, { data: { booksAdd: { id: "3" } } });
  } finally {
    await server.close();
  }
});

Deno.test("example: the bookstore's tools over MCP at /mcp and over stdio", async () => {
  const server = await serveBookstore(
    0,
    new BookStore([{ title: "Dune", author: "Frank Herbert" }]),
    DEV_TOKEN,
    true,
  );
  const overHttp = new Client({ name: "example", version: "1.0.0" });
  const overStdio = new Client({ name: "example", version: "1.0.0" });
  try {
    await overHttp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)),
    );
    await overStdio.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: [
          "run",
          "--allow-env",
          "--quiet",
          new URL("../examples/bookstore.ts", import.meta.url).pathname,
          "--mcp-stdio",
        ],
        env: { ...getDefaultEnvironment(), NO_COLOR: "1" },
      }),
    );
    for (const client of [overHttp, overStdio]) {
      assert.equal(client.getServerVersion()?.name, "bookstore");
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "catalog.search"));
      const remove = tools.find((tool) => tool.name === "books.remove")!;
      assert.deepEqual(remove.annotations, { destructiveHint: true, idempotentHint: true });
      const found = await client.callTool({
        name: "catalog.search",
        arguments: { q: "dune", limit: 5 },
      });
      assert.equal((found.structuredContent as { result?: unknown[] }).result?.length, 1);
    }
  } finally {
    await overHttp.close();
    await overStdio.close();
    await server.close();
  }
});
