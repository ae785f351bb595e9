// Client extension tests, pagination: cursor and offset styles over a leaf.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import type { CallOptions } from "@ramify/api/client";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import { paginate, paginatePages } from "@ramify/api/http/extensions/pagination";
import { assertType, type Equal } from "../../support/types.ts";
import {
  type Book,
  BOOKS,
  chain,
  collect,
  cursorLeaf,
  type CursorPage,
  cursorStyle,
  fetchSend,
  isNamed,
  makeRequest,
  type OffsetInput,
  offsetLeaf,
  type OffsetPage,
  READ_ONLY,
} from "./support.ts";

Deno.test("paginate (cursor): every item across pages, the cursor sent back", async () => {
  const { leaf, inputs } = cursorLeaf();
  const books = await collect(paginate(leaf, { shelf: "a" }, cursorStyle));
  assert.deepEqual(books, BOOKS);
  assert.deepEqual(inputs, [
    { shelf: "a" },
    { shelf: "a", cursor: "3" },
    { shelf: "a", cursor: "6" },
  ]);
});

Deno.test("paginate (cursor): a custom param, a resumed cursor, and '' as the end", async () => {
  const { leaf, inputs } = cursorLeaf("after");
  const ids = await collect(
    paginate(leaf, { shelf: "a", after: "3" }, {
      style: "cursor",
      cursorParam: "after",
      items: (page) => page.books.map((book) => book.id),
      next: (page) => page.next ?? "",
    }),
  );
  assert.deepEqual(ids, [4, 5, 6, 7]);
  assert.deepEqual(inputs, [{ shelf: "a", after: "3" }, { shelf: "a", after: "6" }]);
});

Deno.test("paginate (offset): pages of pageSize until a short page", async () => {
  const { leaf, inputs } = offsetLeaf();
  const books = await collect(
    paginate(leaf, {}, { style: "offset", pageSize: 3, items: (page) => page.data }),
  );
  assert.deepEqual(books, BOOKS);
  assert.deepEqual(inputs, [
    { offset: 0, limit: 3 },
    { offset: 3, limit: 3 },
    { offset: 6, limit: 3 },
  ]);
});

Deno.test("paginate (offset): an exact multiple ends on the empty page, or earlier with total", async () => {
  const six = BOOKS.slice(0, 6);
  const plain = offsetLeaf(six);
  assert.deepEqual(
    await collect(paginate(plain.leaf, {}, { style: "offset", pageSize: 3, items: (p) => p.data })),
    six,
  );
  assert.equal(plain.inputs.length, 3);

  const counted = offsetLeaf(six);
  assert.deepEqual(
    await collect(
      paginate(counted.leaf, {}, {
        style: "offset",
        pageSize: 3,
        items: (page) => page.data,
        total: (page) => page.total,
      }),
    ),
    six,
  );
  assert.equal(counted.inputs.length, 2);

  // A leaf whose input may be left out.
  const optional = offsetLeaf(six);
  const leaf = (input?: OffsetInput) => optional.leaf(input ?? {});
  assert.deepEqual(
    await collect(
      paginate(leaf, undefined, { style: "offset", pageSize: 4, items: (p) => p.data }),
    ),
    six,
  );
  assert.deepEqual(optional.inputs, [{ offset: 0, limit: 4 }, { offset: 4, limit: 4 }]);

  const empty = offsetLeaf([]);
  assert.deepEqual(
    await collect(paginate(empty.leaf, {}, { style: "offset", pageSize: 3, items: (p) => p.data })),
    [],
  );
  assert.equal(empty.inputs.length, 1);
});

Deno.test("paginate (offset): custom params, starting at the input's offset", async () => {
  const { leaf, inputs } = offsetLeaf();
  const books = await collect(
    paginate(leaf, { skip: 2 }, {
      style: "offset",
      offsetParam: "skip",
      limitParam: "take",
      pageSize: 4,
      items: (page) => page.data,
    }),
  );
  assert.deepEqual(books, BOOKS.slice(2));
  assert.deepEqual(inputs, [{ skip: 2, take: 4 }, { skip: 6, take: 4 }]);
});

Deno.test("paginate: maxPages caps the requests in both styles", async () => {
  const cursor = cursorLeaf();
  assert.deepEqual(
    await collect(paginate(cursor.leaf, { shelf: "a" }, { ...cursorStyle, maxPages: 2 })),
    BOOKS.slice(0, 6),
  );
  assert.equal(cursor.inputs.length, 2);

  const offset = offsetLeaf();
  assert.deepEqual(
    await collect(
      paginate(offset.leaf, {}, {
        style: "offset",
        pageSize: 2,
        maxPages: 1,
        items: (p) => p.data,
      }),
    ),
    BOOKS.slice(0, 2),
  );
  assert.equal(offset.inputs.length, 1);

  await assert.rejects(
    collect(paginate(cursor.leaf, { shelf: "a" }, { ...cursorStyle, maxPages: 0 })),
    RangeError,
  );
  await assert.rejects(
    collect(paginate(offset.leaf, {}, { style: "offset", pageSize: 0, items: (p) => p.data })),
    RangeError,
  );
});

