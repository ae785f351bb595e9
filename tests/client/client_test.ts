import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { httpProjection } from "@ramify/api/http/dx";
import { ClientError, createClient, createClientFromRoute, createFetch } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import { z } from "zod";
import { createTasks } from "@ramify/api/tasks";
import { bookstore, MemoryBookStore } from "../../examples/bookstore.ts";

/** Serves a handler on a real port for the test body, then shuts it down. */
async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  body: (baseUrl: string, seen: Request[]) => Promise<void>,
) {
  const seen: Request[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    seen.push(request.clone());
    return handler(request);
  });
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

const store = () => new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]);
/** The bookstore served as REST; its long-running reindex runs in a task runtime of its own. */
const bookstoreFetch = (tree: ReturnType<typeof bookstore>) =>
  createFetch(tree, { tasks: createTasks() });

Deno.test("ClientError: at @ramify/api/http beside createClient, the one class both clients throw", async () => {
  const [root, face, runtime] = await Promise.all([
    import("@ramify/api"),
    import("@ramify/api/http"),
    import("@ramify/api/client"),
  ]);
  assert.equal(face.ClientError, ClientError);
  assert.equal(root.ClientError, ClientError);
  assert.equal("ClientError" in runtime, false, "one public subpath per name");
  const tree = api({
    missing: op(() => {
      throw new HttpError(404, "No such shelf");
    }, http.get),
  });
  const fetch = createFetch(tree);
  const clients = [
    createClient(tree, { fetch }),
    runtime.createClientFromManifest<typeof tree>(face.toClientManifest(tree), { fetch }),
  ];
  for (const client of clients) {
    await assert.rejects(
      client.missing(),
      (error) => error instanceof ClientError && error.status === 404,
    );
  }
});

Deno.test("client: branches are objects, leaves calls, fallbacks functions of the capture", async () => {
  const tree = bookstore(store());
  await withServer(bookstoreFetch(tree), async (baseUrl) => {
    const client = createClient(tree, { baseUrl });
    assert.equal(typeof client.books, "object");
    assert.equal(typeof client.books.list, "function");
    assert.equal(typeof client.books.bookId, "function");
    const listed = await client.books.list();
    assert.deepEqual(listed, [{ id: "1", title: "Dune", author: "Frank Herbert" }]);
    const added = await client.books.add({ title: "Emma", author: "Austen" });
    assert.equal(added.id, "2");
    const book = client.books.bookId(added.id);
    assert.equal((await book.read()).title, "Emma");
    assert.equal(
      (await book.replace({ title: "Emma", author: "Jane Austen" })).author,
      "Jane Austen",
    );
    assert.deepEqual(await book.checkout.reserve(), { bookId: "2", reserved: true });
    assert.equal(await book.remove(), undefined);
    const found = await client.catalog.search({ q: "dune", limit: 3 });
    assert.equal(found.length, 1);
  });
});

Deno.test("client: captures are URL-encoded on the wire and decoded once by the server", async () => {
  const tree = api({
    files: api({}, {
      fallback: {
        name: "name",
        subtree: api({ read: op(({ name }: { name: string }) => ({ name }), http.get) }),
      },
    }),
  });
  await withServer(createFetch(tree), async (baseUrl, seen) => {
    const client = createClient(tree, { baseUrl });
    for (const name of ["a b", "a/b", "100%", "é?#&", "%41"]) {
      assert.deepEqual(await client.files.name(name).read(), { name });
    }
    assert.equal(new URL(seen[1].url).pathname, "/files/a%2Fb");
    assert.throws(() => client.files.name(""), /name: the captured value must not be empty/);
  });
});

Deno.test("client: GET, HEAD and DELETE send the input as query; arrays repeat, objects are JSON", async () => {
  const input = z.object({
    tags: z.array(z.string()),
    page: z.number(),
    filter: z.object({ a: z.number() }),
    flag: z.boolean().optional(),
  });
  const tree = api({
    find: op((values) => values, http.get, { input }),
    wipe: op((values) => void values, http.delete, { input: z.object({ all: z.boolean() }) }),
  });
  await withServer(createFetch(tree), async (baseUrl, seen) => {
    const client = createClient(tree, { baseUrl });
    const values = { tags: ["a", "b"], page: 2, filter: { a: 1 }, flag: undefined };
    assert.deepEqual(await client.find(values), { tags: ["a", "b"], page: 2, filter: { a: 1 } });
    const sent = new URL(seen[0].url);
    assert.deepEqual(sent.searchParams.getAll("tags"), ["a", "b"]);
    assert.equal(sent.searchParams.get("filter"), '{"a":1}');
    assert.equal(sent.searchParams.has("flag"), false, "undefined is left out");
    assert.equal(seen[0].method, "GET");
    assert.equal(await client.wipe({ all: true }), undefined);
    assert.equal(new URL(seen[1].url).search, "?all=true");
    assert.equal(seen[1].method, "DELETE");
  });
});

Deno.test("client: other verbs send JSON; captures are not repeated in the body", async () => {
  const tree = bookstore(store());
  await withServer(bookstoreFetch(tree), async (baseUrl, seen) => {
    const client = createClient(tree, { baseUrl });
    await client.books.bookId("1").replace({ title: "T", author: "A" });
    assert.equal(seen[0].method, "PUT");
    assert.equal(seen[0].headers.get("content-type"), "application/json");
    assert.deepEqual(await seen[0].json(), { title: "T", author: "A" });
  });
});

