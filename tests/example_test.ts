import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { childEnv } from "./support/child_env.ts";
import { HttpError } from "@ramify/api";
import { connectRedis } from "@ramify/api/redis";
import { runCli } from "@ramify/api/cli";
import {
  type BookStore,
  bookstore,
  DEV_TOKEN,
  MemoryBookStore,
  redisBookStore,
  serveBookstore,
} from "../examples/bookstore.ts";
import { serverTaskArgs, withInstances } from "./support/instances.ts";
import { redisMissing, withRedis } from "./support/redis.ts";
import { mcpPost } from "./support/mcp_wire.ts";
import { freePort } from "./support/server.ts";
import { memoryIo } from "./support/cli_io.ts";

const missing = await redisMissing();
if (missing !== undefined) console.warn(`skipped the examples on Redis: ${missing}`);

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

/** Every operation of the example over the network, on a store seeded with Dune alone. */
async function everyOperation(store: BookStore) {
  const server = await serveBookstore(0, store, DEV_TOKEN, true);
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
}

Deno.test("example: the bookstore serves every operation over the network", async () => {
  await everyOperation(new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]));
});

Deno.test("example: a browser at / gets a page linking every surface; an API client a problem", async () => {
  const server = await serveBookstore(0, new MemoryBookStore(), DEV_TOKEN, true);
  try {
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const page = await fetch(`${server.url}/`, { headers: { accept: browser } });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await page.text();
    const links = [...html.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    assert.deepEqual(links, ["/openapi.json", "/docs", "/graphql", "/mcp", "/health"]);
    // Each link is where the handler serves it (the MCP endpoint answers its clients' POSTs).
    for (const href of links.filter((link) => link !== "/mcp")) {
      const linked = await fetch(`${server.url}${href}`, { headers: { accept: browser } });
      await linked.body?.cancel();
      assert.equal(linked.status, 200, href);
    }
    const mcp = await fetch(`${server.url}/mcp`, mcpPost());
    await mcp.body?.cancel();
    assert.equal(mcp.status, 200);
    const head = await fetch(`${server.url}/`, { method: "HEAD", headers: { accept: browser } });
    assert.deepEqual([head.status, await head.text()], [200, ""]);
    for (const accept of ["application/json", undefined, "*/*"]) {
      for (const path of ["/", "/no/such/page"]) {
        const answer = await fetch(`${server.url}${path}`, {
          headers: accept === undefined ? {} : { accept },
        });
        assert.equal(answer.status, 404, `${path} for ${accept}`);
        assert.equal(answer.headers.get("content-type"), "application/problem+json");
        assert.equal((await answer.json()).status, 404);
      }
    }
    const unknown = await fetch(`${server.url}/no/such/page`, { headers: { accept: browser } });
    assert.equal(unknown.status, 404, "only / is the page");
    await unknown.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("example: the bookstore's tools over MCP at /mcp and over stdio", async () => {
  const server = await serveBookstore(
    0,
    new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]),
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
        env: childEnv(),
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

Deno.test({
  name: "example on Redis: every operation over the network, numbered as in memory",
  ignore: missing !== undefined,
  async fn() {
    await withRedis(async (server) => {
      const redis = await connectRedis({ url: server.url, app: "bookstore" });
      try {
        await everyOperation(
          await redisBookStore(redis, [{ title: "Dune", author: "Frank Herbert" }]),
        );
      } finally {
        await redis.close();
      }
    });
  },
});

Deno.test({
  name: "example on Redis: two instances' stores share books, ids and reservations; apps apart",
  ignore: missing !== undefined,
  async fn() {
    await withRedis(async (server) => {
      const [a, b, other] = await Promise.all([
        connectRedis({ url: server.url, app: "bookstore" }),
        connectRedis({ url: server.url, app: "bookstore" }),
        connectRedis({ url: server.url, app: "other" }),
      ]);
      try {
        const seed = [{ title: "Dune", author: "Frank Herbert", year: 1965 }];
        const one = await redisBookStore(a, seed);
        const two = await redisBookStore(b, seed);
        assert.deepEqual(await two.list(), [{ id: "1", ...seed[0] }], "seeded once, not twice");
        const added = [await one.add({ title: "Emma", author: "Austen" })];
        added.push(await two.add({ title: "Kindred", author: "Butler" }));
        assert.deepEqual(added.map((book) => book.id), ["2", "3"]);
        assert.deepEqual(await two.read("2"), { id: "2", title: "Emma", author: "Austen" });
        assert.deepEqual((await one.list()).map((book) => book.id), ["1", "2", "3"]);
        await one.reserve("2");
        assert.equal(await two.isReserved("2"), true);
        await two.replace("2", { title: "Emma", author: "Jane Austen" });
        assert.equal((await one.read("2")).author, "Jane Austen");
        await two.remove("2");
        assert.equal(await one.isReserved("2"), false);
        for (
          const gone of [
            () => one.read("2"),
            () => one.replace("2", seed[0]),
            () => one.reserve("2"),
          ]
        ) {
          await assert.rejects(gone, (error) => error instanceof HttpError && error.status === 404);
        }
        // A book removed is not written back by a late replace (checked and written at once).
        assert.equal(await server.cli("HEXISTS", "ramify:bookstore:books", "2"), "0");
        assert.deepEqual(await (await redisBookStore(other)).list(), []);
      } finally {
        await Promise.all([a, b, other].map((redis) => redis.close()));
      }
    });
  },
});

/** A redis-server of this test's own, on `port`: stopped and started again at will. */
function redisServer(port: number) {
  const child = new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    async ready() {
      for (let tries = 0; tries < 200; tries++) {
        const up = await Deno.connect({ hostname: "127.0.0.1", port }).then((c) => {
          c.close();
          return true;
        }, () => false);
        if (up) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("redis-server did not start");
    },
    async stop() {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

Deno.test({
  name:
    "example on Redis: while Redis is away every operation answers 503 problem+json, then recovers",
  ignore: missing !== undefined,
  async fn() {
    const port = freePort();
    let redisProcess = redisServer(port);
    await redisProcess.ready();
    const redis = await connectRedis({ url: `redis://127.0.0.1:${port}`, app: "bookstore" });
    const server = await serveBookstore(
      0,
      await redisBookStore(redis, [{ title: "Dune", author: "Frank Herbert" }]),
      DEV_TOKEN,
      true,
    );
    try {
      assert.equal((await call(server.url, "GET", "/books/1")).status, 200);
      await redisProcess.stop();
      for (
        const [method, path, body] of [
          ["GET", "/books/list"],
          ["GET", "/books/1"],
          ["POST", "/books/add", { title: "Emma", author: "Austen" }],
          ["PUT", "/books/1/checkout/reserve"],
          ["GET", "/catalog/search?q=dune"],
        ] as const
      ) {
        const answer = await call(server.url, method, path, body);
        assert.equal(answer.status, 503, `${method} ${path}`);
        assert.equal(answer.headers.get("content-type"), "application/problem+json");
        assert.equal(answer.headers.get("retry-after"), "1");
        assert.equal(answer.body.status, 503);
      }
      redisProcess = redisServer(port);
      await redisProcess.ready();
      // Reconnected with back-off; this Redis kept nothing (no persistence), so the list is empty.
      for (let tries = 0; (await call(server.url, "GET", "/books/list")).status !== 200; tries++) {
        if (tries === 300) throw new Error("gave up waiting for the store to come back");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const added = await call(server.url, "POST", "/books/add", { title: "Emma", author: "A" });
      assert.equal(added.status, 201);
    } finally {
      await server.close();
      await redis.close();
      await redisProcess.stop();
    }
  },
});

/**
 * What Deno itself prints on standard error the first time a command runs on an
 * empty cache (`Download https://registry.npmjs.org/...`, one line a package):
 * no line of the example's.
 */
const DOWNLOAD = /^Download https?:\/\/\S+$/;

/** `text` without Deno's download lines, so that a check reads the same on an empty cache. */
function withoutDownloads(text: string): string {
  return text.split(/(?<=\n)/).filter((line) => !DOWNLOAD.test(line.trimEnd())).join("");
}

Deno.test("example: Deno's download lines are left out of a child's stderr, nothing else", () => {
  const printed = "Download https://registry.npmjs.org/@redis%2fclient\n" +
    "Download https://registry.npmjs.org/zod/-/zod-4.6.7.tgz\nramify: Download failed\n";
  assert.equal(withoutDownloads(printed), "ramify: Download failed\n");
  assert.equal(withoutDownloads("no newline at the end"), "no newline at the end");
});

/**
 * `deno task server`'s command with `env`, until it exits: its code and its
 * stderr (less Deno's download lines: the command as a user runs it, whose
 * cache may be empty).
 */
async function serverTask(env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: await serverTaskArgs(),
    env: { ...env, PORT: String(freePort()), NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: withoutDownloads(new TextDecoder().decode(output.stderr)) };
}

Deno.test("example: an empty or unreachable REDIS_URL stops the start in one clear line", async () => {
  const empty = await serverTask({ REDIS_URL: "" });
  assert.notEqual(empty.code, 0);
  assert.equal(
    empty.stderr,
    "ramify: the Redis URL is empty: give redis://host:port, or leave it unset\n",
  );
  const away = await serverTask({ REDIS_URL: "redis://127.0.0.1:1" });
  assert.notEqual(away.code, 0);
  assert.match(away.stderr, /^ramify: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .+\n$/);
});

Deno.test("example: `deno task server` without REDIS_URL keeps its books in memory", async () => {
  assert.equal(Deno.env.get("REDIS_URL"), undefined, "the test runs without REDIS_URL");
  await withInstances({ count: 2, env: { BOOKSTORE_TOKEN: DEV_TOKEN } }, async ([a, b]) => {
    const added = await call(a.url, "POST", "/books/add", { title: "Emma", author: "Austen" });
    assert.equal(added.body.id, "3", "after the two seeded books");
    assert.equal((await call(b.url, "GET", "/books/3")).status, 404, "each its own books");
  });
});

Deno.test("example: catalog.reindex is a task: REST 202 and its status, progress, result, cancel; the CLI waits", async () => {
  const server = await serveBookstore(
    0,
    new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]),
    DEV_TOKEN,
    true,
  );
  const base = server.url;
  try {
    const started = await call(base, "PUT", "/catalog/reindex", { shelves: 2 });
    assert.equal(started.status, 202);
    const location = started.headers.get("location")!;
    assert.match(location, /^\/\.tasks\/[\w-]{24}$/);
    const result = await fetch(`${base}${location}/result`, {
      headers: { prefer: "wait=10", authorization: `Bearer ${DEV_TOKEN}` },
    });
    assert.deepEqual([result.status, await result.json()], [200, { indexed: 1, shelves: 2 }]);
    const status = await call(base, "GET", location);
    assert.deepEqual([status.body.status, status.body.progress], ["completed", {
      done: 2,
      total: 2,
      message: "shelf 2 of 2",
    }]);
    // Another identity (or none) finds no task.
    assert.equal((await call(base, "GET", location, undefined, null)).status, 404);
    // The guard runs in the task's one prepared call, before any task is made: no token, a 401.
    const anonymous = await call(base, "PUT", "/catalog/reindex", { shelves: 1 }, null);
    assert.deepEqual([anonymous.status, anonymous.headers.get("location")], [401, null]);
    // Cancellable: the handler honours its signal.
    const long = await call(base, "PUT", "/catalog/reindex", { shelves: 40 });
    const cancelled = await call(base, "DELETE", long.headers.get("location")!);
    assert.deepEqual([cancelled.status, cancelled.body.status], [200, "cancelled"]);
    // GraphQL starts it in the same runtime: its handle is read at /.tasks/{id} too.
    const graphql = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${DEV_TOKEN}` },
      body: JSON.stringify({ query: "mutation { catalogReindex(shelves: 1) { id status } }" }),
    });
    const { data } = await graphql.json();
    assert.equal(data.catalogReindex.status, "WORKING");
    const read = await call(base, "GET", `/.tasks/${data.catalogReindex.id}`);
    assert.deepEqual([read.status, read.body.operation], [200, "catalog/reindex"]);
    const io = memoryIo();
    const code = await runCli(bookstore(), [
      "catalog",
      "reindex",
      "--shelves",
      "1",
      "--json",
      "--url",
      base,
      "--token",
      DEV_TOKEN,
    ], { io });
    assert.deepEqual([code, io.stdout.join("")], [0, '{"indexed":1,"shelves":1}\n']);
    assert.match(io.stderr.join(""), /^progress: 1\/1 shelf 1 of 1\n$/);
  } finally {
    await server.close();
  }
});
