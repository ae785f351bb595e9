/**
 * Who a task belongs to, and who may come back to it: one rule for every
 * surface. A task is owned by the principal its starting leaf's guards
 * established (`principalOf`, or the server's `taskOwner` of the context the
 * guards made), decided when the guards let the call through; every way back
 * to it (its status, result, answer, cancel, watch) runs the same leaf's
 * guards for the caller, so a renewed token of the same principal finds it,
 * an expired one gets the guard's refusal, and anyone else finds nothing.
 *
 * @module
 */

import { admit } from "../engine/admission.ts";
import { HttpError } from "../tree/http_error.ts";
import { securityOf } from "../tree/middleware.ts";
import type { HandlerContext, Node } from "../tree/node.ts";
import { principalOf } from "../tree/principal.ts";

/**
 * Who a call speaks for, for its tasks: a server's `taskOwner` option, read
 * from the context the leaf's guards made (their `user`); `undefined` is the
 * anonymous caller. Default `principalOf`.
 *
 * @example
 * ```ts
 * import type { TaskOwner } from "@ramify/api/tasks";
 *
 * const byTenant: TaskOwner = (context) => context.tenant as string | undefined;
 * ```
 */
export type TaskOwner = (
  context: HandlerContext,
) => string | undefined | Promise<string | undefined>;

/**
 * Who asks for a task: an identity as it is (`undefined` for the anonymous
 * caller), or the way to find the caller's identity for the task's leaf (by
 * its label), `undefined` when it may see no task of that leaf.
 *
 * @example
 * ```ts
 * import type { TaskCaller } from "@ramify/api/tasks";
 *
 * const ann: TaskCaller = "user-7";
 * const byLeaf: TaskCaller = (leaf) => Promise.resolve(leaf === "reindex" ? { owner: "user-7" } : undefined);
 * ```
 */
export type TaskCaller =
  | string
  | undefined
  | ((leaf: string) => Promise<{ readonly owner: string | undefined } | undefined>);

/**
 * The caller of a task resource, as its surface knows it (`context`, made as
 * a call's is): for the task's leaf (`leafOf` finds it by label), its guards
 * run for the caller and its identity is what they established. A refusal is
 * thrown (a token expired: 401; short of a scope: 403), except for a caller
 * that brought no credential, which finds no task (it must not learn that
 * the id exists); a leaf `leafOf` does not know shows nothing.
 *
 * @example
 * ```ts
 * import { api, type Middleware, op, use } from "@ramify/api/tree";
 * import { catalogueOf } from "@ramify/api/tree/catalogue";
 * import { taskCaller } from "@ramify/api/tasks";
 *
 * const ann: Middleware<{ user: string }> = (_call, next) => next({ user: "ann" });
 * const tree = api({ reindex: op(() => 1, use(ann), { tags: { longRunning: true } }) });
 * const leaves = new Map(catalogueOf(tree).entries.map((entry) => [entry.label, entry.leaf]));
 * const caller = taskCaller((label) => leaves.get(label), {});
 * console.log(typeof caller === "function" && await caller("reindex")); // { owner: '["user","ann"]' }
 * ```
 */
export function taskCaller(
  leafOf: (label: string) => Node | undefined,
  context: HandlerContext,
  owner: TaskOwner = principalOf,
): TaskCaller {
  // Once per label: a watch reads the task at every change.
  const known = new Map<string, Promise<{ readonly owner: string | undefined } | undefined>>();
  return (label) => {
    let found = known.get(label);
    if (found === undefined) known.set(label, found = identify(label));
    return found;
  };
  async function identify(label: string) {
    const leaf = leafOf(label);
    if (leaf === undefined) return undefined;
    let admitted: HandlerContext;
    try {
      admitted = await admit(leaf, context);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401 && !credentialed(leaf, context)) {
        return undefined;
      }
      throw error;
    }
    return { owner: await owner(admitted) };
  }
}

/**
 * Whether a call brings any credential the leaf's guards read: an
 * `Authorization` header (or a GraphQL WebSocket's `authorization`
 * connection parameter), or a header, cookie or query parameter an API key
 * scheme names.
 */
function credentialed(leaf: Node, context: HandlerContext): boolean {
  const request = context.request as Request | undefined;
  const params = context.connectionParams as Record<string, unknown> | undefined;
  const given = (name: string) =>
    request?.headers.has(name) === true ||
    (typeof params === "object" && params !== null &&
      Object.keys(params).some((key) => key.toLowerCase() === name));
  if (given("authorization")) return true;
  for (const { scheme } of securityOf(leaf)) {
    if (scheme.type !== "apiKey" || typeof scheme.name !== "string") continue;
    const name = scheme.name;
    if (scheme.in === "header" && given(name.toLowerCase())) return true;
    if (scheme.in === "query" && request !== undefined) {
      if (new URL(request.url, "http://localhost").searchParams.has(name)) return true;
    }
    if (scheme.in === "cookie") {
      const cookies = (request?.headers.get("cookie") ?? "").split(";");
      if (cookies.some((part) => part.trim().startsWith(`${name}=`))) return true;
    }
  }
  return false;
}
