/**
 * Pagination helpers for the typed HTTP client: walk every page of a paged
 * operation as one async iteration of its items (`paginate`) or of its pages
 * (`paginatePages`), in cursor or offset style.
 *
 * Unlike the other modules here this is not a `ClientExtension`: it calls a
 * client leaf, `(input, callOptions?) => Promise<Page>`, once per page, so
 * every page request goes through the client's whole extension chain
 * (`[retry(), timeout(), interceptors(...), logging()]`) like any call.
 * Pages are fetched lazily, one when the previous one is used up, so breaking
 * out of the loop stops the requests.
 *
 * @example
 * ```ts
 * import { paginate } from "@ramify/api/http/extensions/pagination";
 *
 * type Page = { items: string[]; next?: string };
 * const listBooks = (input: { cursor?: string }): Promise<Page> =>
 *   Promise.resolve(input.cursor ? { items: ["b"] } : { items: ["a"], next: "2" });
 *
 * for await (const title of paginate(listBooks, {}, {
 *   style: "cursor",
 *   items: (page) => page.items,
 *   next: (page) => page.next,
 * })) {
 *   console.log(title); // "a", then "b"
 * }
 * ```
 *
 * @module
 */

import type { CallOptions } from "../extension.ts";

/**
 * Cursor pagination: each page names the cursor of the next, sent back in the
 * `cursorParam` input field. The first request uses the input as given (so a
 * cursor in it resumes from there).
 *
 * @example
 * ```ts
 * import type { CursorPagination } from "@ramify/api/http/extensions/pagination";
 *
 * type Page = { data: number[]; nextCursor: string | null };
 * const options: CursorPagination<Page, number> = {
 *   style: "cursor",
 *   cursorParam: "after",
 *   items: (page) => page.data,
 *   next: (page) => page.nextCursor,
 * };
 * ```
 */
export interface CursorPagination<Page, Item> {
  /** The style. */
  readonly style: "cursor";
  /** The input field the cursor goes in (default `"cursor"`). */
  readonly cursorParam?: string;
  /** The items of a page. */
  readonly items: (page: Page) => readonly Item[];
  /** The cursor of the next page; `undefined`, `null` or `""` when this one is the last. */
  readonly next: (page: Page) => string | undefined | null;
  /** Stop after this many pages, whatever the server says (default: no limit). */
  readonly maxPages?: number;
  /** Aborts the iteration and the page request in flight. */
  readonly signal?: AbortSignal;
}

/**
 * Offset pagination: pages of `pageSize` items, asked for with the
 * `offsetParam` and `limitParam` input fields. The first offset is the
 * input's own `offsetParam` when it is a number, else 0. Iteration ends on a
 * page shorter than `pageSize` (an empty one included), or once `total`
 * items have been reached.
 *
 * @example
 * ```ts
 * import type { OffsetPagination } from "@ramify/api/http/extensions/pagination";
 *
 * type Page = { rows: string[]; count: number };
 * const options: OffsetPagination<Page, string> = {
 *   style: "offset",
 *   offsetParam: "skip",
 *   limitParam: "take",
 *   pageSize: 50,
 *   items: (page) => page.rows,
 *   total: (page) => page.count,
 * };
 * ```
 */
export interface OffsetPagination<Page, Item> {
  /** The style. */
  readonly style: "offset";
  /** The input field of the offset (default `"offset"`). */
  readonly offsetParam?: string;
  /** The input field of the page size (default `"limit"`). */
  readonly limitParam?: string;
  /** Items asked for per page (a positive integer). */
  readonly pageSize: number;
  /** The items of a page. */
  readonly items: (page: Page) => readonly Item[];
  /** The total number of items, when the server tells it: saves the final empty request. */
  readonly total?: (page: Page) => number;
  /** Stop after this many pages, whatever the server says (default: no limit). */
  readonly maxPages?: number;
  /** Aborts the iteration and the page request in flight. */
  readonly signal?: AbortSignal;
}

/**
 * How to walk the pages of an operation: {@linkcode CursorPagination} or
 * {@linkcode OffsetPagination}.
 *
 * @example
 * ```ts
 * import type { PaginationOptions } from "@ramify/api/http/extensions/pagination";
 *
 * const options: PaginationOptions<{ list: string[] }, string> = {
 *   style: "offset",
 *   pageSize: 20,
 *   items: (page) => page.list,
 * };
 * ```
 */
export type PaginationOptions<Page, Item> =
  | CursorPagination<Page, Item>
  | OffsetPagination<Page, Item>;

