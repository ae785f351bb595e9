/**
 * `HttpError`: what a handler throws to answer with a chosen status (400 to
 * 599), and the problem body it carries. It lives in the tree because every
 * surface renders it (HTTP as problem+json, GraphQL as an error with a code,
 * MCP and the command line as a status line), not HTTP alone.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api";
 *
 * function read({ id }: { id: string }) {
 *   throw new HttpError(404, `No book ${id}`);
 * }
 * ```
 *
 * @module
 */

import type { ValidationIssue } from "./schema.ts";

const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  410: "Gone",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  428: "Precondition Required",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * The body of a problem response.
 *
 * @example
 * ```ts
 * import type { Problem } from "@ramify/api/tree";
 *
 * const problem: Problem = { type: "about:blank", title: "Not Found", status: 404 };
 * ```
 */
export interface Problem {
  /** A URI naming the problem type; `about:blank` when the status says it all. */
  readonly type: string;
  /** A short summary of the problem type. */
  readonly title: string;
  /** The HTTP status. */
  readonly status: number;
  /** What went wrong with this request. */
  readonly detail?: string;
  /** Validation issues, for 422. */
  readonly issues?: readonly ValidationIssue[];
  /** The code of an error the operation declares (`meta.errors`). */
  readonly code?: string;
  /** The data of a declared error, as its schema describes. */
  readonly data?: unknown;
}

/**
 * Options of {@linkcode HttpError}.
 *
 * @example
 * ```ts
 * import type { HttpErrorOptions } from "@ramify/api/tree";
 *
 * const opts: HttpErrorOptions = { headers: { "retry-after": "5" } };
 * ```
 */
export interface HttpErrorOptions {
  /** The problem type URI. Default `about:blank`. */
  readonly type?: string;
  /** The problem title. Default: the status's reason phrase. */
  readonly title?: string;
  /** Headers for the response, such as `Retry-After` or `WWW-Authenticate`. */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /** Validation issues to report. */
  readonly issues?: readonly ValidationIssue[];
  /** A declared error's code, sent as the problem's `code`. */
  readonly code?: string;
  /** A declared error's data, sent as the problem's `data`. */
  readonly data?: unknown;
  /** The underlying error; never sent to the client. */
  readonly cause?: unknown;
}

/**
 * An error a handler throws to answer with a chosen status (400 to 599) as a
 * problem+json response. Its `detail` is sent to the client, so it must not
 * hold secrets; any other error thrown by a handler becomes a bare 500.
 *
 * @example
 * ```ts
 * import { HttpError } from "@ramify/api";
 *
 * const error = new HttpError(409, "The book is already reserved");
 * console.log(error.status, error.problem.title); // 409 "Conflict"
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The problem body sent to the client. */
  readonly problem: Problem;
  /** Extra response headers. */
  readonly headers: Headers;

  /**
   * Makes an error that answers with `status` and a problem body.
   *
   * @param status an HTTP error status, 400 to 599
   * @param detail what went wrong, for the client
   * @param options type, title, headers, issues, cause
   */
  constructor(status: number, detail?: string, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError: status must be an integer from 400 to 599, got ${status}`);
    }
    super(detail ?? titleOf(status), { cause: options.cause });
    this.name = "HttpError";
    this.status = status;
    this.headers = checkedHeaders(options.headers);
    this.problem = {
      type: options.type ?? "about:blank",
      title: options.title ?? titleOf(status),
      status,
      ...(detail === undefined ? {} : { detail }),
      ...(options.issues === undefined ? {} : { issues: options.issues }),
      ...(options.code === undefined ? {} : { code: options.code }),
      ...(options.data === undefined ? {} : { data: options.data }),
    };
  }
}

/** The reason phrase of a status, for problem titles and status lines. */
export function titleOf(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : "Client Error");
}

/**
 * The error's headers, each checked: a line break in a value would end the
 * header early (response splitting); runtimes refuse it when the response is
 * built, far from the code that made the error. Refused here, by name.
 */
function checkedHeaders(init: ConstructorParameters<typeof Headers>[0]): Headers {
  const pairs: Iterable<readonly [string, string]> = init === undefined
    ? []
    : init instanceof Headers
    ? init
    : Array.isArray(init)
    ? init as [string, string][]
    : Object.entries(init as Record<string, string>);
  const headers = new Headers();
  for (const [name, value] of pairs) {
    if (/[\r\n\0]/.test(String(value))) {
      throw new TypeError(
        `HttpError: the ${
          JSON.stringify(name)
        } header's value holds a line break or NUL; a header value is one line`,
      );
    }
    try {
      headers.append(name, value);
    } catch {
      throw new TypeError(`HttpError: ${JSON.stringify(name)} is not a valid header name`);
    }
  }
  return headers;
}
