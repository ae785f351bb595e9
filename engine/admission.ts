/**
 * Where a call is let through: the moment a long-running leaf's guards and
 * input schema have admitted a call, which a task runtime waits on to keep
 * the task (owned by whom the guards established), and the guards alone run
 * for a caller coming back to what a call left behind.
 *
 * Internal: not a public subpath. Used by the task runtime and its owners.
 *
 * @module
 */

import { type Admission, ADMITTED } from "../tree/call.ts";
import { chained, middlewareOf } from "../tree/middleware.ts";
import type { HandlerContext, Node } from "../tree/node.ts";

/**
 * The context, told to call `admitted` once the leaf's guards and input
 * schema have let a call of a long-running leaf through, just before its
 * handler runs, with the context the guards made (their `user`: the task's
 * owner): what a task runtime waits on, so that a caller they refuse is
 * answered as for any call, not with a task. The handler begins once a
 * promise `admitted` gives resolves; a rejection is the call's failure. Kept
 * through middleware that extends the context; read only by long-running
 * leaves' calls.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall } from "@ramify/api/tree/catalogue";
 * import { onAdmitted } from "./admission.ts";
 *
 * let admitted = false;
 * const call = createCall(op(() => "done", { tags: { longRunning: true } }));
 * await call({}, onAdmitted({}, () => void (admitted = true)));
 * console.log(admitted); // true
 * ```
 */
export function onAdmitted<C extends HandlerContext>(context: C, admitted: Admission): C {
  Object.defineProperty(context, ADMITTED, { value: admitted, configurable: true });
  return context;
}

/**
 * The context a leaf's middleware (its guards) make for a caller, its
 * handler not run: how a way back to what a call left behind (a task's
 * status, its answer, its cancel) runs the starting leaf's guards for the
 * caller. A refusal rejects, as the call would have been refused.
 *
 * @example
 * ```ts
 * import { type Middleware, op, use } from "@ramify/api/tree";
 * import { admit } from "./admission.ts";
 *
 * const named: Middleware<{ user: string }> = (_call, next) => next({ user: "ann" });
 * const context = await admit(op(() => 1, use(named)), {});
 * console.log(context.user); // "ann"
 * ```
 */
export function admit(leaf: Node, context: HandlerContext): Promise<HandlerContext> {
  let guards = admissions.get(leaf);
  if (guards === undefined) {
    const middleware = middlewareOf(leaf);
    guards = middleware.length === 0
      ? (_input, given) => Promise.resolve(given)
      : chained(leaf, middleware, (_input, given) => given);
    admissions.set(leaf, guards);
  }
  return guards({}, context) as Promise<HandlerContext>;
}

/** Each leaf's guards alone, chained once. */
const admissions = new WeakMap<
  Node,
  (input: unknown, context: HandlerContext) => Promise<unknown>
>();
