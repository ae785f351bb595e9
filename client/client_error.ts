/**
 * `ClientError`: what the typed HTTP client throws for every non-OK response.
 * A network failure, an abort or a timeout is not a `ClientError`: those reject
 * with the underlying error (`TypeError`, or a `DOMException` named
 * `AbortError` or `TimeoutError`), so the two stay distinguishable.
 *
 * @example
 * ```ts
 * import { ClientError } from "@ramify/api/http";
 *
 * function explain(error: unknown): string {
 *   if (error instanceof ClientError) return `${error.status}: ${error.problem?.detail ?? ""}`;
 *   return "no response";
 * }
 * ```
 *
 * @module
 */

import type { Problem } from "../tree/http_error.ts";

/**
 * Options of {@linkcode ClientError}.
 *
 * @example
 * ```ts
 * import type { ClientErrorInit } from "@ramify/api/http";
 *
 * const init: ClientErrorInit = {
 *   method: "GET",
 *   url: "http://localhost/books/9",
 *   status: 404,
 *   statusText: "Not Found",
 *   headers: new Headers(),
 *   body: undefined,
 * };
 * ```
 */
export interface ClientErrorInit {
  /** The request's verb. */
  readonly method: string;
  /** The request's URL. */
  readonly url: string;
  /** The response status. */
  readonly status: number;
  /** The response status text. */
  readonly statusText: string;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed body: JSON when the response was JSON, text otherwise. */
  readonly body: unknown;
  /** The error codes the operation declares: only these are read as `code`. */
  readonly declared?: readonly string[];
}

/**
 * A non-OK response, with what the server said.
 *
 * @example
 * ```ts
 * import { ClientError } from "@ramify/api/http";
 *
 * const error = new ClientError({
 *   method: "POST",
 *   url: "http://localhost/books/add",
 *   status: 422,
 *   statusText: "Unprocessable Content",
 *   headers: new Headers(),
 *   body: { type: "about:blank", title: "Unprocessable Content", status: 422, issues: [] },
 * });
 * console.log(error.problem?.issues); // []
 * ```
 */
export class ClientError extends Error {
  /** The response status. */
  readonly status: number;
  /** The response status text. */
  readonly statusText: string;
  /** The request's verb. */
  readonly method: string;
  /** The request's URL. */
  readonly url: string;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed body. */
  readonly body: unknown;
  /** The body as RFC 9457 problem details, when it is one. */
  readonly problem: Problem | undefined;
  /** The code of an error the operation declares (`meta.errors`); `undefined` for any other. */
  readonly code: string | undefined;
  /** The declared error's data; `undefined` for any other error. */
  readonly data: unknown;

  /**
   * Makes the error from what the request and response were.
   *
   * @param init the request's verb and URL, the response's status, headers and parsed body
   */
  constructor(init: ClientErrorInit) {
    const problem = isProblem(init.body) ? init.body : undefined;
    super(
      `${init.method} ${init.url} failed with ${init.status} ${init.statusText}${
        problem?.detail === undefined ? "" : `: ${problem.detail}`
      }`,
    );
    this.name = "ClientError";
    this.status = init.status;
    this.statusText = init.statusText;
    this.method = init.method;
    this.url = init.url;
    this.headers = init.headers;
    this.body = init.body;
    this.problem = problem;
    const code = problem?.code;
    const isDeclared = typeof code === "string" && (init.declared ?? []).includes(code);
    this.code = isDeclared ? code : undefined;
    this.data = isDeclared ? problem?.data : undefined;
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === "object" && body !== null &&
    typeof (body as { status?: unknown }).status === "number" &&
    typeof (body as { title?: unknown }).title === "string";
}
