// The README's quick start, run as written: its handler serves the REST
// collection paths, and a missing book is a 404 problem, never `200 null`.
import assert from "node:assert/strict";
import { withServer } from "./support/server.ts";

async function quickStart(): Promise<{ fetch: (request: Request) => Promise<Response> }> {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const start = readme.indexOf("## Quick start");
  const code = readme.slice(start).match(/```ts\n([\s\S]*?)```/)?.[1];
  assert.ok(code, "the README has a quick start");
  // Beside the config, so that its bare specifiers resolve as a reader's would.
  const file = new URL(`../.quickstart_${crypto.randomUUID()}.ts`, import.meta.url);
  await Deno.writeTextFile(file, code);
  try {
    return (await import(file.href)).default;
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("README quick start: REST collection paths, 404 for a missing book", async () => {
  const app = await quickStart();
  await withServer(app.fetch, async (base) => {
    const added = await fetch(`${base}/books`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Dune" }),
    });
    assert.equal(added.status, 200);
    const book = await added.json();
    assert.deepEqual(await (await fetch(`${base}/books`)).json(), [book]);
    assert.deepEqual(await (await fetch(`${base}/books/${book.id}`)).json(), book);
    const missing = await fetch(`${base}/books/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "No book nope");
    const removed = await fetch(`${base}/books/nope`, { method: "DELETE" });
    assert.equal(removed.status, 404);
    await removed.body?.cancel();
    const document = await (await fetch(`${base}/openapi.json`)).json();
    assert.deepEqual(Object.keys(document.paths).sort(), ["/books", "/books/{bookId}"]);
  });
});
