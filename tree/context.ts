/**
 * Putting values into a handler's context: the servers' `context` options and
 * middleware's `next(values)` all go through here, so they agree on how (own
 * enumerable properties, copied as they are: a getter stays lazy).
 *
 * Internal: not a public subpath. Used by the call path's middleware, the
 * HTTP, GraphQL, MCP and command-line servers.
 *
 * @module
 */

import type { HandlerContext } from "./node.ts";

/** Defines `added`'s own enumerable properties on `target`, descriptors and all; `target` is changed. */
export function assignOwn<T extends object>(target: T, added: unknown): T {
  if (typeof added !== "object" || added === null) return target;
  for (const key of Object.keys(added)) {
    const descriptor = Object.getOwnPropertyDescriptor(added, key)!;
    Object.defineProperty(target, key, { ...descriptor, configurable: true, enumerable: true });
  }
  return target;
}

/**
 * The context with `added`'s own values over it, as a copy with the same
 * prototype and descriptors (getters such as a lazy `signal` keep working):
 * the caller's context is left as it was.
 */
export function extended(context: HandlerContext, added: unknown): HandlerContext {
  if (typeof added !== "object" || added === null) return context;
  const copy = Object.create(
    Object.getPrototypeOf(context),
    Object.getOwnPropertyDescriptors(context),
  ) as HandlerContext;
  return assignOwn(copy, added);
}

/**
 * The surface a call came through.
 *
 * @example
 * ```ts
 * import type { Surface } from "@ramify/api/tree";
 *
 * const textual: Surface[] = ["mcp", "cli"];
 * ```
 */
export type Surface = NonNullable<HandlerContext["surface"]>;

/**
 * What a server knows of a call when it makes its context: the surface, the
 * web request where the transport has one (HTTP, GraphQL over HTTP, the
 * WebSocket's upgrade request, MCP over HTTP), and a GraphQL WebSocket's
 * `connectionParams`.
 *
 * @example
 * ```ts
 * import type { ContextSource } from "@ramify/api/tree";
 *
 * const tenantOf = (source: ContextSource) => source.request?.headers.get("x-tenant") ?? "public";
 * ```
 */
export interface ContextSource {
  /** Which surface the call came through. */
  readonly surface: Surface;
  /** The web request, where the transport has one (MCP over stdio and the CLI have none). */
  readonly request?: Request;
  /** What a GraphQL WebSocket client sent in `connection_init`. */
  readonly connectionParams?: Readonly<Record<string, unknown>>;
}

/**
 * What a server that always has a web request tells its context function (the
 * HTTP router, `createFetch`, GraphQL over HTTP): `request` is always there.
 *
 * @example
 * ```ts
 * import type { ContextFunction, RequestContextSource } from "@ramify/api/tree";
 *
 * const context: ContextFunction<RequestContextSource> = ({ request }) => ({
 *   tenant: request.headers.get("x-tenant"),
 * });
 * ```
 */
export interface RequestContextSource extends ContextSource {
  /** The web request. */
  readonly request: Request;
}

/**
 * Makes the values handlers and middleware see in their context, beside
 * `request` and `signal`: the `context` option of every server (HTTP, GraphQL
 * over HTTP and WebSocket, MCP over HTTP and stdio, the command line, and
 * `serve`). It may be asynchronous; an `HttpError` it throws is the answer.
 *
 * @typeParam S what the server tells it: `ContextSource`, or a narrower one
 *   (the HTTP router's always has a `request`)
 *
 * @example
 * ```ts
 * import type { ContextFunction } from "@ramify/api/tree";
 *
 * const context: ContextFunction = ({ request }) => ({
 *   tenant: request?.headers.get("x-tenant") ?? "public",
 * });
 * ```
 */
export type ContextFunction<S extends ContextSource = ContextSource> = (
  source: S,
) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
