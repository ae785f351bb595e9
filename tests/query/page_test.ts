// The React page over the query utils (examples/query_page.tsx), bundled with
// `deno bundle` and run in headless Chromium against the live example server:
// the list from useQuery refreshes after useMutation adds a book, though the
// page writes no invalidation and its queries never go stale on their own.
import assert from "node:assert/strict";
import { bookstoreHandler, DEV_TOKEN, MemoryBookStore } from "../../examples/bookstore.ts";
import { chromiumMissing, withPage } from "../support/chromium.ts";
import { bundle } from "../support/bundle.ts";

const ENTRY = new URL("../../examples/query_page.tsx", import.meta.url).pathname;

Deno.test("query page: its source writes no invalidation", async () => {
  const source = await Deno.readTextFile(ENTRY);
  assert.ok(source.includes("useMutation(queries.books.add.mutationOptions())"));
  assert.ok(!/invalidateQueries|onSuccess|\.refetch\(/.test(source));
});

Deno.test("query utils: a bundle of them holds nothing of TanStack Query (types only)", async () => {
  const code = await bundle(new URL("../../query/mod.ts", import.meta.url).pathname);
  assert.ok(code.includes("createQueryUtils"));
  for (const absent of ["QueryClient", "QueryObserver", "notifyManager", "tanstack"]) {
    assert.ok(!code.includes(absent), `the bundle holds ${absent}`);
  }
  assert.ok(code.length < 8 * 1024, `${code.length} bytes`);
});

// Chromium is installed when missing; where it cannot be, the test is ignored
// (and reported so), never passed.
const missing = await chromiumMissing();
if (missing !== undefined) console.warn(`query page test ignored: ${missing}`);

Deno.test({
  name: "query page: the list refreshes after a mutation, in headless Chromium",
  ignore: missing !== undefined,
}, async () => {
  const code = await bundle(ENTRY);
  const bookstoreApi = await bookstoreHandler(
    new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]),
  );
  const calls: string[] = [];
  // The page, its script and the API from one origin.
  const app = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/app.js") {
      return new Response(code, { headers: { "content-type": "text/javascript" } });
    }
    if (pathname === "/") return new Response(page, { headers: { "content-type": "text/html" } });
    if (pathname.startsWith("/books/")) calls.push(`${request.method} ${pathname}`);
    return bookstoreApi.fetch(request).then((response) => response!);
  });
  const origin = `http://127.0.0.1:${app.addr.port}`;
  const page: string = `<!doctype html><title>bookstore</title><div id="root"></div>
<script type="module">
import { mountBookstorePage } from "/app.js";
mountBookstorePage(document.getElementById("root"), ${JSON.stringify(origin)}, ${
    JSON.stringify(DEV_TOKEN)
  });
</script>`;
  try {
    await withPage(`${origin}/`, async (browser) => {
      await browser.waitFor(
        `document.querySelectorAll("#books li").length === 1`,
        "the first list",
      );
      assert.deepEqual(calls, ["GET /books/list"]);
      await browser.click("#add");
      await browser.waitFor(
        `document.querySelectorAll("#books li").length === 2`,
        "the list with the new book",
      );
      assert.deepEqual(
        await browser.evaluate(
          `[...document.querySelectorAll("#books li")].map((li) => li.textContent)`,
        ),
        ["Dune (Frank Herbert)", "Emma (Jane Austen)"],
      );
      assert.deepEqual(calls, ["GET /books/list", "POST /books/add", "GET /books/list"]);
    });
  } finally {
    await bookstoreApi.close();
    await app.shutdown();
  }
});
