/**
 * The options of `createHttpGraphQLServer`: the transport's own, and, given a
 * tree, the GraphQL server's beside them. They live apart from the handler to
 * keep each module short; `@ramify/api/graphql` exports them.
 *
 * @example
 * ```ts
 * import type { HttpGraphQLTransportOptions } from "@ramify/api/graphql";
 *
 * const opts: HttpGraphQLTransportOptions = { path: "/api/graphql" };
 * ```
 *
 * @module
 */

import type { ContextFunction, RequestContextSource } from "../../tree/context.ts";
import type { Policy } from "../../web/edge.ts";
import type { GraphQLServerOptions } from "../execution/server.ts";
import { knownKeys } from "../../tree/options.ts";
import type { ErrorObserver } from "../../tree/options.ts";

/**
 * The transport's own options: all that {@linkcode createHttpGraphQLServer}
 * takes beside a GraphQL server already built.
 *
 * @example
 * ```ts
 * import type { HttpGraphQLTransportOptions } from "@ramify/api/graphql";
 *
 * const opts: HttpGraphQLTransportOptions = {
 *   path: "/api/graphql",
 *   maxBodyBytes: 64 * 1024,
 *   context: ({ request }) => ({ user: request.headers.get("x-user") }),
 * };
 * ```
 */
export interface HttpGraphQLTransportOptions {
  /** The path served; every other path is `404`. Default `/graphql`. */
  readonly path?: string;
  /**
   * Request policies in front of the path, the first listed running first
   * (`[cors(...), rateLimit(...)]`, from `@ramify/api/http`): the same option
   * as the REST and MCP servers' and `serve()`'s. A refusal is a GraphQL error
   * with the policy's status and code (`TOO_MANY_REQUESTS`). Default none.
   */
  readonly policies?: readonly Policy[];
  /** The largest `POST` body accepted, in bytes, a multipart request's files included (`413` above it). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The largest response, in bytes of JSON: a larger result is replaced by an
   * error with code `RESPONSE_TOO_LARGE`. Default 16 MiB.
   */
  readonly maxResponseBytes?: number;
  /** Milliseconds the whole body may take to arrive: `408` after. Default 30,000. */
  readonly bodyTimeoutMs?: number;
  /**
   * Origins besides the server's own whose pages may post forms to it: a
   * multipart (or other form) `POST` from any other site is a `403` problem
   * before anything is read, as a forgery (`createFetch`'s option too).
   * Written as origins, `https://app.example.com`. Default none.
   */
  readonly trustedOrigins?: readonly string[];
  /**
   * The longest document (`query`) accepted, in characters: `413` in a `POST`
   * body, `414` in a `GET` URL. Documents are cached by their text, so this
   * bounds what the cache can hold. Default 100,000.
   */
  readonly maxQueryLength?: number;
  /**
   * The deepest nesting of `variables` and `extensions` (`400` below it): the
   * same option as the REST and MCP servers'. Default 64.
   */
  readonly maxInputDepth?: number;
  /**
   * Makes the values a request's handlers see in their context, beside
   * `request` and `signal`; it is told `{ surface: "graphql", request }` and
   * may be asynchronous. What it throws is rendered as a leaf's failure is
   * (`GraphQLServer.errorOf`): an `HttpError` refuses the request with its
   * status, code and headers (a `401` with `WWW-Authenticate`, say); a fault
   * is a masked `500`.
   */
  readonly context?: ContextFunction<RequestContextSource>;
  /**
   * Observes what crashed in the transport (a result JSON cannot hold, say),
   * with the request; the client sees a masked `500`. Given a tree, this is
   * the GraphQL server's `onError` too. Default: `console.error`.
   */
  readonly onError?: ErrorObserver;
}

/**
 * Every option of the transport alone ({@linkcode createHttpGraphQLServer}
 * given a server): any other key is refused when it is made.
 *
 * @example
 * ```ts
 * import { HTTP_TRANSPORT_OPTIONS } from "./http_options.ts";
 *
 * console.log(HTTP_TRANSPORT_OPTIONS.includes("path")); // true
 * ```
 */
export const HTTP_TRANSPORT_OPTIONS = knownKeys<HttpGraphQLTransportOptions>()([
  "path",
  "policies",
  "maxBodyBytes",
  "maxResponseBytes",
  "bodyTimeoutMs",
  "trustedOrigins",
  "maxQueryLength",
  "maxInputDepth",
  "context",
  "onError",
]);

/**
 * Options of {@linkcode createHttpGraphQLServer} given a tree: the GraphQL
 * server's (limits, introspection, error mapping, `timeoutMs`) and the
 * transport's.
 *
 * @example
 * ```ts
 * import type { HttpGraphQLServerOptions } from "@ramify/api/graphql";
 *
 * const opts: HttpGraphQLServerOptions = {
 *   path: "/api/graphql",
 *   maxBodyBytes: 64 * 1024,
 *   introspection: false,
 *   limits: { maxDepth: 10 },
 *   timeoutMs: 10_000,
 * };
 * ```
 */
export interface HttpGraphQLServerOptions
  extends GraphQLServerOptions, HttpGraphQLTransportOptions {}
