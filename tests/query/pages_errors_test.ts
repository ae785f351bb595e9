// The query utils' error type is the leaf's declared error union, narrowing on
// `code` (HTTP: `data`; GraphQL: `details`), and a paged leaf's infinite
// query walks its pages by cursor or by offset, over a live server.
import assert from "node:assert/strict";
import { InfiniteQueryObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { api, createClient, createFetch, LeafError, op } from "@ramify/api";
import { createGraphQLClient, createHttpGraphQLServer } from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { createQueryUtils } from "@ramify/api/query";
import { z } from "zod";
import { withServer } from "../support/server.ts";

const TITLES = Array.from({ length: 7 }, (_, i) => `Book ${i + 1}`);

function shelfTree() {
  return api({
    shelf: api({
      read: op(({ id }) => {
        throw new LeafError("NOT_FOUND", { data: { id } });
      }, {
        tags: { readOnly: true },
        input: z.object({ id: z.string() }),
        errors: { NOT_FOUND: { status: 404, data: z.object({ id: z.string() }) } },
      }),
      byOffset: op(({ offset, limit }) => ({
        items: TITLES.slice(offset, offset + limit),
        total: TITLES.length,
      }), {
        tags: { readOnly: true },
        input: z.object({
          offset: z.number().int().min(0).default(0),
          limit: z.number().int().min(1).default(10),
        }),
      }),
      byCursor: op(({ cursor }) => {
        const at = cursor === undefined ? 0 : Number(cursor);
        const next = at + 3 < TITLES.length ? String(at + 3) : undefined;
        return { items: TITLES.slice(at, at + 3), ...(next === undefined ? {} : { next }) };
      }, { tags: { readOnly: true }, input: z.object({ cursor: z.string().optional() }) }),
    }),
  });
}

const fresh = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

Deno.test("query utils: a declared error is the query's error type, narrowed by code", async () => {
  const tree = shelfTree();
  const handler = createFetch(tree);
  const graphql = createHttpGraphQLServer(tree);
  await withServer(
    (request) => new URL(request.url).pathname === "/graphql" ? graphql(request) : handler(request),
    async (base) => {
      const queries = createQueryUtils(createClient(tree, { baseUrl: base }));
      const observer = new QueryObserver(
        fresh(),
        queries.shelf.read.queryOptions({ input: { id: "9" } }),
      );
      const { error } = await observer.refetch();
      assert.ok(error !== null);
      // Typed from the tree: only the declared code narrows `data` to `{ id }`.
      if (error.code === "NOT_FOUND") {
        const id: string = error.data.id;
        assert.equal(id, "9");
      } else {
        assert.fail(`not narrowed: ${error.message}`);
      }
      assert.equal(error.status, 404);

      const overGraphQL = createQueryUtils(
        createGraphQLClient(tree, { transport: httpTransport({ url: `${base}/graphql` }) }),
        { client: "graphql" },
      );
      const viaGraphQL = await new QueryObserver(
        fresh(),
        overGraphQL.shelf.read.queryOptions({ input: { id: "8" } }),
      ).refetch();
      assert.equal(viaGraphQL.error?.code, "NOT_FOUND");
      if (viaGraphQL.error?.code === "NOT_FOUND") assert.equal(viaGraphQL.error.details.id, "8");
    },
  );
});

Deno.test("query utils: infinite pages by offset and by cursor, ending where the server says", async () => {
  const tree = shelfTree();
  await withServer(createFetch(tree), async (base) => {
    const queries = createQueryUtils(createClient(tree, { baseUrl: base }));
    const byOffset = new InfiniteQueryObserver(
      fresh(),
      queries.shelf.byOffset.infiniteOptions({
        style: "offset",
        pageSize: 3,
        items: (page) => page.items,
        total: (page) => page.total,
      }),
    );
    await byOffset.refetch();
    while (byOffset.getCurrentResult().hasNextPage) await byOffset.fetchNextPage();
    const result = byOffset.getCurrentResult();
    assert.deepEqual(result.data?.pages.map((page) => page.items.length), [3, 3, 1]);
    assert.deepEqual(result.data?.pageParams, [0, 3, 6]);
    assert.deepEqual(result.data?.pages.flatMap((page) => page.items), TITLES);

    const byCursor = new InfiniteQueryObserver(
      fresh(),
      queries.shelf.byCursor.infiniteOptions({ style: "cursor", next: (page) => page.next }),
    );
    await byCursor.refetch();
    while (byCursor.getCurrentResult().hasNextPage) await byCursor.fetchNextPage();
    const cursor = byCursor.getCurrentResult();
    assert.deepEqual(cursor.data?.pageParams, [null, "3", "6"]);
    assert.deepEqual(cursor.data?.pages.flatMap((page) => page.items), TITLES);
    // Its key is apart from the plain query's, under the same leaf prefix.
    assert.deepEqual(
      queries.shelf.byCursor.infiniteOptions({
        style: "cursor",
        next: (page) => page.next,
      }).queryKey,
      ["ramify", "shelf", "byCursor", {}, "infinite"],
    );
  });
});
