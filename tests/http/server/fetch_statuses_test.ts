// createFetch over a real Deno.serve: the core status codes, on all three routers.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { bookstoreTree } from "../../support/bookstore.ts";
import { allowOf, jsonOf, postJson, problemOf, ROUTERS, stableHeaders } from "./fetch_support.ts";

function coreTree() {
  return api({
    ...bookstoreTree().children,
    probe: api({
      strict: op(({ title }) => ({ title }), {
        input: z.object({ title: z.string().min(1) }),
      }),
      crash: op((): unknown => {
        throw new Error("secret internal detail");
      }, http.get),
    }),
  });
}

for (const router of ROUTERS) {
  Deno.test(`${router.name}: the core status codes over a real server`, async () => {
    const errors: unknown[] = [];
    const handler = createFetch(coreTree(), { router, onError: (error) => errors.push(error) });
    await withServer(handler, async (base) => {
      // 200 and 204 across the bookstore's routes and verbs.
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/list`)), []);
      const added = await jsonOf(await postJson(`${base}/books/add`, { title: "Dune" }));
      assert.equal((added as { id: string }).id, "1");
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/42`)), { id: "42" });
      assert.deepEqual(await jsonOf(await postJson(`${base}/books/42`, {}, "PUT")), { id: "42" });
      const removed = await fetch(`${base}/books/42`, { method: "DELETE" });
      assert.equal(removed.status, 204);
      assert.equal(await removed.text(), "");
      assert.deepEqual(
        await jsonOf(await fetch(`${base}/books/42/checkout/start`, { method: "POST" })),
        {
          started: true,
        },
      );
      assert.deepEqual(
        await jsonOf(await fetch(`${base}/books/42/checkout/reserve`, { method: "PUT" })),
        { reserved: true },
      );
      assert.deepEqual(await jsonOf(await fetch(`${base}/catalog/featured`)), []);
      assert.deepEqual(await jsonOf(await fetch(`${base}/catalog/search`)), []);

      // 404: no route, including a trailing slash and a bare branch.
      for (const path of ["/nowhere", "/books/list/", "/books", "/books/42/checkout", "/"]) {
        await problemOf(await fetch(base + path), 404);
      }

      // 405 with Allow.
      const wrong = await fetch(`${base}/books/list`, { method: "POST" });
      assert.deepEqual(allowOf(wrong), new Set(["GET", "HEAD", "OPTIONS"]));
      await problemOf(wrong, 405);
      const patch = await fetch(`${base}/books/42`, { method: "PATCH" });
      assert.deepEqual(allowOf(patch), new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
      await problemOf(patch, 405);

      // HEAD for a GET route: same status and headers, no body.
      const get = await fetch(`${base}/books/42`);
      await get.body?.cancel();
      const head = await fetch(`${base}/books/42`, { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.deepEqual(stableHeaders(head), stableHeaders(get));
      assert.equal(await head.text(), "");

      // OPTIONS: 204 with Allow.
      const options = await fetch(`${base}/books/42`, { method: "OPTIONS" });
      assert.equal(options.status, 204);
      assert.deepEqual(allowOf(options), new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]));
      assert.equal(await options.text(), "");

      // 400 malformed body, 415 unsupported type, 413 over the limit (a leaf that reads its body).
      const malformed = await fetch(`${base}/probe/strict`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"title": ',
      });
      await problemOf(malformed, 400);
      const plain = await fetch(`${base}/probe/strict`, { method: "POST", body: "title=Dune" });
      await problemOf(plain, 415);
      const big = await fetch(`${base}/probe/strict`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
      });
      await problemOf(big, 413);

      // 400 for bad percent-encoding in a capture; captures decode exactly once.
      await problemOf(await fetch(`${base}/books/%zz`), 400);
      assert.deepEqual(await jsonOf(await fetch(`${base}/books/%2541`)), { id: "%41" });

      // 422 with issues.
      const invalid = await problemOf(await postJson(`${base}/probe/strict`, { title: "" }), 422);
      assert.ok(Array.isArray(invalid.issues));
      assert.deepEqual((invalid.issues as { path: unknown[] }[])[0].path, ["title"]);
      assert.deepEqual(await jsonOf(await postJson(`${base}/probe/strict`, { title: "ok" })), {
        title: "ok",
      });

      // 500 with nothing internal.
      const crash = await fetch(`${base}/probe/crash`);
      const body = await problemOf(crash, 500);
      assert.equal(body.detail, undefined);
      assert.equal(errors.length, 1);
      assert.equal((errors[0] as Error).message, "secret internal detail");
    });
  });
}

/** Leaves that show what their handler received. */
