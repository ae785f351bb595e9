// Forms no other site can forge (issue 29): a POST whose body a browser sends
// cross-site without asking (urlencoded, multipart, text/plain, none) is
// refused with 403 before its handler runs when Origin or Sec-Fetch-Site shows
// another site; its own origin, a trusted one, JSON, GET and clients that are
// no browser go through. Over the network, with every router.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createFetch, http } from "@ramify/api";
import { withServer } from "../../support/server.ts";
import { problemOf, ROUTERS } from "./fetch_support.ts";

const EVIL = "https://evil.example";
const APP = "https://app.example.com";

/** A tree whose handlers count their runs. */
function counted() {
  const runs = { add: 0, logout: 0, find: 0 };
  const tree = api({
    add: op(({ title }) => {
      runs.add++;
      return { title };
    }, { input: z.object({ title: z.string() }) }),
    // No input: the body goes unread, and the handler would run on its arrival alone.
    logout: op(() => {
      runs.logout++;
      return { out: true };
    }, http.post),
    find: op(({ title }) => {
      runs.find++;
      return { title };
    }, { ...http.get, input: z.object({ title: z.string() }) }),
  });
  return { runs, tree };
}

const form = (origin: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...origin },
  body: "title=Dune",
});

Deno.test("csrf: a form posted from another site is 403 and its handler never runs", async () => {
  for (const router of ROUTERS) {
    const { runs, tree } = counted();
    await withServer(createFetch(tree, { router }), async (base) => {
      const forged = await problemOf(await fetch(`${base}/add`, form({ origin: EVIL })), 403);
      assert.match(String(forged.detail), /another site \(https:\/\/evil\.example\)/);
      const multipart = new FormData();
      multipart.set("title", "Dune");
      const bodies: RequestInit[] = [
        { method: "POST", headers: { origin: EVIL }, body: multipart },
        { method: "POST", headers: { origin: EVIL, "content-type": "text/plain" }, body: "x" },
        // A page's `Origin: null` (a sandboxed frame, a data: URL) is another site.
        form({ origin: "null" }),
        // Without Origin, the browser's Sec-Fetch-Site says it.
        form({ "sec-fetch-site": "cross-site" }),
        form({ "sec-fetch-site": "same-site", origin: "https://sub.127.0.0.1" }),
      ];
      for (const init of bodies) await problemOf(await fetch(`${base}/add`, init), 403);
      await problemOf(await fetch(`${base}/logout`, form({ origin: EVIL })), 403);
      await problemOf(
        await fetch(`${base}/logout`, { method: "POST", headers: { origin: EVIL } }),
        403,
      );
      assert.deepEqual(runs, { add: 0, logout: 0, find: 0 });
    });
  }
});

Deno.test("csrf: its own origin, a trusted one and clients that are no browser post forms", async () => {
  const { runs, tree } = counted();
  await withServer(createFetch(tree, { trustedOrigins: [APP] }), async (base) => {
    for (
      const headers of <Record<string, string>[]> [
        { origin: base },
        { origin: APP },
        {},
        { "sec-fetch-site": "same-origin" },
        // A proxy's inner address in the URL: the browser's word is enough.
        { "sec-fetch-site": "same-origin", origin: "https://public.example" },
      ]
    ) {
      const response = await fetch(`${base}/add`, form(headers));
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.deepEqual(await response.json(), { title: "Dune" });
    }
    const out = await fetch(`${base}/logout`, form({ origin: APP }));
    assert.equal(out.status, 200);
    await out.body?.cancel();
    assert.deepEqual(runs, { add: 5, logout: 1, find: 0 });
  });
});

Deno.test("csrf: JSON and GET from another site are CORS's to govern, not refused", async () => {
  const { runs, tree } = counted();
  await withServer(createFetch(tree), async (base) => {
    const json = await fetch(`${base}/add`, {
      method: "POST",
      headers: { origin: EVIL, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: JSON.stringify({ title: "Dune" }),
    });
    assert.equal(json.status, 200);
    await json.body?.cancel();
    const query = await fetch(`${base}/find?title=Dune`, {
      headers: { origin: EVIL, "sec-fetch-site": "cross-site" },
    });
    assert.equal(query.status, 200);
    await query.body?.cancel();
    assert.deepEqual(runs, { add: 1, logout: 0, find: 1 });
  });
});

Deno.test("csrf: behind a proxy, an Origin naming the request's Host is its own", async () => {
  const { runs, tree } = counted();
  const handle = createFetch(tree);
  const request = (origin: string) =>
    new Request("http://10.0.0.7:8000/add", form({ origin, host: "shop.example" }));
  assert.equal((await handle(request("https://shop.example"))).status, 200);
  await problemOf(await handle(request("https://other.example")), 403);
  assert.equal(runs.add, 1);
});

Deno.test("csrf: trustedOrigins must be origins", () => {
  const { tree } = counted();
  assert.throws(
    () => createFetch(tree, { trustedOrigins: ["https://app.example.com/"] }),
    TypeError,
  );
  assert.throws(() => createFetch(tree, { trustedOrigins: ["app.example.com"] }), TypeError);
});
