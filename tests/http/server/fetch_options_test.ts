// createFetch over a real Deno.serve: its options (the OpenAPI mount, basePath,
// CORS, the body limit).
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { cors, createFetch } from "@ramify/api/http";
import { z } from "zod";
import { bookstoreTree } from "../../support/bookstore.ts";
import { allowOf, jsonOf, problemOf } from "./fetch_support.ts";

Deno.test("GET /openapi.json is built once and cached; openapi: false turns it off", async () => {
  await withServer(createFetch(bookstoreTree()), async (base) => {
    const first = await fetch(`${base}/openapi.json`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-type"), "application/json");
    const text = await first.text();
    const second = await (await fetch(`${base}/openapi.json`)).text();
    assert.equal(second, text);
    const doc = JSON.parse(text);
    assert.match(doc.openapi, /^3\.1\./);
    assert.deepEqual(Object.keys(doc.paths["/books/{bookId}"]).sort(), ["delete", "get", "put"]);
    assert.ok(doc.paths["/books/list"].get !== undefined);
    // Another method is 405, as on any route, with what is allowed.
    const post = await fetch(`${base}/openapi.json`, { method: "POST" });
    assert.equal(post.headers.get("allow"), "GET, HEAD, OPTIONS");
    await problemOf(post, 405);
  });
  await withServer(createFetch(bookstoreTree(), { openapi: false }), async (base) => {
    await problemOf(await fetch(`${base}/openapi.json`), 404);
  });
});

Deno.test("basePath: routes only under it, the document at <base>/openapi.json", async () => {
  for (const basePath of ["/api", "/api/"]) {
    await withServer(createFetch(bookstoreTree(), { basePath }), async (base) => {
      assert.deepEqual(await jsonOf(await fetch(`${base}/api/books/list`)), []);
      assert.deepEqual(await jsonOf(await fetch(`${base}/api/books/7`)), { id: "7" });
      const doc = await jsonOf(await fetch(`${base}/api/openapi.json`)) as {
        paths: Record<string, unknown>;
        servers?: { url: string }[];
      };
      assert.ok("/books/list" in doc.paths);
      assert.deepEqual(doc.servers, [{ url: "/api" }]);
      for (const path of ["/books/list", "/openapi.json", "/apix/books/list", "/api", "/ap"]) {
        await problemOf(await fetch(base + path), 404);
      }
    });
  }
});

Deno.test("CORS true: any origin as *, without Vary", async () => {
  await withServer(createFetch(bookstoreTree(), { policies: [cors(true)] }), async (base) => {
    const origin = { origin: "https://anywhere.example" };
    const response = await fetch(`${base}/books/list`, { headers: origin });
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.equal(response.headers.get("vary"), null);
    assert.equal(response.headers.get("access-control-allow-credentials"), null);
    await response.body?.cancel();
    // Errors carry the CORS headers too, or a browser could not read them.
    const missing = await fetch(`${base}/nowhere`, { headers: origin });
    assert.equal(missing.headers.get("access-control-allow-origin"), "*");
    await problemOf(missing, 404);
    const preflight = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: { ...origin, "access-control-request-method": "PUT" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    const methods = preflight.headers.get("access-control-allow-methods") ?? "";
    assert.ok(methods.split(", ").includes("PUT"), methods);
    await preflight.body?.cancel();
  });
});

Deno.test("CORS with credentials: reflects an allowed origin, never *", async () => {
  const allowed = "https://app.example";
  const tree = api({
    ...bookstoreTree().children,
    away: op(() => Response.redirect("http://127.0.0.1/elsewhere", 302), http.get),
  });
  const handler = createFetch(tree, { policies: [cors({ origin: [allowed], credentials: true })] });
  await withServer(handler, async (base) => {
    const ok = await fetch(`${base}/books/list`, { headers: { origin: allowed } });
    assert.equal(ok.headers.get("access-control-allow-origin"), allowed);
    assert.equal(ok.headers.get("access-control-allow-credentials"), "true");
    assert.match(ok.headers.get("vary") ?? "", /\bOrigin\b/);
    await ok.body?.cancel();

    const other = await fetch(`${base}/books/list`, {
      headers: { origin: "https://evil.example" },
    });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    assert.equal(other.headers.get("access-control-allow-credentials"), null);
    assert.match(other.headers.get("vary") ?? "", /\bOrigin\b/);
    await other.body?.cancel();

    const preflight = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: {
        origin: allowed,
        "access-control-request-method": "DELETE",
        "access-control-request-headers": "content-type, x-token",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), allowed);
    assert.equal(preflight.headers.get("access-control-allow-credentials"), "true");
    assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type, x-token");
    const methods = new Set(
      (preflight.headers.get("access-control-allow-methods") ?? "").split(", "),
    );
    assert.deepEqual(methods, new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
    assert.deepEqual(allowOf(preflight), methods);
    await preflight.body?.cancel();

    const refused = await fetch(`${base}/books/42`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "DELETE" },
    });
    assert.equal(refused.status, 204);
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    assert.equal(refused.headers.get("access-control-allow-methods"), null);
    await refused.body?.cancel();

    // A passed-through Response with immutable headers still gets the CORS headers.
    const away = await fetch(`${base}/away`, { headers: { origin: allowed }, redirect: "manual" });
    assert.equal(away.status, 302);
    assert.equal(away.headers.get("location"), "http://127.0.0.1/elsewhere");
    assert.equal(away.headers.get("access-control-allow-origin"), allowed);
    assert.equal(away.headers.get("access-control-allow-credentials"), "true");
    await away.body?.cancel();
  });
});

