/**
 * How a thrown value reaches a GraphQL client. Every failure is first
 * classified as on every surface (`classify` in `@ramify/api/tree`): an
 * `InputError` is `BAD_USER_INPUT`, an `HttpError` or a declared `LeafError`
 * keeps its status and code, a cancellation is `CANCELLED`, a timeout
 * `TIMEOUT`. Each becomes a GraphQL error whose message is the failure's
 * detail (else its title) and whose `extensions` hold `code`, `status`, and
 * the `issues` or `data` there are. Everything else is a fault: reported to
 * `onError` and masked (`Unexpected error.`, code `INTERNAL_SERVER_ERROR`),
 * unless `graphqlErrors(mapping)` names it: the way to show a client an error
 * the tree does not declare (a database driver's, say).
 *
 * @example
 * ```ts
 * import { graphqlErrors } from "@ramify/api/graphql";
 *
 * class NotFound extends Error {}
 * const errors = graphqlErrors({
 *   NotFound: "NOT_FOUND",
 *   RESERVED: { code: "CONFLICT", message: "The book is reserved" },
 * });
 * console.log(errors(new NotFound("no book 9"))?.extensions); // { code: "NOT_FOUND" }
 * ```
 *
 * @module
 */

import { GraphQLError } from "graphql";
import { OutputError } from "../../tree/call.ts";
import type { Failure } from "../../tree/failure.ts";
import type { HandlerContext } from "../../tree/node.ts";
import type { ErrorObserver } from "../../tree/options.ts";
import { failureOf } from "../../tree/run.ts";
import { logFault } from "../../tree/outage.ts";
import type { TaskRuntime } from "../../tasks/runtime.ts";

/**
 * What an error maps to: a code (the error's own message is kept), a code with
 * a message and extensions, or a function that decides.
 *
 * @example
 * ```ts
 * import type { ErrorMapping } from "@ramify/api/graphql";
 *
 * const rule: ErrorMapping = { code: "FORBIDDEN", message: "Not yours" };
 * ```
 */
export type ErrorMapping =
  | string
  | {
    readonly code: string;
    readonly message?: string;
    readonly extensions?: Readonly<Record<string, unknown>>;
  }
  | ((error: unknown) => GraphQLError | undefined);

/**
 * Turns a fault (a thrown value the tree does not classify: no `InputError`,
 * `HttpError`, declared `LeafError`, cancellation or timeout) into the GraphQL
 * error a client may see, or `undefined` to mask it.
 *
 * @example
 * ```ts
 * import type { ErrorMapper } from "@ramify/api/graphql";
 *
 * const none: ErrorMapper = () => undefined;
 * ```
 */
export type ErrorMapper = (error: unknown) => GraphQLError | undefined;

/**
 * How resolvers run leaves and treat their failures.
 *
 * @example
 * ```ts
 * import { graphqlErrors, type ResolveOptions } from "@ramify/api/graphql";
 *
 * const opts: ResolveOptions = {
 *   errors: graphqlErrors({ NotFound: "NOT_FOUND" }),
 *   onError: (error) => console.error("masked:", error),
 *   timeoutMs: 10_000,
 * };
 * ```
 */
export interface ResolveOptions {
  /**
   * Exposes faults a client may see: consulted only for a failure that is no
   * input, declared, cancelled or timed-out one (and never for a result that
   * broke its output schema). Default: every fault masked.
   */
  readonly errors?: ErrorMapper;
  /** Observes a fault that was masked, with the request where there is one. Default: `console.error`. */
  readonly onError?: ErrorObserver;
  /**
   * How long one leaf call may take, in milliseconds: past it the handler's
   * `signal` aborts and its field is an error with code `TIMEOUT` (status
   * 503), its siblings unharmed. Default: none.
   */
  readonly timeoutMs?: number;
  /**
   * Where long-running leaves' tasks run (`createTasks()`): pass the runtime
   * the other surfaces share, so that each finds a task any of them started.
   * Default: one of the schema's own, made with its first task.
   */
  readonly tasks?: TaskRuntime;
  /**
   * The identity a caller's tasks belong to, from the context the leaf's
   * guards made. Default: as on every surface, the principal they
   * established (`principalOf`).
   */
  readonly taskOwner?: (
    context: HandlerContext,
  ) => string | undefined | Promise<string | undefined>;
}

