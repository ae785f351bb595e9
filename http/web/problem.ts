/**
 * Errors as RFC 9457 problem details (`application/problem+json`), and
 * `HttpError`, with which a handler chooses its status.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api/http";
 *
 * function read({ id }: { id: string }) {
 *   throw new HttpError(404, `No book ${id}`);
 * }
 * ```
 *
 * @module
 */

import { LeafError } from "../../tree/errors.ts";
import { HttpError } from "../../tree/http_error.ts";

export { HttpError };
export type { HttpErrorOptions, Problem } from "../../tree/http_error.ts";

/**
 * What a surface answers for a thrown error, when it is the caller's to see:
 * an `HttpError` as it is, a declared `LeafError` (its status filled in by the
 * call path) as the problem of its status with its `code` and `data`.
 * `undefined` for anything else: a crash, masked by every surface.
 */
export function httpErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof LeafError && error.status !== undefined) {
    return new HttpError(error.status, error.message, {
      code: error.code,
      ...(error.data === undefined ? {} : { data: error.data }),
      cause: error,
    });
  }
  return undefined;
}

/**
 * A problem as one line, for surfaces that speak text (MCP tool results, the
 * command line): `404 Not Found: No book 9`, the detail left out when it only
 * repeats the title.
 */
export function problemLine(
  status: number,
  title: string,
  detail?: string,
  code?: string,
): string {
  const head = code === undefined ? `${status} ${title}` : `${status} ${title} [${code}]`;
  return detail === undefined || detail === title || detail === code ? head : `${head}: ${detail}`;
}

/** Validation issues as one line: `title: Too small; pages: Expected a number`. */
export function issuesLine(
  issues: readonly { readonly path?: readonly unknown[]; readonly message?: string }[],
): string {
  return issues.map(({ path, message }) =>
    path === undefined || path.length === 0 ? message : `${path.join(".")}: ${message}`
  ).join("; ");
}