Deno.test("paginate: breaking out early stops further requests", async () => {
  const { leaf, inputs } = cursorLeaf();
  const seen: Book[] = [];
  for await (const book of paginate(leaf, { shelf: "a" }, cursorStyle)) {
    seen.push(book);
    if (book.id === 2) break;
  }
  assert.deepEqual(seen, BOOKS.slice(0, 2));
  assert.equal(inputs.length, 1);

  // Pages are fetched only as items are used: the fourth item needs the second page.
  const lazy = cursorLeaf();
  const iterator = paginate(lazy.leaf, { shelf: "a" }, cursorStyle);
  for (let i = 0; i < 3; i++) await iterator.next();
  assert.equal(lazy.inputs.length, 1);
  await iterator.next();
  assert.equal(lazy.inputs.length, 2);
  await iterator.return();
  assert.equal(lazy.inputs.length, 2);
});

Deno.test("paginate: the signal goes to each page request and aborting stops the iteration", async () => {
  const controller = new AbortController();
  const { leaf, inputs, calls } = cursorLeaf();
  const seen: Book[] = [];
  await assert.rejects(
    (async () => {
      for await (
        const book of paginate(leaf, { shelf: "a" }, { ...cursorStyle, signal: controller.signal })
      ) {
        seen.push(book);
        if (book.id === 3) controller.abort();
      }
    })(),
    isNamed("AbortError"),
  );
  assert.deepEqual(seen, BOOKS.slice(0, 3));
  assert.equal(inputs.length, 1);
  assert.equal(calls[0]?.signal, controller.signal);
});

Deno.test("paginatePages: yields whole pages", async () => {
  const { leaf } = cursorLeaf();
  const pages = await collect(paginatePages(leaf, { shelf: "a" }, cursorStyle));
  assert.deepEqual(pages.map((page) => page.books.length), [3, 3, 1]);
  assert.deepEqual(pages.map((page) => page.next), ["3", "6", null]);
});

Deno.test("paginate: types are inferred from the leaf and the items function", () => {
  const { leaf } = cursorLeaf();
  const books = paginate(leaf, { shelf: "a" }, {
    style: "cursor",
    items: (page) => {
      assertType<Equal<typeof page, CursorPage>>(true);
      return page.books;
    },
    next: (page) => page.next,
  });
  assertType<Equal<typeof books, AsyncGenerator<Book, void, undefined>>>(true);

  const titles = paginate(offsetLeaf().leaf, {}, {
    style: "offset",
    pageSize: 2,
    items: (page) => page.data.map((book) => `#${book.id}`),
  });
  assertType<Equal<typeof titles, AsyncGenerator<string, void, undefined>>>(true);

  const pages = paginatePages(leaf, { shelf: "a" }, cursorStyle);
  assertType<Equal<typeof pages, AsyncGenerator<CursorPage, void, undefined>>>(true);

  // The input is checked against the leaf's input type, not inferred from it.
  // @ts-expect-error `shelf` is required by the leaf
  paginate(leaf, {}, cursorStyle);
  // @ts-expect-error `shelf` is a string
  paginate(leaf, { shelf: 1 }, cursorStyle);
  // @ts-expect-error the items function must take the leaf's page
  paginate(leaf, { shelf: "a" }, {
    style: "offset",
    pageSize: 2,
    items: (page: OffsetPage) => page.data,
  });
});

Deno.test("paginate (integration): a cursor-paged endpoint over the wire", async () => {
  await withServer(
    (request) => {
      const start = Number(new URL(request.url).searchParams.get("cursor") ?? 0);
      const end = start + 3;
      return Response.json({
        books: BOOKS.slice(start, end),
        next: end < BOOKS.length ? String(end) : null,
      });
    },
    async (base) => {
      const send = chain([retry(), timeout({ ms: 10_000 })], fetchSend);
      // A leaf the way the typed client exposes one: (input, callOptions?) => Promise<Page>.
      const listBooks = async (
        input: { cursor?: string },
        options?: CallOptions,
      ): Promise<CursorPage> => {
        const query = input.cursor === undefined ? "" : `?cursor=${input.cursor}`;
        const response = await send(
          makeRequest({ url: `${base}/books${query}`, tags: READ_ONLY, options }),
        );
        return await response.json();
      };
      assert.deepEqual(await collect(paginate(listBooks, {}, cursorStyle)), BOOKS);
    },
  );
});