Deno.test("client: baseUrl keeps its path prefix; default and per-call headers", async () => {
  const tree = api({
    whoami: op((_: Record<string, never>, ctx) => ctx.request?.headers.get("x-user"), http.get),
  });
  await withServer(createFetch(tree, { basePath: "/api/v1" }), async (baseUrl, seen) => {
    const client = createClient(tree, {
      baseUrl: `${baseUrl}/api/v1/`,
      headers: { "x-user": "ann" },
    });
    assert.equal(await client.whoami(), "ann");
    assert.equal(await client.whoami({}, { headers: { "x-user": "bob" } }), "bob");
    assert.equal(new URL(seen[0].url).pathname, "/api/v1/whoami");
  });
});

Deno.test("client: decodes by content type; 204 is undefined; any other type is a Blob", async () => {
  const tree = api({
    json: op(() => ({ a: 1 }), http.get),
    none: op(() => undefined, http.get),
    text: op(() => new Response("plain", { headers: { "content-type": "text/plain" } }), http.get),
  });
  const client = createClient(tree, { fetch: createFetch(tree) });
  assert.deepEqual(await client.json(), { a: 1 });
  assert.equal(await client.none(), undefined);
  const text = await client.text();
  assert.ok(text instanceof Blob);
  assert.equal(await text.text(), "plain");
});

Deno.test("client: a streaming leaf gives an AsyncIterable of its events", async () => {
  let closed = false;
  const tree = api({
    count: op(async function* ({ to }: { to: number }) {
      try {
        for (let i = 1; i <= to; i++) yield { i };
      } finally {
        closed = true;
      }
    }, { tags: { streaming: true, readOnly: true }, input: z.object({ to: z.coerce.number() }) }),
    forever: op(async function* () {
      try {
        for (let i = 0;; i++) {
          yield i;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } finally {
        closed = true;
      }
    }, { tags: { streaming: true, readOnly: true } }),
    failing: op(async function* () {
      yield 1;
      throw new HttpError(409, "gone wrong");
    }, { tags: { streaming: true, readOnly: true } }),
  });
  await withServer(createFetch(tree, { onError() {} }), async (baseUrl) => {
    const client = createClient(tree, { baseUrl });
    const events: unknown[] = [];
    for await (const event of await client.count({ to: 3 })) events.push(event);
    assert.deepEqual(events, [{ i: 1 }, { i: 2 }, { i: 3 }]);
    assert.ok(closed);
    closed = false;
    const first: number[] = [];
    for await (const n of await client.forever()) {
      first.push(n);
      if (first.length === 3) break;
    }
    assert.deepEqual(first, [0, 1, 2]);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(closed, "leaving the loop closes the server's generator");
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (const value of await client.failing()) seen.push(value);
    }, (error: unknown) => error instanceof ClientError && error.status === 409);
    assert.deepEqual(seen, [1]);
  });
});

Deno.test("client: ClientError for every non-OK response, with the problem body", async () => {
  const tree = bookstore(store());
  await withServer(bookstoreFetch(tree), async (baseUrl) => {
    const client = createClient(tree, { baseUrl });
    const rejected = await client.books.add({ title: "", author: "x" }).catch((e) => e);
    assert.ok(rejected instanceof ClientError);
    assert.equal(rejected.status, 422);
    assert.ok(rejected.statusText.startsWith("Unprocessable"));
    assert.equal(rejected.method, "POST");
    assert.equal(rejected.url, `${baseUrl}/books/add`);
    assert.equal(rejected.problem?.issues?.[0].path[0], "title");
    const missing = await client.books.bookId("404").read().catch((e) => e);
    assert.ok(missing instanceof ClientError);
    assert.equal(missing.status, 404);
    assert.equal(missing.problem?.detail, "There is no book 404");
    assert.match(
      missing.message,
      /GET .*\/books\/404 failed with 404 Not Found: There is no book 404/,
    );
  });
});

Deno.test("client: a network failure or an abort is not a ClientError", async () => {
  const tree = api({ slow: op(() => new Promise(() => {}), http.get) });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(),
  );
  const port = server.addr.port;
  await server.shutdown();
  const offline = createClient(tree, { baseUrl: `http://127.0.0.1:${port}` });
  const failure = await offline.slow().catch((e) => e);
  assert.ok(failure instanceof TypeError && !(failure instanceof ClientError));
  const aborted = createClient(tree, {
    fetch: (request) =>
      new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(request.signal.reason))
      ),
  });
  const controller = new AbortController();
  const pending = aborted.slow({}, { signal: controller.signal }).catch((e) => e);
  controller.abort();
  const reason = await pending;
  assert.ok(reason instanceof DOMException && reason.name === "AbortError");
});

Deno.test("createClientFromRoute: typed with the tree's type, dynamic without", async () => {
  const tree = api({
    ping: op(() => "pong", http.get),
    math: api({
      add: op(({ a, b }) => a + b, { input: z.object({ a: z.number(), b: z.number() }) }),
    }),
  });
  const typed = createClientFromRoute<typeof tree>(httpProjection(tree), {
    fetch: createFetch(tree),
  });
  assert.equal(await typed.ping(), "pong");
  const dynamic = createClientFromRoute(httpProjection(tree), { fetch: createFetch(tree) });
  assert.equal(await dynamic.math.add({ a: 1, b: 2 }), 3);
});
