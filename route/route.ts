/**
 * `HttpRoute`: the route tree that `httpProjection` derives from a node tree, and
 * that router compilation, OpenAPI generation and client generation consume.
 *
 * A route is a position in the URL space: static child segments, at most one
 * capture child `{name}`, and the operations served at the position by verb.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { listOperations } from "@ramify/api/http";
 *
 * const route = httpProjection(api({ books: api({ list: op(() => [], http.get) }) }));
 * console.log(listOperations(route).map((o) => `${o.method} ${o.path}`)); // ["GET /books/list"]
 * ```
 *
 * @module
 */

import type { HttpVerb, Leaf, Tags, TreeStep } from "../tree/node.ts";
import type { CatalogueEntry } from "../tree/catalogue.ts";

/**
 * How an operation's result goes on the wire: a single JSON value (or nothing,
 * or a `Response` passed through), a Server-Sent Events stream, or bytes that
 * its output schema declares (`format: "binary"`, zod's `z.file()`). A leaf of
 * any kind that returns bytes (a `Blob`, a buffer, a `ReadableStream`) answers
 * with them; the kind tells what the document and the clients expect.
 *
 * @example
 * ```ts
 * import type { ResponseKind } from "@ramify/api/http";
 *
 * const kind: ResponseKind = "event-stream";
 * ```
 */
export type ResponseKind = "json" | "event-stream" | "bytes";

/**
 * One operation: a leaf served at a path with a verb.
 *
 * @example
 * ```ts
 * import type { HttpOperation } from "@ramify/api/http";
 *
 * function describe(operation: HttpOperation): string {
 *   return `${operation.method} ${operation.path}`;
 * }
 * ```
 */
export interface HttpOperation {
  /** The verb it answers. */
  readonly method: HttpVerb;
  /** The path template, captures written `{name}`: `/books/{bookId}`. */
  readonly path: string;
  /** The capture names of the path, in order. */
  readonly params: readonly string[];
  /** Where the leaf sits in the node tree. */
  readonly steps: readonly TreeStep[];
  /** The leaf. */
  readonly node: Leaf<never, unknown, unknown>;
  /** The leaf's own tags with implications applied. */
  readonly tags: Tags;
  /** How the result is encoded. */
  readonly response: ResponseKind;
  /**
   * The leaf as the tree's catalogue describes it, once for every surface:
   * its label, schemas, declared errors and bytes, and its prepared calls.
   */
  readonly entry: CatalogueEntry;
}

/**
 * A position in the route tree.
 *
 * @example
 * ```ts
 * import type { HttpRoute } from "@ramify/api/http";
 *
 * const empty: HttpRoute = { children: {}, methods: {} };
 * ```
 */
export interface HttpRoute {
  /** Static child segments by name (not percent-encoded). */
  readonly children: Readonly<Record<string, HttpRoute>>;
  /** The capture child, written `{name}` in paths. */
  readonly param?: { readonly name: string; readonly route: HttpRoute };
  /** The operations at this position, by verb. */
  readonly methods: Readonly<Partial<Record<HttpVerb, HttpOperation>>>;
}

/**
 * Every operation of a route tree, depth first: a position's own operations,
 * then its static children in authored order, then its capture child.
 *
 * @example
 * ```ts
 * import { listOperations, type HttpRoute } from "@ramify/api/http";
 *
 * const route: HttpRoute = { children: {}, methods: {} };
 * console.log(listOperations(route)); // []
 * ```
 */
export function listOperations(route: HttpRoute): HttpOperation[] {
  const operations: HttpOperation[] = [];
  const visit = (position: HttpRoute) => {
    for (const operation of Object.values(position.methods)) {
      if (operation !== undefined) operations.push(operation);
    }
    for (const child of Object.values(position.children)) visit(child);
    if (position.param !== undefined) visit(position.param.route);
  };
  visit(route);
  return operations;
}
