// The query utils on @tanstack/query-core against the live example server:
// keys from the tree, cache hits, invalidation derived from the tree after
// add, replace and remove (other captured values untouched), the per-call
// override in meta, declared errors typed and narrowed, infinite pages, a
// stream, and the same over the GraphQL client.
import assert from "node:assert/strict";
import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { createClientFromManifest } from "@ramify/api/client";
import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
import { createQueryUtils } from "@ramify/api/query";
import {
  type Bookstore,
  bookstoreHandler,
  DEV_TOKEN,
  MemoryBookStore,
} from "../../examples/bookstore.ts";
import { graphqlRoutes, routes } from "../../examples/bookstore_routes.ts";
import { withServer } from "../support/server.ts";

/** The bookstore served live with two books; every request it answers is counted. */
async function withBookstore(
  run: (base: string, requests: string[]) => Promise<void>,
): Promise<void> {
  const handler = await bookstoreHandler(
    new MemoryBookStore([
      { title: "Dune", author: "Frank Herbert" },
      { title: "Emma", author: "Jane Austen" },
    ]),
  );
  const requests: string[] = [];
  await withServer(async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    return (await handler.fetch(request))!;
  }, (base) => run(base, requests));
}

const fresh = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

Deno.test("query utils: keys follow the tree, captured values as objects", () => {
  const queries = createQueryUtils(createClientFromManifest<Bookstore>(routes));
  assert.deepEqual(queries.books.list.queryOptions({}).queryKey, ["ramify", "books", "list", {}]);
  assert.deepEqual(queries.books.bookId("1").read.key(), [
    "ramify",
    "books",
    { bookId: "1" },
    "read",
  ]);
  assert.deepEqual(queries.catalog.search.queryOptions({ input: { q: "du" } }).queryKey, [
    "ramify",
    "catalog",
    "search",
    { q: "du" },
  ]);
  const shop = createQueryUtils(createClientFromManifest<Bookstore>(routes), { prefix: "shop" });
  assert.deepEqual(shop.books.list.key(), ["shop", "books", "list"]);
  // The rule as key prefixes: the parent's subtree; under a captured value,
  // that value's subtree and the collection's own positions, no other value's.
  assert.deepEqual(queries.books.add.invalidates(), [["ramify", "books"]]);
  assert.deepEqual(queries.books.bookId("7").checkout.start.invalidates(), [
    ["ramify", "books", { bookId: "7" }],
    ["ramify", "books", "list"],
    ["ramify", "books", "add"],
    ["ramify", "books", "events"],
  ]);
});

Deno.test("query utils: each leaf offers its own kind only, and a foreign object is refused", () => {
  const queries = createQueryUtils(createClientFromManifest<Bookstore>(routes));
  assert.throws(() => queries.books.add.queryOptions({ input: { title: "x", author: "y" } }), {
    name: "TypeError",
    message: "books.add.queryOptions(): the leaf is not readOnly: use mutationOptions()",
  });
  assert.throws(() => queries.books.list.mutationOptions(), /readOnly: use queryOptions/);
  // @ts-expect-error a stream has streamedOptions() only
  assert.throws(() => queries.books.events.queryOptions({}), /streaming/);
  assert.throws(() => createQueryUtils({ books: {} }), /not a client made by @ramify\/api/);
});

Deno.test("query utils: a second read of a fresh query is a cache hit", async () => {
  await withBookstore(async (base, requests) => {
    const queries = createQueryUtils(
      createClientFromManifest<Bookstore>(routes, { baseUrl: base }),
    );
    const queryClient = fresh();
    const first = await queryClient.fetchQuery({
      ...queries.books.list.queryOptions({}),
      staleTime: Infinity,
    });
    const again = await queryClient.fetchQuery({
      ...queries.books.list.queryOptions({}),
      staleTime: Infinity,
    });
    assert.deepEqual(first.map((book) => book.title), ["Dune", "Emma"]);
    assert.equal(again, first);
    assert.deepEqual(requests, ["GET /books/list"]);
    // The data is typed from the tree: a `Book[]`, through the tagged key too.
    const cached = queryClient.getQueryData(queries.books.list.queryOptions({}).queryKey);
    assert.equal(cached?.[0].author, "Frank Herbert");
  });
});

