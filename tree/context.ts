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
