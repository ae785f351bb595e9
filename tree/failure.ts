/**
 * What went wrong with a call, decided once for every surface. Any thrown
 * value is one of five kinds, and each surface only renders the kind:
 *
 * | kind | what | status | GraphQL code | reported to `onError` |
 * |---|---|--:|---|---|
 * | `input` | the input broke the leaf's schema (`InputError`) | 422 | `BAD_USER_INPUT` | no |
 * | `declared` | an `HttpError`, or a `LeafError` the leaf declares | its own | its code, else by status | no |
 * | `cancelled` | the caller went away (its signal aborted) | 499 | `CANCELLED` | no |
 * | `timeout` | the leaf's deadline passed (`timeoutMs`) | 503 | `TIMEOUT` | no |
 * | `fault` | anything else: a crash, a broken output schema, an undeclared code, an abort nobody asked for | 500 | `INTERNAL_SERVER_ERROR` | yes |
 *
 * A fault's message is never shown: the thrown value goes to `onError` only.
 * An `AbortError` a handler throws while neither the caller nor the deadline
 * aborted (an upstream call cut off by the server itself) is a fault, on
 * every surface alike.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api/tree";
 * import { classify } from "@ramify/api/tree/catalogue";
 *
 * const failure = classify(new HttpError(404, "No book 9"));
 * console.log(failure.kind, failure.status, failure.code); // "declared" 404 "NOT_FOUND"
 * console.log(classify(new Error("boom")).status); // 500
 * ```
 *
 * @module
 */

import { InputError } from "./call.ts";
import { LeafError } from "./errors.ts";
import { HttpError, titleOf } from "./http_error.ts";
import type { ValidationIssue } from "./schema.ts";

/**
 * The five kinds of failure.
 *
 * @example
 * ```ts
 * import type { FailureKind } from "@ramify/api/tree/catalogue";
 *
 * const shown: FailureKind[] = ["input", "declared"];
 * ```
 */
export type FailureKind = "input" | "declared" | "cancelled" | "timeout" | "fault";

/**
 * A classified failure: what every surface renders.
 *
 * @example
 * ```ts
 * import { classify, type Failure } from "@ramify/api/tree/catalogue";
 *
 * const failure: Failure = classify(new Error("boom"));
 * console.log(failure.kind, failure.detail); // "fault" undefined
 * ```
 */
export interface Failure {
  /** Which of the five kinds. */
  readonly kind: FailureKind;
  /** The HTTP status every surface reports. */
  readonly status: number;
  /** The status's reason phrase, or a problem's own title. */
  readonly title: string;
  /** The code: a declared error's, else the status's (`NOT_FOUND`, `BAD_USER_INPUT`, ...). */
  readonly code: string;
  /** Whether the code was declared by the leaf or the thrower (problem+json's `code`). */
  readonly declaredCode: boolean;
  /** What went wrong, for the caller; never set for a fault. */
  readonly detail?: string;
  /** The problem type URI (`about:blank` unless an `HttpError` named one). */
  readonly type: string;
  /** The schema's issues, for `input`. */
  readonly issues?: readonly ValidationIssue[];
  /** A declared error's data. */
  readonly data?: unknown;
  /** Headers a declared `HttpError` asks for (`Retry-After`, `WWW-Authenticate`). */
  readonly headers?: Headers;
  /** The thrown value, for `onError`; never sent. */
  readonly error: unknown;
}

/**
 * Thrown by the call runner when the caller's signal aborted: the caller went
 * away, so nobody waits for an answer and nothing crashed.
 *
 * @example
 * ```ts
 * import { Cancelled, classify } from "@ramify/api/tree/catalogue";
 *
 * console.log(classify(new Cancelled()).code); // "CANCELLED"
 * ```
 */
export class Cancelled extends Error {
  /** A cancellation, with what aborted the caller's signal as its cause. */
  constructor(cause?: unknown) {
    super("The caller cancelled the operation", { cause });
    this.name = "Cancelled";
  }
}

/**
 * Thrown by the call runner when the leaf's deadline passed.
 *
 * @example
 * ```ts
 * import { classify, TimedOut } from "@ramify/api/tree/catalogue";
 *
 * console.log(classify(new TimedOut(100)).status); // 503
 * ```
 */
export class TimedOut extends Error {
  /** The deadline that passed, in milliseconds. */
  readonly ms: number;
  /** A timeout after `ms` milliseconds. */
  constructor(ms: number) {
    super(`The operation did not finish within ${ms} ms`);
    this.name = "TimedOut";
    this.ms = ms;
  }
}