/**
 * Builds an error mapper from rules keyed by an error's class name (its `name`
 * or constructor name) or by its `code` property. Servers consult it for
 * faults only: an `HttpError`, a declared `LeafError`, an input, cancellation
 * or timeout failure already has its code, so a rule never changes those.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer, graphqlErrors } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({
 *   fail: op(() => {
 *     throw Object.assign(new Error("secret"), { code: "E_LIMIT" });
 *   }),
 * }), { errors: graphqlErrors({ E_LIMIT: { code: "RATE_LIMITED", message: "Slow down" } }) });
 * const result = await server.execute({ query: "mutation { fail }" });
 * console.log(result.errors?.[0].message); // "Slow down"
 * ```
 */
export function graphqlErrors(mapping: Readonly<Record<string, ErrorMapping>>): ErrorMapper {
  const rules = new Map(Object.entries(mapping));
  return (error) => {
    for (const key of keysOf(error)) {
      const rule = rules.get(key);
      if (rule !== undefined) return apply(rule, error);
    }
    return undefined;
  };
}

function keysOf(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [];
  const { code, name, constructor } = error as {
    code?: unknown;
    name?: unknown;
    constructor?: { name?: unknown };
  };
  return [code, name, constructor?.name].filter((key): key is string => typeof key === "string");
}

function apply(rule: ErrorMapping, error: unknown): GraphQLError | undefined {
  if (typeof rule === "function") return rule(error);
  const own = error instanceof Error ? error.message : String(error);
  if (typeof rule === "string") {
    return new GraphQLError(own, { extensions: { code: rule } });
  }
  return new GraphQLError(rule.message ?? own, {
    extensions: { ...rule.extensions, code: rule.code },
  });
}

// What the resolvers, the server and its transports share: not public API.

/** Renders a thrown value for a client; `context` tells a cancellation from a fault. */
export type ClientError = (error: unknown, context?: HandlerContext) => GraphQLError;

/**
 * What a client sees of a thrown value: the failure the tree classifies, as a
 * GraphQL error; a fault is masked and reported, unless `opts.errors` exposes
 * it. A result that broke its output schema is never shown, whatever the mapping.
 */
export function clientError(opts: ResolveOptions): ClientError {
  const expose = opts.errors;
  const report = observer(opts.onError, "ramify: GraphQL resolver crashed:");
  return (error, context) => {
    const failure = failureOf(error, context);
    if (failure.kind !== "fault") return fromFailure(failure);
    const exposed = error instanceof OutputError ? undefined : expose?.(error);
    if (exposed !== undefined) return exposed;
    report(error, context?.request);
    return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  };
}

function fromFailure(failure: Failure): GraphQLError {
  return new GraphQLError(failure.detail ?? failure.title, {
    extensions: {
      code: failure.code,
      status: failure.status,
      ...(failure.issues === undefined ? {} : { issues: failure.issues }),
      ...(failure.data === undefined ? {} : { data: failure.data }),
    },
  });
}

/**
 * `onError`, or `console.error` with `label` (an unreachable store: once per
 * outage, `logFault`): an observer that throws never changes what a client sees.
 */
export function observer(
  onError: ErrorObserver | undefined,
  label: string,
): (error: unknown, request?: Request) => void {
  const observe: ErrorObserver = onError ?? ((error: unknown) => logFault(label, error));
  return (error, request) => {
    try {
      if (request === undefined) observe(error);
      else observe(error, request);
    } catch {
      // Nothing to do: the client's answer is decided already.
    }
  };
}
