/**
 * `createQueryUtils(client)`: TanStack Query options mirroring a typed client
 * (HTTP or GraphQL), so React, Vue, Solid and Svelte Query all take them.
 * Each leaf has `.key(input?)`; a `readOnly` leaf `.queryOptions()` and
 * `.infiniteOptions()`, a streaming leaf `.streamedOptions()`, any other
 * `.mutationOptions()`, whose success invalidates the queries the tree says it
 * may have changed (see `docs/query.md`). Nothing here loads TanStack Query:
 * the options are plain objects, the `QueryClient` is the caller's.
 *
 * @example
 * ```ts ignore
 * import { QueryClient } from "@tanstack/query-core";
 * import { createClientFromManifest } from "@ramify/api/client";
 * import { createQueryUtils } from "@ramify/api/query";
 * import type { Bookstore } from "./bookstore.ts";
 * import { routes } from "./bookstore_routes.ts";
 *
 * const queries = createQueryUtils(createClientFromManifest<Bookstore>(routes));
 * const queryClient = new QueryClient();
 * const books = await queryClient.fetchQuery(queries.books.list.queryOptions({}));
 * ```
 *
 * @module
 */

import type { MutationFunctionContext, Query, QueryFunctionContext } from "@tanstack/query-core";
import type { CallOptions } from "../client/extension.ts";
import { invalidationSteps } from "../tree/invalidation.ts";
import { POSITION, type Position } from "../client/shape.ts";
import type { ClientKind, InvalidationMeta, PagesOf, QueryUtils } from "./types.ts";

/**
 * Options of {@linkcode createQueryUtils}.
 *
 * @example
 * ```ts
 * import type { QueryUtilsOptions } from "@ramify/api/query";
 *
 * const opts: QueryUtilsOptions<"graphql"> = { prefix: "shop", client: "graphql" };
 * ```
 */
export interface QueryUtilsOptions<K extends ClientKind = "http"> {
  /** The first element of every key, to tell two APIs apart in one cache. Default `"ramify"`. */
  readonly prefix?: string;
  /** Which client this is, for the queries' error type (types only). Default `"http"`. */
  readonly client?: K;
}

type Key = readonly unknown[];
type Call = (input?: Record<string, unknown>, options?: CallOptions) => Promise<unknown>;
type Input = Record<string, unknown> | undefined;

/** The node above the innermost captured value: its key and its static names. */
interface Collection {
  readonly key: Key;
  readonly names: readonly string[];
}

/**
 * The query utils of a typed client (`createClient`, `createClientFromManifest`,
 * `createGraphQLClient`, ...): the client's shape, each leaf with `.key()` and
 * its kind's options. Keys are `[prefix, ...path, input]`, a captured value
 * as `{ name: value }`: `["ramify", "books", { bookId: "1" }, "read", {}]`.
 *
 * @example
 * ```ts
 * import { api, createClient, createFetch, op } from "@ramify/api";
 * import { createQueryUtils } from "@ramify/api/query";
 *
 * const tree = api({
 *   books: api({
 *     list: op(() => ["Dune"], { tags: { readOnly: true } }),
 *     add: op(({ title }: { title: string }) => title),
 *   }),
 * });
 * const queries = createQueryUtils(createClient(tree, { fetch: createFetch(tree) }));
 * console.log(queries.books.list.queryOptions({}).queryKey); // ["ramify", "books", "list", {}]
 * console.log(queries.books.add.invalidates()); // [["ramify", "books"]]
 * ```
 *
 * @throws {TypeError} when `client` is not a client made by this library.
 */
export function createQueryUtils<C, K extends ClientKind = "http">(
  client: C,
  options: QueryUtilsOptions<K> = {},
): QueryUtils<C, K> {
  return utilsOf(client, [options.prefix ?? "ramify"], undefined) as QueryUtils<C, K>;
}

function utilsOf(node: unknown, key: Key, collection: Collection | undefined): unknown {
  const position = (typeof node === "function" || (typeof node === "object" && node !== null))
    ? (node as { [POSITION]?: Position })[POSITION]
    : undefined;
  if (position === undefined) {
    throw new TypeError("createQueryUtils: not a client made by @ramify/api");
  }
  const source = node as Record<string, unknown>;
  const target: Record<string, unknown> = position.tags === undefined
    ? {}
    : leafUtils(node as Call, position, key, collection);
  const names = Object.keys(source);
  for (const name of names) {
    if (name === position.fallback) {
      const statics = { key, names: names.filter((other) => other !== name) };
      const capture = source[name] as (value: string) => unknown;
      target[name] = (value: string) =>
        utilsOf(capture(value), [...key, { [name]: String(value) }], statics);
    } else {
      target[name] = utilsOf(source[name], [...key, name], collection);
    }
  }
  return Object.freeze(target);
}

// Streams are live: invalidating one would restart it, so no rule touches them.
const STREAM = "stream";
const INFINITE = "infinite";
const notStream = (query: Query) => query.queryKey.at(-1) !== STREAM;