Deno.test('CORS origin "*" with credentials throws at construction', () => {
  assert.throws(
    () => createFetch(bookstoreTree(), { policies: [cors({ origin: "*", credentials: true })] }),
    TypeError,
  );
  assert.throws(
    () => createFetch(bookstoreTree(), { policies: [cors({ credentials: true })] }),
    TypeError,
  );
});

Deno.test("a configurable body limit: at the limit passes, one byte over is 413", async () => {
  const tree = api({
    take: op((input) => Object.keys(input), { input: z.record(z.string(), z.unknown()) }),
  });
  await withServer(createFetch(tree, { maxBodyBytes: 64 }), async (base) => {
    const exact = JSON.stringify({ p: "x".repeat(56) });
    assert.equal(exact.length, 64);
    assert.deepEqual(
      await jsonOf(
        await fetch(`${base}/take`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: exact,
        }),
      ),
      ["p"],
    );
    const over = JSON.stringify({ p: "x".repeat(57) });
    await problemOf(
      await fetch(`${base}/take`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: over,
      }),
      413,
    );
    // Streamed (chunked, no Content-Length) over the limit.
    const chunks = [new TextEncoder().encode('{"p":"'), new TextEncoder().encode("x".repeat(80))];
    const streamed = await fetch(`${base}/take`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: ReadableStream.from(chunks),
    });
    await problemOf(streamed, 413);
  });
});

Deno.test("CORS keeps the Vary of a passed-through response, even with immutable headers", async () => {
  const allowed = "https://app.example";
  let upstream = "";
  const tree = api({
    origin: op(() => new Response("up", { headers: { vary: "Accept-Encoding" } }), http.get),
    // A proxied fetch() response: its headers are immutable.
    proxy: op(() => fetch(upstream), http.get),
  });
  const handler = createFetch(tree, { policies: [cors({ origin: [allowed] })] });
  await withServer(handler, async (base) => {
    upstream = `${base}/origin`;
    for (const path of ["/origin", "/proxy"]) {
      const response = await fetch(base + path, { headers: { origin: allowed } });
      assert.equal(await response.text(), "up", path);
      assert.equal(response.headers.get("access-control-allow-origin"), allowed, path);
      const vary = (response.headers.get("vary") ?? "").split(",").map((v) => v.trim());
      assert.ok(vary.includes("Accept-Encoding"), `${path}: ${vary}`);
      assert.ok(vary.includes("Origin"), `${path}: ${vary}`);
    }
  });
});

Deno.test("the document shares its path with the tree's other methods there; HEAD gives its length", async () => {
  const tree = api({
    "openapi.json": op(() => "posted", http.post),
    ping: op(() => "pong", http.get),
  });
  await withServer(createFetch(tree), async (base) => {
    const doc = await jsonOf(await fetch(`${base}/openapi.json`)) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // The document describes the tree, not itself.
    assert.deepEqual(Object.keys(doc.paths["/openapi.json"]), ["post"]);
    assert.equal(await jsonOf(await fetch(`${base}/openapi.json`, { method: "POST" })), "posted");
    const options = await fetch(`${base}/openapi.json`, { method: "OPTIONS" });
    assert.deepEqual([...allowOf(options)].sort(), ["GET", "HEAD", "OPTIONS", "POST"]);
    await options.body?.cancel();
    const head = await fetch(`${base}/openapi.json`, { method: "HEAD" });
    assert.equal(head.status, 200);
    const length = Number(head.headers.get("content-length"));
    assert.equal(length, (await (await fetch(`${base}/openapi.json`)).arrayBuffer()).byteLength);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
  });
});
