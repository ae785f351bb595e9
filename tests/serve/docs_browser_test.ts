// The documentation UIs in real headless Chromium: Swagger UI at /docs renders
// the example's operations and "try it out" calls the server; GraphiQL at
// /graphql runs a query and a subscription over the WebSocket, with the
// headers a link carries; neither page asks any other host for anything, nor
// this one for /favicon.ico. Screenshots go to a temp folder each run.
// Chromium is installed when missing; where it cannot be, both tests are
// ignored (and reported so), never passed.
import assert from "node:assert/strict";
import { api, op, use } from "@ramify/api/tree";
import { auth } from "@ramify/api/http";
import { serve } from "@ramify/api/serve";
import { bookstore, MemoryBookStore } from "../../examples/bookstore.ts";
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
  assert.deepEqual(
    requested.filter((url) => url.endsWith("/favicon.ico")),
    [],
    "the icon is inline",
  );
}

/** Opens GraphiQL at `url`, runs what its editors hold, and returns the result once it matches. */
async function runInGraphiQL(url: string, expected: RegExp, shot: string): Promise<string> {
  let result = "";
  const origin = new URL(url).origin;
  await withPage(url, async (page) => {
    await page.waitFor("document.querySelector('.graphiql-execute-button') !== null", "GraphiQL");
    await page.evaluate("document.querySelector('.graphiql-execute-button').click(), true");
    result = String(
      await page.waitFor(
        `(() => { const text = document.querySelector('.graphiql-response')?.innerText ?? '';
          return ${expected}.test(text) && text; })()`,
        `a result matching ${expected}`,
      ),
    );
    await page.screenshot(`${shots}/${shot}.png`);
    onlyFrom(origin, page.requested);
  });
  return result;
}

Deno.test({
  name: "docs: Swagger UI renders every operation, and try it out calls this server",
  ignore,
}, async () => {
  const tree = bookstore(new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]));
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
      const result = await runInGraphiQL(
        `${origin}/graphql#query=${encodeURIComponent(query)}`,
        expected,
        `graphiql-${name}`,
      );
      assert.match(result, expected);
    }
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "docs: a GraphiQL link's headers go with its query, and with its subscription",
  ignore,
}, async () => {
  const staff = use(auth({
    from: "bearer",
    verify: (token) => token === "s3cret" ? { name: "Ann" } : undefined,
  }));
  const tree = api({
    me: op((_input, ctx) => ctx.user.name, { tags: { readOnly: true } }, staff),
    ticks: op(
      async function* (_input, ctx) {
        for (let i = 1; i <= 3; i++) yield `${ctx.user.name} ${i}`;
      },
      { tags: { streaming: true } },
      staff,
    ),
  });
  const server = await serve(tree, { port: 0, hostname: "127.0.0.1", quiet: true, mcp: false });
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const headers = encodeURIComponent(JSON.stringify({ authorization: "Bearer s3cret" }));
    for (
      const [name, query, expected] of [
        ["query", "{ me }", /"me": "Ann"/],
        ["subscription", "subscription { ticks }", /"ticks": "Ann 3"/],
      ] as const
    ) {
      const link = `${origin}/graphql#query=${encodeURIComponent(query)}&headers=${headers}`;
      assert.match(await runInGraphiQL(link, expected, `graphiql-headers-${name}`), expected);
    }
  } finally {
    await server.close();
  }
});