const CODES: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "BAD_USER_INPUT",
  429: "TOO_MANY_REQUESTS",
  499: "CANCELLED",
  503: "TIMEOUT",
};

/** The code a status gets when nobody declared one. */
export function codeOfStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}

/**
 * Classifies any thrown value. Pure: the call runner has already turned an
 * abort it caused or saw into `Cancelled` or `TimedOut`.
 *
 * @example
 * ```ts
 * import { LeafError } from "@ramify/api/tree";
 * import { classify } from "@ramify/api/tree/catalogue";
 *
 * // Undeclared (no status filled in by the call path): a fault.
 * console.log(classify(new LeafError("GONE")).kind); // "fault"
 * ```
 */
export function classify(error: unknown): Failure {
  if (error instanceof InputError) {
    return {
      kind: "input",
      status: 422,
      title: titleOf(422),
      code: "BAD_USER_INPUT",
      declaredCode: false,
      detail: error.message,
      type: "about:blank",
      issues: error.issues,
      error,
    };
  }
  if (error instanceof HttpError) {
    const { problem } = error;
    return {
      kind: "declared",
      status: error.status,
      title: problem.title,
      code: problem.code ?? codeOfStatus(error.status),
      declaredCode: problem.code !== undefined,
      type: problem.type,
      error,
      headers: error.headers,
      ...(problem.detail === undefined ? {} : { detail: problem.detail }),
      ...(problem.issues === undefined ? {} : { issues: problem.issues }),
      ...(problem.data === undefined ? {} : { data: problem.data }),
    };
  }
  if (error instanceof LeafError && error.status !== undefined) {
    return {
      kind: "declared",
      status: error.status,
      title: titleOf(error.status),
      code: error.code,
      declaredCode: true,
      detail: error.message,
      type: "about:blank",
      error,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  if (error instanceof Cancelled) return quiet("cancelled", 499, error);
  if (error instanceof TimedOut) return { ...quiet("timeout", 503, error), detail: error.message };
  return quiet("fault", 500, error);
}

function quiet(kind: FailureKind, status: number, error: unknown): Failure {
  return {
    kind,
    status,
    title: titleOf(status),
    code: codeOfStatus(status),
    declaredCode: false,
    type: "about:blank",
    error,
  };
}

/**
 * A failure as one line, for surfaces that speak text (MCP tool results, the
 * command line): `404 Not Found [BOOK_NOT_FOUND]: No book 9`, the detail left
 * out when it only repeats the title or code; a schema's issues listed.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api/tree";
 * import { classify, failureLine } from "@ramify/api/tree/catalogue";
 *
 * console.log(failureLine(classify(new HttpError(404, "No book 9")))); // "404 Not Found: No book 9"
 * ```
 */
export function failureLine(failure: Failure): string {
  const detail = failure.issues !== undefined && failure.issues.length > 0
    ? issuesLine(failure.issues)
    : failure.detail;
  return statusLine(
    failure.status,
    failure.title,
    detail,
    failure.declaredCode ? failure.code : undefined,
  );
}

/**
 * A status as one line: `404 Not Found [CODE]: detail`, the detail left out
 * when it only repeats the title or the code.
 *
 * @example
 * ```ts
 * import { statusLine } from "@ramify/api/tree/catalogue";
 *
 * console.log(statusLine(409, "Conflict", "Already reserved")); // "409 Conflict: Already reserved"
 * ```
 */
export function statusLine(status: number, title: string, detail?: string, code?: string): string {
  const head = code === undefined ? `${status} ${title}` : `${status} ${title} [${code}]`;
  return detail === undefined || detail === title || detail === code ? head : `${head}: ${detail}`;
}

/**
 * Validation issues as one line: `title: Too small; pages: Expected a number`.
 *
 * @example
 * ```ts
 * import { issuesLine } from "@ramify/api/tree/catalogue";
 *
 * console.log(issuesLine([{ path: ["title"], message: "Too small" }])); // "title: Too small"
 * ```
 */
export function issuesLine(
  issues: readonly { readonly path?: readonly unknown[]; readonly message?: string }[],
): string {
  return issues.map(({ path, message }) =>
    path === undefined || path.length === 0 ? message : `${path.join(".")}: ${message}`
  ).join("; ");
}
