/**
 * The types of the query utils, worked out from a client's type (so from the
 * tree): each leaf's input, what it resolves to, and its declared error union
 * as the query's error type. TanStack Query's types are imported as types
 * only: the utils never load `@tanstack/query-core` at run time.
 *
 * @example
 * ```ts
 * import type { QueryUtils } from "@ramify/api/query";
 * import type { Client } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * type Utils = QueryUtils<Client<typeof tree>>; // { ping: { key, queryOptions, ... } }
 * ```
 *
 * @module
 */

import type {
  DataTag,
  InfiniteData,
  InfiniteQueryObserverOptions,
  MutationMeta,
  MutationOptions,
  QueryKey,
  QueryObserverOptions,
} from "@tanstack/query-core";
import type { ClientErrorFrom } from "../client/client_types.ts";
import type { CursorPagination, OffsetPagination } from "../client/extensions/pagination.ts";
import type { GraphQLClientErrorFrom } from "../graphql/client/safe.ts";

/**
 * Which client the utils wrap, for the error type of its queries: `"http"`
 * (a `ClientError` union) or `"graphql"` (a `GraphQLClientError` union).
 *
 * @example
 * ```ts
 * import type { ClientKind } from "@ramify/api/query";
 *
 * const kind: ClientKind = "graphql";
 * ```
 */
export type ClientKind = "http" | "graphql";

/**
 * The error a leaf's query or mutation fails with: its declared errors,
 * narrowing on `code`, and one member with `code: undefined` for the rest.
 *
 * @example
 * ```ts
 * import type { QueryErrorOf } from "@ramify/api/query";
 *
 * const code = (error: QueryErrorOf<{ NOT_FOUND: { status: 404 } }>) => error.code;
 * ```
 */
export type QueryErrorOf<D, K extends ClientKind = "http"> = K extends "graphql"
  ? GraphQLClientErrorFrom<D>
  : ClientErrorFrom<D>;

/**
 * How a paged leaf walks its pages, as `paginate()` of
 * `@ramify/api/http/extensions/pagination` reads them: a cursor named by each
 * page, or offsets of `pageSize` items.
 *
 * @example
 * ```ts
 * import type { PagesOf } from "@ramify/api/query";
 *
 * const pages: PagesOf<{ items: string[]; next?: string }> = {
 *   style: "cursor",
 *   next: (page) => page.next,
 * };
 * ```
 */
export type PagesOf<R> =
  | Pick<CursorPagination<R, unknown>, "style" | "cursorParam" | "next">
  | Pick<
    OffsetPagination<R, unknown>,
    "style" | "offsetParam" | "limitParam" | "pageSize" | "items" | "total"
  >;

/** The `input` field: optional when the leaf's input may be left out. */
type InputField<I, Optional extends boolean> = Optional extends true ? { readonly input?: I }
  : { readonly input: I };

/**
 * The options of a readOnly leaf's query, for `useQuery`, `fetchQuery` or a
 * `QueryObserver`: its key tagged with its data and error types.
 *
 * @example
 * ```ts
 * import type { LeafQueryOptions } from "@ramify/api/query";
 *
 * type Options = LeafQueryOptions<string[], Error>;
 * ```
 */
export type LeafQueryOptions<R, E, TData = R> =
  & QueryObserverOptions<R, E, TData, R, QueryKey>
  & { readonly queryKey: DataTag<QueryKey, R, E> };

/**
 * The options of a paged leaf's infinite query, for `useInfiniteQuery` or an
 * `InfiniteQueryObserver`.
 *
 * @example
 * ```ts
 * import type { LeafInfiniteOptions } from "@ramify/api/query";
 *
 * type Options = LeafInfiniteOptions<{ items: string[] }, Error, number>;
 * ```
 */
export type LeafInfiniteOptions<R, E, P> =
  & InfiniteQueryObserverOptions<R, E, InfiniteData<R, P>, QueryKey, P>
  & { readonly queryKey: DataTag<QueryKey, InfiniteData<R, P>, E> };

/**
 * What a mutation's `meta` may hold: `invalidates` replaces the invalidation
 * derived from the tree (`false`: none; a list: these key prefixes).
 *
 * @example
 * ```ts
 * import type { InvalidationMeta } from "@ramify/api/query";
 *
 * const meta: InvalidationMeta = { invalidates: [["ramify", "catalog"]] };
 * ```
 */
export interface InvalidationMeta {
  /** The key prefixes a success invalidates instead of the derived ones; `false` for none. */
  readonly invalidates?: false | readonly QueryKey[];
}

/**
 * The options of a leaf's mutation, for `useMutation` or a `MutationObserver`.
 *
 * @example
 * ```ts
 * import type { LeafMutationOptions } from "@ramify/api/query";
 *
 * type Options = LeafMutationOptions<{ id: string }, Error, { title: string }>;
 * ```
 */
export type LeafMutationOptions<R, E, V, M = unknown> = MutationOptions<R, E, V, M> & {
  readonly mutationKey: QueryKey;
};

/**
 * The utils of a leaf that reads (`readOnly`): its key, its query, and its
 * infinite query when paged.
 *
 * @example
 * ```ts
 * import type { ReadLeafUtils } from "@ramify/api/query";
 *
 * const keyOf = (utils: ReadLeafUtils<{ q: string }, string[], Error, false>) =>
 *   utils.key({ q: "dune" });
 * ```
 */
