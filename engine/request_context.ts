/**
 * The context of a call that came with a web request (HTTP, GraphQL over
 * HTTP): one class for both surfaces, so that a handler sees the same shape
 * wherever it is called from.
 *
 * Internal: not a public subpath. Used by the HTTP router and GraphQL over HTTP.
 *
 * @module
 */

import type { HandlerContext } from "../tree/node.ts";

/**
 * A handler's context for a web request. Its `signal` (the request's) is
 * read only when asked for, by a handler or by the deadline: Deno.serve warns
 * on every read of `request.signal`, and most calls never need it. The getter
 * is on the prototype, so a copy (middleware's, the deadline's) keeps it, and
 * making one costs a plain object (an object literal with a getter costs
 * microseconds).
 *
 * @example
 * ```ts
 * import { RequestContext } from "./request_context.ts";
 *
 * const context = new RequestContext(new Request("http://localhost/"), "http");
 * console.log(context.surface, context.request.url); // "http" "http://localhost/"
 * ```
 */
export class RequestContext implements HandlerContext {
  [key: string]: unknown;
  /** The request. */
  readonly request: Request;
  /** The surface it came through. */
  readonly surface: "http" | "graphql";
  /** A context for `request`, come through `surface`. */
  constructor(request: Request, surface: "http" | "graphql") {
    this.request = request;
    this.surface = surface;
  }
  /** The request's signal: aborts when the client goes away. */
  get signal(): AbortSignal {
    return this.request.signal;
  }
}
