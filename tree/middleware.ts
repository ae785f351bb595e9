/**
 * Middleware: a value that wraps the call of a leaf. It sees the context and
 * the raw input, may add typed values to the context for what runs after it
 * (`next({ user })`), may short-circuit by throwing (or by returning a value
 * without calling `next`), and sees the result `next()` resolves to.
 *
 * Middleware is attached explicitly, never inherited: on a leaf with
 * `op(fn, use(a, b))`, or on every leaf of a subtree with `useAll(tree, a)`,
 * a tree transform built on `mapNodes`. It runs in the one call path, so it
 * acts alike on HTTP, GraphQL, MCP and the command line. The first listed is
 * the outermost; `useAll` puts its middleware before the leaf's own.
 *
 * @example
 * ```ts
 * import { api, op, use, type Middleware } from "@ramify/api/tree";
 *
 * const timed: Middleware = async (_call, next) => {
 *   const started = Date.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.log(`took ${Date.now() - started} ms`);
 *   }
 * };
 * const tenant: Middleware<{ tenant: string }> = (call, next) =>
 *   next({ tenant: call.context.request?.headers.get("x-tenant") ?? "public" });
 *
 * const tree = api({
 *   whoami: op((_input, ctx) => ctx.tenant, use(timed, tenant)),
 * });
 * ```
 *
 * @module
 */

import type { AnyMiddleware, HandlerContext, MiddlewareCall, Node } from "./node.ts";
import type { Security } from "./security.ts";

export type { AnyMiddleware, MiddlewareCall } from "./node.ts";
export type {
  ProtectedResource,
  ProtectedResourceMetadata,
  SecuredLeaf,
  Security,
  SecurityScheme,
} from "./security.ts";
import { mapNodes } from "./tags.ts";
import { extended } from "./context.ts";

/**
 * Runs the rest of the chain, with `added` merged over the context; resolves
 * to the handler's result. A middleware that adds required values must pass them.
 *
 * @example
 * ```ts
 * import type { Next } from "@ramify/api/tree";
 *
 * const go = (next: Next<{ user: string }>) => next({ user: "ann" });
 * ```
 */
export type Next<Adds extends object> = Record<never, never> extends Adds
  ? (added?: Adds) => Promise<unknown>
  : (added: Adds) => Promise<unknown>;

/**
 * A middleware: `Adds` are the values it puts in the context for what runs
 * after it, `Needs` the values it expects there already. A guard also carries
 * `security`, which the OpenAPI document shows.
 *
 * @example
 * ```ts
 * import type { Middleware } from "@ramify/api/tree";
 *
 * const audit: Middleware<Record<never, never>, { user: string }> = async (call, next) => {
 *   const result = await next();
 *   console.log(`${call.context.user} called a leaf`);
 *   return result;
 * };
 * ```
 */
export interface Middleware<
  Adds extends object = Record<never, never>,
  Needs extends object = Record<never, never>,
> {
  /** Wraps the call: call `next` to go on, throw to refuse. */
  (call: MiddlewareCall<Needs>, next: Next<Adds>): unknown;
  /** The security requirement this middleware enforces, for the documentation. */
  readonly security?: Security;
}

/** The values a list of middleware adds, together. */
type AddsOf<M extends readonly unknown[]> = M extends readonly [infer H, ...infer R]
  ? (H extends Middleware<infer A, infer _N> ? A : Record<never, never>) & AddsOf<R>
  : Record<never, never>;

/**
 * The meta contribution of {@linkcode use}: the middleware list, and (for the
 * types only) the context values they add, which type the handler's context.
 *
 * @example
 * ```ts
 * import { use, type Use } from "@ramify/api/tree";
 *
 * const none: Use<Record<never, never>> = use();
 * ```
 */
// A type alias, not an interface: only an object type is assignable to meta's index signature.
export type Use<Context> = {
  /** The middleware, outermost first. */
  readonly use: readonly AnyMiddleware[];
  /** Types only: the values the middleware adds to the context. */
  readonly "~context"?: Context;
};

/**
 * Attaches middleware to a leaf: a contribution of `op()`. Several `use`
 * contributions add up, in order. The handler's context is typed with what
 * they add.
 *
 * @example
 * ```ts
 * import { op, use, type Middleware } from "@ramify/api/tree";
 *
 * const user: Middleware<{ user: { id: string } }> = (_call, next) => next({ user: { id: "7" } });
 * const me = op((_input, ctx) => ctx.user.id, use(user));
 * ```
 *
 * @throws {TypeError} when an entry is not a function.
 */
