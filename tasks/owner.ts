/**
 * Who a task belongs to by default, one rule for every surface, so that a
 * runtime shared by HTTP, GraphQL, MCP and the command line finds a caller's
 * tasks from any of them.
 *
 * @module
 */

import type { HandlerContext } from "../tree/node.ts";

/**
 * The identity a call's tasks belong to by default: the context's `user` (a
 * string, or its `id` or `sub`), else the `Authorization` header (of
 * `headers`, or of the context's request); none for an anonymous call, whose
 * tasks anyone holding the id may read. A store keeps only its fingerprint.
 *
 * @example
 * ```ts
 * import { defaultTaskOwner } from "@ramify/api/tasks";
 *
 * console.log(defaultTaskOwner({ user: { sub: "ann" } })); // "user:ann"
 * console.log(defaultTaskOwner({}, new Headers({ authorization: "Bearer t" }))); // "authorization:Bearer t"
 * console.log(defaultTaskOwner({})); // undefined
 * ```
 */
export function defaultTaskOwner(context: HandlerContext, headers?: Headers): string | undefined {
  const user = context.user as unknown;
  if (typeof user === "string") return `user:${user}`;
  if (typeof user === "object" && user !== null) {
    const { id, sub } = user as { id?: unknown; sub?: unknown };
    const named = id ?? sub;
    if (typeof named === "string" || typeof named === "number") return `user:${named}`;
  }
  const authorization = (headers ?? (context.request as Request | undefined)?.headers)
    ?.get("authorization");
  return authorization === null || authorization === undefined
    ? undefined
    : `authorization:${authorization}`;
}
