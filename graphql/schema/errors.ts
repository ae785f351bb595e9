/**
 * `graphqlErrors(mapping)`: which handler errors a client may see, and as what.
 * A mapped error becomes a GraphQL error with `extensions.code`; every other
 * error is masked (`Unexpected error.`, code `INTERNAL_SERVER_ERROR`), so no
 * internal message ever reaches a client. An `HttpError` thrown by a handler
 * shared with the HTTP surface is mapped by its status, its detail being meant
 * for clients already.
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
import { type HttpError, httpErrorOf } from "../../http/web/problem.ts";

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
 * Turns a thrown value into the GraphQL error a client may see, or `undefined`
 * to mask it.
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
 * How resolvers treat handler errors.
 *
 * @example
 * ```ts
 * import { graphqlErrors, type ResolveOptions } from "@ramify/api/graphql";
 *
 * const opts: ResolveOptions = {
 *   errors: graphqlErrors({ NotFound: "NOT_FOUND" }),
 *   onError: (error) => console.error("masked:", error),
 * };
 * ```
 */
export interface ResolveOptions {
  /** Maps handler errors to GraphQL errors; unmapped ones are masked. Default: `HttpError`s only. */
  readonly errors?: ErrorMapper;
  /** Observes an error that was masked. Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

const HTTP_CODES: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  422: "BAD_USER_INPUT",
  429: "TOO_MANY_REQUESTS",
};

/**
 * Builds an error mapper from rules keyed by an error's class name (its `name`
 * or constructor name) or by its `code` property. `HttpError`s map by status
 * unless a rule names them.
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
    const http = httpErrorOf(error);
    return http === undefined ? undefined : fromHttpError(http);
  };
}

function keysOf(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [];
  const keys: string[] = [];
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") keys.push(code);
  const name = (error as { name?: unknown }).name;
  if (typeof name === "string") keys.push(name);
  const constructorName = (error as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof constructorName === "string") keys.push(constructorName);
  return keys;
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

function fromHttpError(error: HttpError): GraphQLError {
  // A declared error keeps its own code; others are named by their status.
  const code = error.problem.code ?? HTTP_CODES[error.status] ??
    (error.status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
  return new GraphQLError(error.problem.detail ?? error.problem.title, {
    extensions: {
      code,
      status: error.status,
      ...(error.problem.issues === undefined ? {} : { issues: error.problem.issues }),
      ...(error.problem.data === undefined ? {} : { data: error.problem.data }),
    },
  });
}
