// The documentation UIs in real headless Chromium: Swagger UI at /docs renders
// the example's operations and "try it out" calls the server; GraphiQL at
// /graphql runs a query and a subscription over the WebSocket; neither page
// asks any other host for anything. Screenshots go to a temp folder each run.
// Chromium is installed when missing; where it cannot be, both tests are
// ignored (and reported so), never passed.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { serve } from "@ramify/api/serve";
import { BookStore, bookstore } from "../../examples/bookstore.ts";
import { chromiumMissing, withPage } from "../support/chromium.ts";

const missing = await chromiumMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`docs browser tests ignored: ${missing}`);
const shots = await Deno.makeTempDir({ prefix: "ramify-screenshots-" });

function onlyFrom(origin: string, requested: readonly string[]) {
  const elsewhere = requested.filter((url) =>
    !url.startsWith(origin) && !url.startsWith(origin.replace("http", "ws")) &&
    !url.startsWith("data:")
  );
  assert.deepEqual(elsewhere, [], "the page asks no other host");
}

Deno.test({
  name: "docs: Swagger UI renders every operation, and try it out calls this server",
  ignore,
}, async () => {
  const tree = bookstore(new BookStore([{ title: "Dune", author: "Frank Herbert" }]));
  const server = await serve(tree, { port: 0, hostname: "127.0.0.1", quiet: true, mcp: false });
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    await withPage(`${origin}/docs`, async (page) => {
      const operations = await page.waitFor(
        "document.querySelectorAll('.opblock').length >= 9 && document.querySelectorAll('.opblock').length",
        "the operations",
      );
      const expected = (await (await fetch(`${origin}/openapi.json`)).json()).paths;
      const count = Object.values(expected).reduce<number>(
        (n, item) => n + Object.keys(item as object).length,
        0,
      );
      assert.equal(operations, count, "one block per operation of the document");
      // Try it out on GET /books/list: open it, "Try it out", execute, read the live response.
      // Each step is retried a few times: the page attaches its handlers a moment after drawing.
      const step = async (selector: string, until: string, what: string) => {
        for (let attempt = 1;; attempt++) {
          await page.click(selector);
          try {
            return await page.waitFor(until, what, 30);
          } catch (error) {
            if (attempt === 5) {
              await page.screenshot(`${shots}/swagger-ui-failed.png`);
              throw error;
            }
          }
        }
      };
      const op = "#operations-books-booksList";
      await step(
        `${op} .opblock-summary-control`,
        `!!document.querySelector('${op} .try-out__btn')`,
        "try it out",
      );
      await step(`${op} .try-out__btn`, `!!document.querySelector('${op} .execute')`, "execute");
      await step(
        `${op} .execute`,
        "!!document.querySelector('.live-responses-table tr.response')",
        "a response",
      );
      const status = await page.waitFor(
        "document.querySelector('.live-responses-table tr.response .response-col_status')?.textContent?.trim()",
        "a live response",
      );
      assert.equal(status, "200");
      const body = await page.evaluate(
        "document.querySelector('.live-responses-table .response-col_description pre')?.textContent",
      );
      assert.match(String(body), /Frank Herbert/);
      await page.screenshot(`${shots}/swagger-ui.png`);
      onlyFrom(origin, page.requested);
      assert.ok(page.requested.some((url) => url.endsWith("/books/list")), "the call went out");
    });
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "docs: GraphiQL runs a query and a subscription over the WebSocket",
  ignore,
}, async () => {
  const tree = api({
    books: api({ titles: op(() => ["Dune", "Emma"], { tags: { readOnly: true } }) }),
    ticks: op(async function* () {
      for (let i = 1; i <= 3; i++) yield i;
    }, { tags: { streaming: true } }),
  });
  const server = await serve(tree, { port: 0, hostname: "127.0.0.1", quiet: true, mcp: false });
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    for (
      const [name, query, expected] of [
        ["query", "{ books { titles } }", /"Emma"/],
        ["subscription", "subscription { ticks }", /"ticks": 3/],
      ] as const
    ) {
      await withPage(`${origin}/graphql#query=${encodeURIComponent(query)}`, async (page) => {
        await page.waitFor(
          "document.querySelector('.graphiql-execute-button') !== null",
          "GraphiQL",
        );
        await page.evaluate("document.querySelector('.graphiql-execute-button').click(), true");
        const result = await page.waitFor(
          `(() => { const text = document.querySelector('.graphiql-response')?.innerText ?? '';
            return ${expected}.test(text) && text; })()`,
          `the ${name}'s result`,
        );
        assert.match(String(result), expected);
        await page.screenshot(`${shots}/graphiql-${name}.png`);
        onlyFrom(origin, page.requested);
      });
    }
  } finally {
    await server.close();
  }
});
