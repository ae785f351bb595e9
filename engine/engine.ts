/**
 * The one call engine between the catalogue and every wire: a surface
 * decodes its wire into a leaf's prepared call, an input and a source (a web
 * request, a WebSocket connection, an MCP request, a command line); the
 * engine makes the call's context once (the wire's own values, then the
 * server's `context` option over them) and runs the call (middleware and
 * guards, the input schema, the handler, the output schema) under the
 * server's deadline; the surface encodes what comes back. A long-running
 * leaf's call starts its task in the same way: the runtime keeps the task
 * once the guards have let the call through, owned by whom they established.
 * No surface builds a context or runs a call on its own:
 * tests/architecture_test.ts holds every surface to this module, and counts
 * ({@linkcode engineCounts}) that each call's context is made and the call
 * run here once.
 *
 * Internal: not a public subpath. Used by the HTTP router and its task
 * resources, GraphQL over HTTP and WebSocket and its resolvers, MCP's tools,
 * resources, prompts and tasks, the command line and the task runtime.
 *
 * @module
 */

import type { LeafCall } from "../tree/call.ts";
import { assignOwn, type ContextFunction, type ContextSource } from "../tree/context.ts";
import type { HandlerContext } from "../tree/node.ts";
import { runCall, timesRun } from "../tree/run.ts";

/**
 * What a server tells the engine of each call: its `context` option and its
 * deadline, as the server was given them.
 *
 * @example
 * ```ts
 * import type { Serving } from "./engine.ts";
 *
 * const serving: Serving = { context: () => ({ tenant: "acme" }), timeoutMs: 5_000 };
 * ```
 */
export interface Serving {
  /** The server's `context` option: values every handler and middleware see. */
  // deno-lint-ignore no-explicit-any
  readonly context?: ContextFunction<any>;
  /** Milliseconds a call may run; then it fails as timed out (503). Default none. */
  readonly timeoutMs?: number;
}

/**
 * The context of a call: `base` (the wire's own values: the request, its
 * signal, the surface, a WebSocket's connection parameters, a surface's
 * interaction) with the `context` option's values put on it, told `source`
 * (by default what `base` holds). `base` itself when there is no option, so
 * a synchronous call stays free of promises; a refusal the option throws is
 * the call's failure.
 *
 * @example
 * ```ts
 * import type { HandlerContext } from "@ramify/api/tree/node";
 * import { contextOf } from "./engine.ts";
 *
 * const base: HandlerContext = { surface: "cli" };
 * const context = await contextOf(base, () => ({ tenant: "acme" }));
 * console.log(context.tenant); // "acme"
 * ```
 */
export function contextOf<C extends HandlerContext>(
  base: C,
  // deno-lint-ignore no-explicit-any
  make: ContextFunction<any> | undefined,
  source?: ContextSource,
): C | Promise<C> {
  counts.contexts++;
  if (make === undefined) return base;
  const added = make(source ?? sourceOf(base));
  return added instanceof Promise
    ? added.then((values) => assignOwn(base, values))
    : assignOwn(base, added);
}

/**
 * A call from start to end: its context made (`contextOf`), then its
 * prepared call run in it (`perform`).
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall } from "@ramify/api/tree/catalogue";
 * import { call } from "./engine.ts";
 *
 * const leaf = createCall(op((_input, ctx) => ctx.tenant));
 * console.log(await call(leaf, {}, { surface: "cli" }, { context: () => ({ tenant: "acme" }) })); // "acme"
 * ```
 */
export async function call(
  prepared: LeafCall,
  input: unknown,
  base: HandlerContext,
  serving: Serving,
  source?: ContextSource,
): Promise<unknown> {
  const context = await contextOf(base, serving.context, source);
  return await perform(prepared, input, context, serving.timeoutMs);
}

/** What a context function is told of a context the wire made. */
function sourceOf(base: HandlerContext): ContextSource {
  const { surface = "http", request, connectionParams } = base;
  return {
    surface,
    ...(request === undefined ? {} : { request }),
    ...(connectionParams === undefined
      ? {}
      : { connectionParams: connectionParams as Readonly<Record<string, unknown>> }),
  };
}

/**
 * Runs a leaf's prepared call in a context the engine made, under
 * `timeoutMs`: tree/run.ts's `runCall` itself, not a wrapper, since a frame
 * around it costs the REST router ~700 instructions a request
 * (bench/serve/count.ts). No module outside the engine calls `runCall`.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall } from "@ramify/api/tree/catalogue";
 * import { perform } from "./engine.ts";
 *
 * console.log(await perform(createCall(op(() => "pong")), {}, {}, undefined)); // "pong"
 * ```
 */
export const perform: (
  call: LeafCall,
  input: unknown,
  context: HandlerContext,
  timeoutMs?: number,
) => unknown = runCall;

/** Contexts made by this process's engine. */
const counts = { contexts: 0 };

/**
 * How many contexts this process's engines have made and how many calls
 * they have run: the architecture test holds every surface to one of each
 * per call. Internal, not exported by any subpath.
 *
 * @example
 * ```ts
 * import { engineCounts } from "./engine.ts";
 *
 * const { contexts, calls } = engineCounts();
 * console.log(contexts >= 0 && calls >= 0); // true
 * ```
 */
export function engineCounts(): { readonly contexts: number; readonly calls: number } {
  return { contexts: counts.contexts, calls: timesRun() };
}
