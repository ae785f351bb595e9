// The browser client: bundled with a real bundler (`deno bundle`), it holds no
// server code and stays within its size budget, extensions only when imported;
// the bundle runs in headless Chromium against the live example server; and
// the type-only client infers exactly what createClient(tree) infers.
import assert from "node:assert/strict";
import { createClient, toClientManifest } from "@ramify/api/http";
import { type Client, createClientFromManifest } from "@ramify/api/client";
import {
  type Bookstore,
  bookstore,
  bookstoreHandler,
  DEV_TOKEN,
  MemoryBookStore,
} from "../../examples/bookstore.ts";
import { graphqlRoutes, routes } from "../../examples/bookstore_routes.ts";
import { createGraphQLClient, toGraphQLClientManifest } from "@ramify/api/graphql";
import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
import { chromiumMissing, withPage } from "../support/chromium.ts";
import { bundle } from "../support/bundle.ts";

const ENTRY = new URL("../../examples/browser_client.ts", import.meta.url).pathname;
const GRAPHQL_ENTRY = new URL("../../examples/browser_graphql_client.ts", import.meta.url)
  .pathname;
const BUDGET_GZIP = 8 * 1024;

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

Deno.test("browser client: the generated manifests are the tree's, current", () => {
  assert.deepEqual(routes, toClientManifest(bookstore()), "run `deno task gen:client`");
  assert.deepEqual(
    graphqlRoutes,
    toGraphQLClientManifest(bookstore()),
    "run `deno task gen:client`",
  );
});

Deno.test("browser GraphQL client: the bundle holds neither server code nor the graphql package", async () => {
  const code = await bundle(GRAPHQL_ENTRY);
  for (
    const absent of [
      "There is no book",
      "Adds a book",
      DEV_TOKEN,
      "createHttpGraphQLServer",
      "GraphQLSchema",
      "Syntax Error",
    ]
  ) {
    assert.ok(!code.includes(absent), `the bundle holds ${absent}`);
  }
  assert.ok(code.includes("booksAdd"), "the documents are in the bundle");
  const gzip = await gzipSize(code);
  assert.ok(gzip <= BUDGET_GZIP, `${gzip} bytes gzipped, over ${BUDGET_GZIP}`);
});

Deno.test("browser client: the bundle holds no server code and fits its budget; extensions only when imported", async () => {
  const code = await bundle(ENTRY);
  const server = (await Promise.all(
    ["bookstore.ts", "bookstore_store.ts"].map((file) =>
      Deno.readTextFile(new URL(`../../examples/${file}`, import.meta.url))
    ),
  )).join("\n");
  // Strings only the server side holds: handler messages, descriptions, the dev token, seeds.
  for (const secret of ["There is no book", "is reserved", DEV_TOKEN, "Dune", "Adds a book"]) {
    assert.ok(server.includes(secret), `the check looks for something real: ${secret}`);
    assert.ok(!code.includes(secret), `the bundle holds ${secret}`);
  }
  for (
    const serverCode of ["createFetch", "Deno.serve", "graphql", "modelcontextprotocol", "zod"]
  ) {
    assert.ok(!code.includes(serverCode), `the bundle holds ${serverCode}`);
  }
  assert.ok(code.includes("/books/{bookId}/checkout/reserve"), "the manifest is in the bundle");
  const gzip = await gzipSize(code);
  assert.ok(gzip <= BUDGET_GZIP, `${gzip} bytes gzipped, over ${BUDGET_GZIP}`);

  const withRetry = await Deno.makeTempFile({
    suffix: ".ts",
    dir: new URL("../../examples/", import.meta.url).pathname,
  });
  try {
    await Deno.writeTextFile(
      withRetry,
      `import { retry } from "@ramify/api/http/extensions/retry";\nexport { bookstoreClient } from "./browser_client.ts";\nexport const extensions = [retry()];\n`,
    );
    const retried = await bundle(withRetry);
    assert.ok(
      retried.length > code.length + 200,
      "the retry extension adds its code when imported",
    );
  } finally {
    await Deno.remove(withRetry);
  }
});

