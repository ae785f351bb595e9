/**
 * Failures as RFC 9457 problem details (`application/problem+json`): the one
 * rendering of a classified failure (`classify` / `failureOf` in the tree) on
 * HTTP, and `HttpError`, with which a handler chooses its status.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api/tree";
 *
 * function read({ id }: { id: string }) {
 *   throw new HttpError(404, `No book ${id}`);
 * }
 * ```
 *
 * @module
 */

import { HttpError, type Problem } from "../tree/http_error.ts";
import type { Failure } from "../tree/failure.ts";

export { HttpError };
export type { HttpErrorOptions, Problem } from "../tree/http_error.ts";

/**
 * The problem body of a failure: its type, title and status, the detail and
 * issues when there are any, the `code` only when the leaf or the thrower
 * declared one, and a declared error's data. A fault shows nothing but its
 * status.
 *
 * Internal: not a public subpath (the HTTP router, its event streams, GraphQL
 * over HTTP).
 */
export function problemOf(failure: Failure): Problem {
  return {
    type: failure.type,
    title: failure.title,
    status: failure.status,
    ...(failure.detail === undefined ? {} : { detail: failure.detail }),
    ...(failure.issues === undefined ? {} : { issues: failure.issues }),
    ...(failure.declaredCode ? { code: failure.code } : {}),
    ...(failure.data === undefined ? {} : { data: failure.data }),
  };
}

/** The problem+json response of a failure, with the headers a declared `HttpError` asks for. */
export function failureResponse(failure: Failure): Response {
  const headers = new Headers(failure.headers);
  headers.set("content-type", "application/problem+json");
  return Response.json(problemOf(failure), { status: failure.status, headers });
}