Deno.test("query utils: add, replace and remove invalidate what the tree says, no more", async () => {
  await withBookstore(async (base) => {
    const client = createClientFromManifest<Bookstore>(routes, { baseUrl: base, token: DEV_TOKEN });
    const queries = createQueryUtils(client);
    const queryClient = fresh();
    // The list is watched (so refetched at once); the reads are cached only (marked).
    const list = new QueryObserver(queryClient, queries.books.list.queryOptions({}));
    const unsubscribe = list.subscribe(() => {});
    await list.refetch();
    const read = (id: string) => queries.books.bookId(id).read.queryOptions({});
    await queryClient.fetchQuery(read("1"));
    await queryClient.fetchQuery(read("2"));
    const invalidated = (id: string) => queryClient.getQueryState(read(id).queryKey)?.isInvalidated;

    await new MutationObserver(queryClient, queries.books.add.mutationOptions())
      .mutate({ title: "Ulysses", author: "James Joyce" });
    // onSuccess awaited the refetch: the list holds the new book already.
    assert.deepEqual(list.getCurrentResult().data?.map((book) => book.title), [
      "Dune",
      "Emma",
      "Ulysses",
    ]);
    assert.equal(invalidated("1"), true, "books.add invalidates the whole books subtree");
    await queryClient.fetchQuery(read("1"));
    await queryClient.fetchQuery(read("2"));

    await new MutationObserver(queryClient, queries.books.bookId("1").replace.mutationOptions())
      .mutate({ title: "Dune Messiah", author: "Frank Herbert" });
    assert.equal(list.getCurrentResult().data?.[0].title, "Dune Messiah");
    assert.equal(invalidated("1"), true);
    assert.equal(invalidated("2"), false, "another book's read is not touched");

    await queryClient.fetchQuery(read("1"));
    await new MutationObserver(queryClient, queries.books.bookId("2").remove.mutationOptions())
      .mutate();
    assert.deepEqual(list.getCurrentResult().data?.map((book) => book.id), ["1", "3"]);
    assert.equal(invalidated("2"), true);
    assert.equal(invalidated("1"), false);
    unsubscribe();
  });
});

Deno.test("query utils: meta.invalidates overrides the derived rule", async () => {
  await withBookstore(async (base) => {
    const client = createClientFromManifest<Bookstore>(routes, { baseUrl: base, token: DEV_TOKEN });
    const queries = createQueryUtils(client);
    const queryClient = fresh();
    const listKey = queries.books.list.queryOptions({}).queryKey;
    const searchKey = queries.catalog.search.queryOptions({ input: { q: "e" } }).queryKey;
    await queryClient.fetchQuery(queries.books.list.queryOptions({}));
    await queryClient.fetchQuery(queries.catalog.search.queryOptions({ input: { q: "e" } }));
    const added: string[] = [];
    await new MutationObserver(
      queryClient,
      queries.books.add.mutationOptions({
        meta: { invalidates: false },
        onSuccess: (book) => void added.push(book.title),
      }),
    ).mutate({ title: "Ulysses", author: "James Joyce" });
    assert.equal(queryClient.getQueryState(listKey)?.isInvalidated, false);
    assert.deepEqual(added, ["Ulysses"], "the caller's onSuccess still runs");
    await new MutationObserver(
      queryClient,
      queries.books.add.mutationOptions({ meta: { invalidates: [queries.catalog.search.key()] } }),
    ).mutate({ title: "Emma 2", author: "Jane Austen" });
    assert.equal(queryClient.getQueryState(listKey)?.isInvalidated, false);
    assert.equal(queryClient.getQueryState(searchKey)?.isInvalidated, true);
  });
});

Deno.test("query utils: a streaming leaf's data grows as its items arrive", async () => {
  await withBookstore(async (base) => {
    const client = createClientFromManifest<Bookstore>(routes, { baseUrl: base, token: DEV_TOKEN });
    const queries = createQueryUtils(client);
    const queryClient = fresh();
    const observer = new QueryObserver(
      queryClient,
      queries.books.events.streamedOptions({ input: { limit: 2 } }),
    );
    const seen: number[] = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data?.length ?? -1));
    // Events are from now on: add books until the stream has its two.
    let n = 0;
    while (observer.getCurrentResult().fetchStatus !== "idle" || n === 0) {
      await client.books.add({ title: `Book ${++n}`, author: "Anon" });
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.ok(n < 100, "the stream never ended");
    }
    const titles = observer.getCurrentResult().data?.map((book) => book.title) ?? [];
    assert.equal(titles.length, 2);
    assert.ok(seen.includes(1), "the first item was data before the stream ended");
    // A stream is live: a mutation does not restart it.
    await new MutationObserver(queryClient, queries.books.add.mutationOptions())
      .mutate({ title: "Late", author: "Anon" });
    assert.equal(observer.getCurrentResult().fetchStatus, "idle");
    unsubscribe();
  });
});

Deno.test("query utils over GraphQL: the same keys, queries and invalidation", async () => {
  await withBookstore(async (base) => {
    const client = createGraphQLClientFromManifest<Bookstore>(graphqlRoutes, {
      transport: httpTransport({
        url: `${base}/graphql`,
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      }),
    });
    const queries = createQueryUtils(client, { client: "graphql" });
    const queryClient = fresh();
    const list = new QueryObserver(queryClient, queries.books.list.queryOptions({}));
    const unsubscribe = list.subscribe(() => {});
    await list.refetch();
    assert.equal(list.getCurrentResult().data?.length, 2);
    await new MutationObserver(queryClient, queries.books.add.mutationOptions())
      .mutate({ title: "Ulysses", author: "James Joyce" });
    assert.equal(list.getCurrentResult().data?.at(-1)?.title, "Ulysses");
    const failed = new QueryObserver(
      queryClient,
      queries.books.bookId("404").read.queryOptions({}),
    );
    const result = await failed.refetch();
    assert.equal(result.error?.name, "GraphQLClientError");
    unsubscribe();
  });
});
