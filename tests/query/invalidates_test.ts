// A leaf's own `meta.invalidates` decides what its success makes stale, over
// the HTTP and the GraphQL client alike (the manifests carry it): named tree
// paths replace the derived rule, `{capture}` stands for the call's captured
// value, `false` invalidates nothing; a malformed one is refused where the
// manifest is made and where a client reads one.
import assert from "node:assert/strict";
import { z } from "zod";
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { api, op } from "@ramify/api/tree";
import { createFetch, toClientManifest } from "@ramify/api/http";
import { createClientFromManifest } from "@ramify/api/client";
import { createHttpGraphQLServer, toGraphQLClientManifest } from "@ramify/api/graphql";
import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
import { createQueryUtils } from "@ramify/api/query";

const readOnly = { tags: { readOnly: true } } as const;

function statsTree() {
  let added = 0;
  const rated: Record<string, number> = {};
  const tree = api({
    books: api({
      list: op(() => [`${added} books`], readOnly),
      // Named: only the stats are stale, not the books (the derived rule's choice).
      add: op(() => ++added, { invalidates: ["stats"] }),
      touch: op(() => added, { invalidates: false }),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          rating: op(({ bookId }) => rated[bookId] ?? 0, {
            ...readOnly,
            input: z.object({ bookId: z.string() }),
          }),
          rate: op(({ bookId }) => rated[bookId] = (rated[bookId] ?? 0) + 1, {
            input: z.object({ bookId: z.string() }),
            invalidates: ["books/{bookId}", "stats"],
          }),
        }),
      },
    }),
    stats: api({ count: op(() => added, readOnly) }),
  });
  return tree;
}

/** Which cached queries a mutation left invalidated. */
function stale(queryClient: QueryClient): string[] {
  return queryClient.getQueryCache().getAll().filter((query) => query.state.isInvalidated)
    .map((query) => JSON.stringify(query.queryKey)).sort();
}

Deno.test("meta.invalidates: named paths replace the derived rule, over HTTP and GraphQL", async () => {
  const tree = statsTree();
  const graphql = createGraphQLClientFromManifest<typeof tree>(toGraphQLClientManifest(tree), {
    transport: httpTransport({ url: "http://local/graphql", fetch: createHttpGraphQLServer(tree) }),
  });
  const http = createQueryUtils(createClientFromManifest<typeof tree>(toClientManifest(tree), {
    baseUrl: "http://local",
    fetch: createFetch(tree),
  }));
  // The same positions over GraphQL; only the error type differs, which this test does not read.
  const clients = {
    http,
    graphql: createQueryUtils(graphql, { client: "graphql" }) as unknown as typeof http,
  };
  for (const [name, queries] of Object.entries(clients)) {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const warm = async () => {
      await queryClient.fetchQuery(queries.books.list.queryOptions({}));
      await queryClient.fetchQuery(queries.stats.count.queryOptions({}));
      await queryClient.fetchQuery(queries.books.bookId("1").rating.queryOptions({}));
      await queryClient.fetchQuery(queries.books.bookId("2").rating.queryOptions({}));
    };
    await warm();
    await new MutationObserver(queryClient, queries.books.add.mutationOptions()).mutate({});
    assert.deepEqual(stale(queryClient), ['["ramify","stats","count",{}]'], `${name}: add`);

    await queryClient.resetQueries();
    await warm();
    await new MutationObserver(queryClient, queries.books.touch.mutationOptions()).mutate({});
    assert.deepEqual(stale(queryClient), [], `${name}: touch invalidates nothing`);

    await queryClient.resetQueries();
    await warm();
    await new MutationObserver(queryClient, queries.books.bookId("1").rate.mutationOptions())
      .mutate({});
    assert.deepEqual(stale(queryClient), [
      '["ramify","books",{"bookId":"1"},"rating",{}]',
      '["ramify","stats","count",{}]',
    ], `${name}: {bookId} is the call's own book, not book 2`);
  }
});

Deno.test("meta.invalidates: a malformed one is refused by the manifests and by the clients", () => {
  for (const invalidates of [true, "books", ["books//list"], ["{unclosed"], [42]]) {
    const tree = api({ bad: op(() => 1, { invalidates: invalidates as never }) });
    assert.throws(() => toClientManifest(tree), /meta\.invalidates must be false or a list/);
    assert.throws(() => toGraphQLClientManifest(tree), /meta\.invalidates must be false or a list/);
  }
  const manifest = toClientManifest(api({ ok: op(() => 1) }));
  const forged = {
    ...manifest,
    operations: manifest.operations.map((operation) => ({ ...operation, invalidates: ["../x//"] })),
  };
  assert.throws(() => createClientFromManifest(forged), /invalidates/);
});