export interface ReadLeafUtils<I, R, E, Optional extends boolean> {
  /** The key of the leaf's query for this input; without one, the prefix of all its queries. */
  key(input?: I): QueryKey;
  /** The options of its query. */
  queryOptions<TData = R>(
    options: InputField<I, Optional> & Omit<Partial<LeafQueryOptions<R, E, TData>>, "queryFn">,
  ): LeafQueryOptions<R, E, TData>;
  /**
   * The options of its infinite query: pages asked for as `paginate()` asks
   * for them, a cursor or offsets in the input.
   */
  infiniteOptions<S extends PagesOf<R>>(
    options: InputField<I, Optional> & S,
  ): LeafInfiniteOptions<R, E, S extends { readonly style: "offset" } ? number : string | null>;
}

/**
 * The utils of a leaf that changes state: its key and its mutation, which
 * invalidates the queries the tree says it may have changed.
 *
 * @example
 * ```ts
 * import type { MutationLeafUtils } from "@ramify/api/query";
 *
 * const scope = (utils: MutationLeafUtils<{ title: string }, { id: string }, Error, false>) =>
 *   utils.invalidates();
 * ```
 */
export interface MutationLeafUtils<I, R, E, Optional extends boolean> {
  /** The key of the leaf (its mutations' key); with an input, that call's. */
  key(input?: I): QueryKey;
  /**
   * The options of its mutation; the variables are the leaf's input. On
   * success the derived queries are invalidated (and awaited) before the
   * given `onSuccess` runs; `meta.invalidates` overrides them.
   */
  mutationOptions<M = unknown>(
    options?:
      & Omit<Partial<MutationOptions<R, E, Optional extends true ? I | void : I, M>>, "meta">
      & { readonly meta?: MutationMeta & InvalidationMeta },
  ): LeafMutationOptions<R, E, Optional extends true ? I | void : I, M>;
  /** The key prefixes its success invalidates by the tree's rule. */
  invalidates(): readonly QueryKey[];
}

/**
 * The utils of a streaming leaf: its key and a query whose data is the items
 * received so far, growing as they arrive.
 *
 * @example
 * ```ts
 * import type { StreamLeafUtils } from "@ramify/api/query";
 *
 * const keyOf = (utils: StreamLeafUtils<{ limit?: number }, number, Error, true>) => utils.key();
 * ```
 */
export interface StreamLeafUtils<I, Item, E, Optional extends boolean> {
  /** The key of the leaf's streamed query for this input; without one, the prefix of all. */
  key(input?: I): QueryKey;
  /** The options of its streamed query: the data is every item so far. */
  streamedOptions(
    options: InputField<I, Optional> & Omit<Partial<LeafQueryOptions<Item[], E>>, "queryFn">,
  ): LeafQueryOptions<Item[], E>;
}

/** A client leaf's parts: input, result, declared errors, whether the input may be left out. */
type LeafParts<C> = C extends
  (...args: infer A) => Promise<infer R> & { readonly "~errors"?: infer D }
  ? { input: Exclude<A[0], undefined>; result: R; errors: D; optional: [] extends A ? true : false }
  : never;

/**
 * The utils of a client leaf: a stream's, or (the tags are not in the types)
 * a read's and a mutation's, of which only the leaf's own kind is usable.
 *
 * @example
 * ```ts
 * import type { LeafUtils } from "@ramify/api/query";
 *
 * type Ping = LeafUtils<() => Promise<string>>;
 * ```
 */
export type LeafUtils<C, K extends ClientKind = "http"> = LeafParts<C> extends {
  input: infer I;
  result: infer R;
  errors: infer D;
  optional: infer O extends boolean;
} ? R extends AsyncIterable<infer Item> ? StreamLeafUtils<I, Item, QueryErrorOf<D, K>, O>
  :
    & ReadLeafUtils<I, R, QueryErrorOf<D, K>, O>
    & MutationLeafUtils<I, R, QueryErrorOf<D, K>, O>
  : unknown;

/** A position's own utils: a leaf's when it is one. */
type OwnUtils<C, K extends ClientKind> = C extends (...args: never[]) => infer Ret
  ? Ret extends PromiseLike<unknown> ? LeafUtils<C, K> : unknown
  : unknown;

/** A child's utils: a fallback stays a function of the captured value. */
type ChildUtils<C, K extends ClientKind> = C extends (...args: never[]) => infer Ret
  ? Ret extends PromiseLike<unknown> ? QueryUtils<C, K> : (value: string) => QueryUtils<Ret, K>
  : QueryUtils<C, K>;

/**
 * The query utils of a client: the client's shape, each leaf replaced by its
 * utils (`key`, `queryOptions`, `infiniteOptions`, `streamedOptions`,
 * `mutationOptions`, `invalidates`).
 *
 * @example
 * ```ts
 * import type { QueryUtils } from "@ramify/api/query";
 * import type { Client } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({ books: api({ list: op(() => ["Dune"], { tags: { readOnly: true } }) }) });
 * const keyOf = (utils: QueryUtils<Client<typeof tree>>) => utils.books.list.key();
 * ```
 */
export type QueryUtils<C, K extends ClientKind = "http"> =
  & OwnUtils<C, K>
  // Client types may carry an index of untyped children: only named ones are real.
  & { readonly [P in keyof C as string extends P ? never : P]: ChildUtils<C[P], K> };
