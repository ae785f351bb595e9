/**
 * TanStack Query over a typed client, HTTP or GraphQL:
 * `createQueryUtils(client)` mirrors the tree, each leaf with `.key()` and
 * the options of its kind (`queryOptions`, `infiniteOptions`,
 * `streamedOptions`, `mutationOptions`). A mutation's success invalidates the
 * queries of its own subtree, derived from the tree (see `docs/query.md`).
 * `@tanstack/query-core` is an optional peer, imported as types only: the
 * options work with React, Vue, Solid and Svelte Query alike.
 *
 * @example
 * ```ts
 * import { api, createClient, createFetch, op } from "@ramify/api";
 * import { createQueryUtils } from "@ramify/api/query";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const queries = createQueryUtils(createClient(tree, { fetch: createFetch(tree) }));
 * console.log(queries.ping.key()); // ["ramify", "ping"]
 * ```
 *
 * @module
 */

export { createQueryUtils } from "./utils.ts";
export type { QueryUtilsOptions } from "./utils.ts";
export type {
  ClientKind,
  InvalidationMeta,
  LeafInfiniteOptions,
  LeafMutationOptions,
  LeafQueryOptions,
  LeafUtils,
  MutationLeafUtils,
  PagesOf,
  QueryErrorOf,
  QueryUtils,
  ReadLeafUtils,
  StreamLeafUtils,
} from "./types.ts";
