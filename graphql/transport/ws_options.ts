import type { Policy } from "../../web/edge.ts";
import type { ContextFunction } from "../../tree/context.ts";
import { knownKeys } from "../../tree/options.ts";
import type { ErrorObserver } from "../../tree/options.ts";

/**
 * The options of the GraphQL-over-WebSocket handlers (`createWsHandler`,
 * `handleBunWebSocket`): the connection and context hooks and the limits.
 * How long a leaf may take (`timeoutMs`), how its failures show and what
 * runs an operation (`executor`) are the options of the GraphQL server the
 * handler is given. The public subpath
 * `@ramify/api/graphql/ws` exports them; they live apart so the protocol
 * module reads them without importing the handlers.
 *
 * @example
 * ```ts
 * import type { WsHandlerOptions } from "@ramify/api/graphql/ws";
 *
 * const opts: WsHandlerOptions = { initTimeout: 5_000 };
 * ```
 *
 * @module
 */

/**
 * Decides whether a connection may go on, from the client's `connection_init`
 * payload (`connectionParams`, `{}` when it sent none) and the upgrade request.
 * `false` refuses it (close `4403 Forbidden`); `true` or nothing accepts it; an
 * object accepts it and is sent as the `connection_ack` payload. It may be
 * asynchronous; throwing closes the connection with `4500`.
 *
 * @example
 * ```ts
 * import type { WsConnectFunction } from "@ramify/api/graphql/ws";
 *
 * const onConnect: WsConnectFunction = (params, request) =>
 *   params.token === "secret" || request.headers.get("authorization") === "Bearer secret";
 * ```
 */
export type WsConnectFunction = (
  connectionParams: Readonly<Record<string, unknown>>,
  request: Request,
) =>
  | boolean
  | void
  | Record<string, unknown>
  | Promise<boolean | void | Record<string, unknown>>;

/**
 * Options of `createWsHandler` and `handleBunWebSocket`.
 *
 * @example
 * ```ts
 * import type { WsHandlerOptions } from "@ramify/api/graphql/ws";
 *
 * const opts: WsHandlerOptions = {
 *   onConnect: (params) => typeof params.token === "string",
 *   context: ({ connectionParams }) => ({ token: connectionParams?.token }),
 *   initTimeout: 5_000,
 *   maxSubscriptions: 20,
 * };
 * ```
 */
export interface WsHandlerOptions {
  /** The connection-init hook: may refuse a connection (`4403`). Default: every one is accepted. */
  readonly onConnect?: WsConnectFunction;
  /**
   * Makes the values an operation's handlers see in their context, beside
   * `request` (the upgrade request), `signal` and `connectionParams`. It is
   * told `{ surface: "graphql", request, connectionParams }` (`{}` when the
   * client sent none), once per operation, and may be asynchronous. What it
   * throws is rendered as a leaf's failure is (`GraphQLServer.errorOf`): an
   * `HttpError` refuses the operation with its code (`UNAUTHENTICATED` for a
   * `401`); a fault is reported to the server's `onError` and masked.
   */
  readonly context?: ContextFunction;
  /**
   * How long a client has to send `connection_init` after the socket opens, in
   * milliseconds (then `4408`). `0` or `Infinity` waits for ever. Default 3,000.
   */
  readonly initTimeout?: number;
  /**
   * The most operations one connection may have under way at once,
   * subscriptions and queries still running alike: one more closes the
   * connection with `4429` (reason `Too many subscriptions`). Default 100.
   */
  readonly maxSubscriptions?: number;
  /**
   * The longest document (`query`) accepted, in characters: a longer one gets
   * an `error` message with code `PAYLOAD_TOO_LARGE`. Documents are cached by
   * their text, so this bounds what the cache can hold. Default 100,000.
   */
  readonly maxQueryLength?: number;
  /**
   * The largest message accepted, in bytes: a larger one closes the connection
   * with `1009` (Message Too Big). Default 1 MiB.
   */
  readonly maxMessageBytes?: number;
  /**
   * How deep a `subscribe` message's variables may nest: deeper is an `error`
   * message with code `BAD_REQUEST`, as over HTTP (the same option as the
   * REST, GraphQL-over-HTTP and MCP servers'). Default 64.
   */
  readonly maxInputDepth?: number;
  /**
   * How long an initialised connection may stay silent with no operation
   * under way, in milliseconds: then it is closed with `1000` (reason `Idle`).
   * A client's `ping` counts as activity. `0` or `Infinity` keeps it for ever.
   * Default 300,000 (five minutes).
   */
  readonly idleTimeout?: number;
  /**
   * Backpressure: while a socket holds more than this many bytes not yet sent
   * (the client reads slowly, or not at all), no more results are pulled from
   * its operations. Default 4 MiB.
   */
  readonly maxBufferedBytes?: number;
  /**
   * How long a socket may stay over `maxBufferedBytes`, in milliseconds: then
   * the connection is closed with `1013` (reason `Slow consumer`). Default 30,000.
   */
  readonly slowConsumerTimeout?: number;
  /**
   * The most operations under way over all connections of this handler: one
   * more gets an `error` message with code `TOO_MANY_REQUESTS`. Default 10,000.
   */
  readonly maxTotalSubscriptions?: number;
  /**
   * Request policies in front of the upgrade, the first listed running first
   * (`[rateLimit(...)]` limits opening connections: over it, the upgrade is
   * answered `429` problem+json with `Retry-After`). The same option as the
   * HTTP servers' and `serve()`'s. Default none.
   */
  readonly policies?: readonly Policy[];
  /**
   * Observes what crashed in the transport: an `onConnect` that threw, an
   * error graphql-ws raised while streaming (the client sees only a masked
   * error or a `4500`), with the upgrade request. Default: `console.error`. A
   * leaf's deadline and its faults are the GraphQL server's (`timeoutMs`,
   * `onError`).
   */
  readonly onError?: ErrorObserver;
}

/**
 * Every option of the WebSocket handlers: any other key is refused when one
 * is made.
 *
 * @example
 * ```ts
 * import { WS_OPTIONS } from "./ws_options.ts";
 *
 * console.log(WS_OPTIONS.includes("initTimeout")); // true
 * ```
 */
export const WS_OPTIONS = knownKeys<WsHandlerOptions>()([
  "onConnect",
  "context",
  "initTimeout",
  "maxSubscriptions",
  "maxQueryLength",
  "maxMessageBytes",
  "maxInputDepth",
  "idleTimeout",
  "maxBufferedBytes",
  "slowConsumerTimeout",
  "maxTotalSubscriptions",
  "policies",
  "onError",
]);