/**
 * Every item of a paged operation, page after page.
 *
 * `Item` is inferred from `options.items`, and the input must be of the
 * leaf's input type. Each page is requested with `{ signal: options.signal }`
 * as call options.
 *
 * @param leaf the paged operation, typically a leaf of the typed client
 * @param input the input of the first request
 * @param options the pagination style and limits
 * @returns an async iterator over the items
 * @throws {RangeError} on the first step, for a `pageSize` or `maxPages` that
 * is not a positive integer (`maxPages` may also be `Infinity`)
 *
 * @example The first 100 items at most, 25 per request
 * ```ts
 * import { paginate } from "@ramify/api/http/extensions/pagination";
 *
 * type Book = { id: number };
 * const listBooks = async (input: { offset?: number; limit?: number }) => ({
 *   books: Array.from({ length: input.limit ?? 10 }, (_, i): Book => ({
 *     id: (input.offset ?? 0) + i,
 *   })),
 * });
 *
 * const books: Book[] = [];
 * for await (
 *   const book of paginate(listBooks, {}, {
 *     style: "offset",
 *     pageSize: 25,
 *     maxPages: 4,
 *     items: (page) => page.books,
 *   })
 * ) books.push(book);
 * console.log(books.length); // 100
 * ```
 */
export async function* paginate<Input, Page, Item>(
  leaf: (input: Input, options?: CallOptions) => Promise<Page>,
  input: NoInfer<Input>,
  options: PaginationOptions<Page, Item>,
): AsyncGenerator<Item, void, undefined> {
  for await (const page of paginatePages(leaf, input, options)) yield* options.items(page);
}

/**
 * Every page of a paged operation: {@linkcode paginate} without flattening, for
 * when the page carries more than its items (totals, facets).
 *
 * @param leaf the paged operation, typically a leaf of the typed client
 * @param input the input of the first request
 * @param options the pagination style and limits
 * @returns an async iterator over the pages
 * @throws {RangeError} on the first step, for a `pageSize` or `maxPages` that
 * is not a positive integer (`maxPages` may also be `Infinity`)
 *
 * @example
 * ```ts
 * import { paginatePages } from "@ramify/api/http/extensions/pagination";
 *
 * type Page = { users: string[]; next: string | null };
 * const listUsers = async (input: { cursor?: string }): Promise<Page> =>
 *   input.cursor === undefined ? { users: ["ann"], next: "p2" } : { users: ["bo"], next: null };
 *
 * for await (
 *   const page of paginatePages(listUsers, {}, {
 *     style: "cursor",
 *     items: (page) => page.users,
 *     next: (page) => page.next,
 *   })
 * ) console.log(page.users.length);
 * ```
 */
export async function* paginatePages<Input, Page, Item>(
  leaf: (input: Input, options?: CallOptions) => Promise<Page>,
  input: NoInfer<Input>,
  options: PaginationOptions<Page, Item>,
): AsyncGenerator<Page, void, undefined> {
  const maxPages = options.maxPages ?? Infinity;
  if (maxPages !== Infinity && !isPositiveInteger(maxPages)) {
    throw new RangeError(`paginate: maxPages must be a positive integer, got ${maxPages}`);
  }
  const { signal } = options;
  const call: CallOptions = signal === undefined ? {} : { signal };
  // The leaf's input type is not known to have the paging fields: they are
  // set on a plain copy, which the leaf is trusted to accept.
  // A leaf whose input is all optional may be given `undefined`.
  const fields = (input ?? {}) as Record<string, unknown>;
  const send = (values: Record<string, unknown>) => {
    signal?.throwIfAborted();
    return leaf({ ...fields, ...values } as Input, call);
  };

  if (options.style === "cursor") {
    const param = options.cursorParam ?? "cursor";
    let values: Record<string, unknown> = {};
    for (let pages = 0; pages < maxPages; pages++) {
      const page = await send(values);
      yield page;
      const cursor = options.next(page);
      if (cursor === undefined || cursor === null || cursor === "") return;
      values = { [param]: cursor };
    }
    return;
  }

  const { pageSize } = options;
  if (!isPositiveInteger(pageSize)) {
    throw new RangeError(`paginate: pageSize must be a positive integer, got ${pageSize}`);
  }
  const offsetParam = options.offsetParam ?? "offset";
  const limitParam = options.limitParam ?? "limit";
  const first = fields[offsetParam];
  let offset = typeof first === "number" ? first : 0;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await send({ [offsetParam]: offset, [limitParam]: pageSize });
    yield page;
    const count = options.items(page).length;
    offset += count;
    if (count < pageSize) return;
    if (options.total !== undefined && offset >= options.total(page)) return;
  }
}

function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}