Deno.test("browser client: the type-only client infers exactly what createClient(tree) infers", () => {
  type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
    : false;
  const typeOnly = createClientFromManifest<Bookstore>(routes);
  const fromTree = createClient(bookstore());
  const same: Equal<typeof typeOnly, typeof fromTree> = true;
  const alsoClient: Equal<typeof typeOnly, Client<Bookstore>> = true;
  const transport = httpTransport({ url: "http://localhost/graphql" });
  const graphqlTypeOnly = createGraphQLClientFromManifest<Bookstore>(graphqlRoutes, { transport });
  const graphqlFromTree = createGraphQLClient(bookstore(), { transport });
  const sameGraphQL: Equal<typeof graphqlTypeOnly, typeof graphqlFromTree> = true;
  assert.ok(same && alsoClient && sameGraphQL);
  // @ts-expect-error a book needs an author: the types come from the tree
  void (() => typeOnly.books.add({ title: "Emma" }));
});

Deno.test("browser client: a manifest that is not one is refused with a clear error", () => {
  for (
    const bad of [null, {}, { manifest: 2, operations: [] }, {
      manifest: 1,
      operations: [{ steps: [] }],
    }]
  ) {
    assert.throws(() => createClientFromManifest(bad as never), /not a client manifest/);
  }
});

// Chromium is installed when missing; where it cannot be, the test is ignored
// (and reported so), never passed.
const missing = await chromiumMissing();
if (missing !== undefined) console.warn(`browser client test ignored: ${missing}`);

Deno.test({
  name: "browser client: the bundle runs in headless Chromium against the live example server",
  ignore: missing !== undefined,
}, async () => {
  const code = await bundle(ENTRY);
  const graphqlCode = await bundle(GRAPHQL_ENTRY);
  const bookstoreApi = await bookstoreHandler(
    new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]),
  );
  // The page, its script and the API from one origin, as an app served beside its API.
  const app = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/app.js" || pathname === "/graphql-app.js") {
      return new Response(pathname === "/app.js" ? code : graphqlCode, {
        headers: { "content-type": "text/javascript" },
      });
    }
    if (pathname === "/") return new Response(page, { headers: { "content-type": "text/html" } });
    return bookstoreApi.fetch(request).then((response) => response!);
  });
  const api = `http://127.0.0.1:${app.addr.port}`;
  const page: string = `<!doctype html><title>bookstore</title><script type="module">
import { bookstoreClient } from "/app.js";
import { bookstoreGraphQLClient } from "/graphql-app.js";
const anonymous = bookstoreClient(${JSON.stringify(api)});
const staff = bookstoreClient(${JSON.stringify(api)}, ${JSON.stringify(DEV_TOKEN)});
window.outcome = (async () => {
  const listed = await anonymous.books.list();
  const read = await anonymous.books.bookId("1").read();
  const refused = await anonymous.books.add({ title: "Emma", author: "Austen" }).catch((e) => e.status);
  const added = await staff.books.add({ title: "Emma", author: "Austen" });
  const after = await anonymous.books.list();
  const graphql = bookstoreGraphQLClient(${JSON.stringify(api)} + "/graphql");
  const graphqlStaff = bookstoreGraphQLClient(${JSON.stringify(api)} + "/graphql", ${
    JSON.stringify(DEV_TOKEN)
  });
  const viaGraphQL = await graphql.books.bookId("1").read();
  const graphqlRefused = await graphql.books.add({ title: "Kindred", author: "Butler" })
    .catch((e) => e.errors[0].extensions.code);
  const graphqlAdded = await graphqlStaff.books.add({ title: "Kindred", author: "Butler" });
  return {
    listed: listed.length, read: read.title, refused, added, after: after.length,
    viaGraphQL: viaGraphQL.title, graphqlRefused, graphqlAdded: graphqlAdded.id,
  };
})();
</script>`;
  try {
    await withPage(`http://127.0.0.1:${app.addr.port}/`, async (browser) => {
      let outcome: unknown;
      for (let tries = 0; tries < 100 && outcome === undefined; tries++) {
        outcome = await browser.evaluate("window.outcome");
        if (outcome === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(outcome, {
        listed: 1,
        read: "Dune",
        refused: 401,
        added: { id: "2", title: "Emma", author: "Austen" },
        after: 2,
        viaGraphQL: "Dune",
        graphqlRefused: "UNAUTHENTICATED",
        graphqlAdded: "3",
      });
      assert.ok(browser.requested.some((url) => url.startsWith(`${api}/books/add`)));
    });
  } finally {
    await bookstoreApi.close();
    await app.shutdown();
  }
});