function leafUtils(
  call: Call,
  { tags = {}, invalidates: own }: Position,
  key: Key,
  collection: Collection | undefined,
): Record<string, unknown> {
  const label = key.slice(1).map((step) =>
    typeof step === "string" ? step : `{${Object.keys(step as object)[0]}}`
  ).join(".");
  const refuse = (method: string, kind: string) => () => {
    throw new TypeError(`${label}.${method}(): the leaf is ${kind}`);
  };
  const keyOf = (input: Input) => input === undefined ? [...key] : [...key, input];
  const queryKey = (input: Input) => [...key, input ?? {}];
  if (tags.streaming === true) {
    return {
      key: keyOf,
      streamedOptions: ({ input, ...rest }: { input?: Input }) => ({
        ...rest,
        queryKey: [...queryKey(input), STREAM],
        queryFn: (context: QueryFunctionContext) => collect(call, input, context),
      }),
      queryOptions: refuse("queryOptions", "streaming: use streamedOptions()"),
      infiniteOptions: refuse("infiniteOptions", "streaming: use streamedOptions()"),
      mutationOptions: refuse("mutationOptions", "streaming: use streamedOptions()"),
    };
  }
  if (tags.readOnly === true) {
    return {
      key: keyOf,
      queryOptions: ({ input, ...rest }: { input?: Input }) => ({
        ...rest,
        queryKey: queryKey(input),
        queryFn: ({ signal }: QueryFunctionContext) => call(input, { signal }),
      }),
      infiniteOptions: (options: { input?: Input } & PagesOf<unknown>) =>
        infiniteOptions(call, [...queryKey(options.input), INFINITE], options),
      mutationOptions: refuse("mutationOptions", "readOnly: use queryOptions()"),
    };
  }
  const invalidates = (): Key[] =>
    own !== undefined
      // The leaf says (`meta.invalidates`): its paths, under this client's prefix.
      ? own === false ? [] : own.map((path) => keyOfPath(path, key))
      : collection === undefined
      // Not under a captured value: the subtree of the leaf's parent.
      ? [key.slice(0, -1)]
      // Under one: that value's subtree, and the collection's own positions.
      : [
        key.slice(0, collection.key.length + 1),
        ...collection.names.map((name) => [...collection.key, name]),
      ];
  return {
    key: keyOf,
    invalidates,
    mutationOptions: (
      options: {
        meta?: Record<string, unknown> & InvalidationMeta;
        onSuccess?: (...args: unknown[]) => unknown;
      } = {},
    ) => ({
      ...options,
      mutationKey: [...key],
      mutationFn: (input: Input) => call(input ?? {}),
      onSuccess: async (
        data: unknown,
        variables: unknown,
        onMutateResult: unknown,
        context: MutationFunctionContext,
      ) => {
        const chosen = options.meta?.invalidates;
        const prefixes = chosen === false ? [] : chosen ?? invalidates();
        await Promise.all(
          prefixes.map((prefix) =>
            context.client.invalidateQueries({ queryKey: prefix, predicate: notStream })
          ),
        );
        return await options.onSuccess?.(data, variables, onMutateResult, context);
      },
    }),
    queryOptions: refuse("queryOptions", "not readOnly: use mutationOptions()"),
    infiniteOptions: refuse("infiniteOptions", "not readOnly: use mutationOptions()"),
  };
}

/**
 * A tree path (`"books/{bookId}"`) as a key prefix: a `{capture}` is the
 * value this call captured under that name, or, when it captured none, ends
 * the prefix there (every value's queries).
 */
function keyOfPath(path: string, key: Key): Key {
  const prefix: unknown[] = [key[0]];
  for (const step of invalidationSteps(path)) {
    if (typeof step === "string") {
      prefix.push(step);
      continue;
    }
    const captured = key.find((part) =>
      typeof part === "object" && part !== null && Object.hasOwn(part, step.capture)
    );
    if (captured === undefined) break;
    prefix.push(captured);
  }
  return prefix;
}

/** The items of a stream so far, set as the query's data as each arrives. */
async function collect(call: Call, input: Input, context: QueryFunctionContext) {
  const stream = await call(input, { signal: context.signal }) as AsyncIterable<unknown>;
  let items: unknown[] = [];
  context.client.setQueryData(context.queryKey, items);
  for await (const item of stream) {
    items = [...items, item];
    context.client.setQueryData(context.queryKey, items);
  }
  return items;
}

/** Pages asked for as `paginate()` asks: the cursor, or the offset and limit, in the input. */
function infiniteOptions(
  call: Call,
  queryKey: Key,
  { input, ...options }: { input?: Input } & PagesOf<unknown>,
) {
  const given = input ?? {};
  if (options.style === "cursor") {
    const { style: _, cursorParam = "cursor", next, ...rest } = options;
    const first = given[cursorParam];
    return {
      ...rest,
      queryKey,
      initialPageParam: typeof first === "string" ? first : null,
      queryFn: ({ pageParam, signal }: QueryFunctionContext<Key, string | null>) =>
        call(pageParam === null ? given : { ...given, [cursorParam]: pageParam }, { signal }),
      getNextPageParam: (page: unknown) => next(page) || null,
    };
  }
  const {
    style: _,
    offsetParam = "offset",
    limitParam = "limit",
    pageSize,
    items,
    total,
    ...rest
  } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  }
  const first = given[offsetParam];
  return {
    ...rest,
    queryKey,
    initialPageParam: typeof first === "number" ? first : 0,
    queryFn: ({ pageParam, signal }: QueryFunctionContext<Key, number>) =>
      call({ ...given, [offsetParam]: pageParam, [limitParam]: pageSize }, { signal }),
    getNextPageParam: (page: unknown, _pages: unknown[], offset: number) => {
      const count = items(page).length;
      const reached = offset + count;
      if (count < pageSize || (total !== undefined && reached >= total(page))) return null;
      return reached;
    },
  };
}