export function use<const M extends readonly AnyMiddleware[]>(...middleware: M): Use<AddsOf<M>> {
  middleware.forEach((entry, index) => {
    if (typeof entry !== "function") {
      throw new TypeError(`use(): middleware ${index + 1} must be a function`);
    }
  });
  return { use: middleware };
}

/**
 * Puts middleware in front of every leaf of a subtree (a tree transform
 * built on `mapNodes`): explicit, and visible in the result's meta, since
 * nothing is inherited. Handlers built before cannot see the added values in
 * their types; they can declare them (`ctx: HandlerContext & { user: User }`).
 *
 * @example
 * ```ts
 * import { api, op, useAll, type Middleware } from "@ramify/api/tree";
 *
 * const log: Middleware = (_call, next) => next();
 * const admin = useAll(api({ stats: op(() => 42) }), log);
 * ```
 *
 * @throws {TypeError} when an entry is not a function.
 */
export function useAll<T extends Node>(tree: T, ...middleware: readonly AnyMiddleware[]): T {
  use(...middleware);
  return mapNodes(tree, (node, path) => {
    if (typeof node.handler !== "function") return node;
    const own = middlewareOf(node);
    const placed = middleware.map((entry) => placedAt(entry, path, node));
    return Object.freeze({
      ...node,
      meta: Object.freeze({ ...node.meta, use: Object.freeze([...placed, ...own]) }),
    });
  }) as T;
}

/**
 * The method by which a middleware given to {@linkcode useAll} is told each
 * leaf's place (its path of names, `{capture}` for a fallback's step), and
 * gives the middleware to put on that leaf: a middleware alone sees the call,
 * never where its leaf sits in the tree (tracing names its spans by it).
 *
 * @example
 * ```ts
 * import { api, atLeaf, op, useAll } from "@ramify/api/tree";
 * import type { Middleware } from "@ramify/api/tree";
 *
 * const where = (path: readonly string[]): Middleware => (_call, next) => next({ leaf: path.join("/") });
 * const placed = Object.assign(where([]), { [atLeaf]: where });
 * const tree = useAll(api({ books: api({ list: op((_input, ctx) => ctx.leaf) }) }), placed);
 * ```
 */
export const atLeaf: unique symbol = Symbol.for("ramify.atLeaf");

/** An entry as it goes on one leaf: placed there when it asks to be. */
function placedAt(entry: AnyMiddleware, path: readonly string[], leaf: Node): AnyMiddleware {
  const place = (entry as { [atLeaf]?: (path: readonly string[], leaf: Node) => AnyMiddleware })[
    atLeaf
  ];
  return typeof place === "function" ? place.call(entry, path, leaf) : entry;
}

/** A node's middleware list, outermost first. */
export function middlewareOf(node: Node): readonly AnyMiddleware[] {
  const list = node.meta?.use;
  return Array.isArray(list) ? list as AnyMiddleware[] : [];
}

/**
 * The guards' security requirements of a leaf, in chain order: what the
 * OpenAPI document lists under the operation's `security`.
 *
 * @example
 * ```ts
 * import { op, use } from "@ramify/api/tree";
 * import { securityOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(securityOf(op(() => 1, use()))); // []
 * ```
 */
export function securityOf(node: Node): readonly Security[] {
  return middlewareOf(node).flatMap((entry) =>
    entry.security === undefined ? [] : [entry.security]
  );
}

/**
 * Wraps a prepared call in a leaf's middleware. Each `next` merges what it is
 * given over a copy of the context, and may run once.
 */
export function chained(
  leaf: Node,
  middleware: readonly AnyMiddleware[],
  run: (input: unknown, context: HandlerContext) => unknown,
): (input: unknown, context: HandlerContext) => Promise<unknown> {
  return (input, context) => {
    const step = (index: number, current: HandlerContext): Promise<unknown> => {
      if (index === middleware.length) return settle(() => run(input, current));
      let called = false;
      const next = (added?: object): Promise<unknown> => {
        if (called) return Promise.reject(new Error("next() was called twice by one middleware"));
        called = true;
        return step(index + 1, extended(current, added));
      };
      return settle(() =>
        (middleware[index] as Middleware<object>)({ context: current, input, leaf }, next)
      );
    };
    return step(0, context);
  };
}

function settle(run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
