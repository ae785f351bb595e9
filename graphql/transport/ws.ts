/**
 * GraphQL over WebSocket: the `graphql-transport-ws` protocol, served through
 * the `graphql-ws` package's server core, for a {@linkcode GraphQLServer}.
 *
 * - `createWsHandler(server, opts?)` is a `(Request) => Response` for
 *   `Deno.serve` that upgrades the request; `handleBunWebSocket(server, opts?)`
 *   is `{ fetch, websocket }` for `Bun.serve`. On Node, the `websocket`
 *   handlers of `handleBunWebSocket` serve the `ws` package's sockets (below).
 * - Every operation goes through the server's cached `prepare`, so its limits
 *   and introspection rule apply as over HTTP. Queries and mutations run too;
 *   streaming leaves (async generators) are subscriptions whose values are the
 *   `next` events, in order.
 * - Handlers receive `{ request, signal, connectionParams, ...yours }` as
 *   their context: `request` is the upgrade request, `yours` comes from
 *   `opts.context`, and `signal` aborts when the client completes the
 *   operation or the connection closes. Then the handler's generator is closed
 *   too (its `finally` runs): at once if it waits on the signal, else at its
 *   next `yield`.
 * - A leaf's failure is rendered as over HTTP, by the server's rules: a
 *   declared error thrown mid-stream is an `error` message with its code, a
 *   crash a masked `INTERNAL_SERVER_ERROR` reported to the server's `onError`.
 * - A request that is not a WebSocket upgrade is `426 Upgrade Required`
 *   (`application/problem+json`, with `Upgrade: websocket`). The subprotocol
 *   is `graphql-transport-ws` when the client offers it; a client that does
 *   not is upgraded without one and closed with `4406` (as graphql-ws does).
 *
 * Close codes (graphql-ws's `CloseCode`):
 *
 * | code | when |
 * |---|---|
 * | 4400 | a message that is not one of the protocol's |
 * | 4401 | `subscribe` before the connection was acknowledged |
 * | 4403 | `opts.onConnect` refused the connection (returned `false`) |
 * | 4406 | the client did not offer `graphql-transport-ws` |
 * | 4408 | no `connection_init` within `opts.initTimeout` |
 * | 4409 | an operation id already in use |
 * | 4429 | a second `connection_init`, or more operations at once than `opts.maxSubscriptions` (reason `Too many subscriptions`) |
 * | 4500 | a crash (in `opts.onConnect`, say): the reason says nothing more |
 *
 * graphql-ws has no close code for too many subscriptions: 4429 mirrors HTTP's
 * 429 Too Many Requests, as the protocol's codes mirror HTTP statuses, and the
 * graphql-ws client does not retry after it (a reconnect would only resubscribe
 * over the limit again).
 *
 * An operation refused before it runs (a parse or validation error, a limit,
 * a document over `opts.maxQueryLength`, an `HttpError` thrown by
 * `opts.context`) gets an `error` message with `extensions.code`, like the
 * HTTP transport's: `GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`,
 * `OPERATION_RESOLUTION_FAILURE`, `PAYLOAD_TOO_LARGE`, `BAD_USER_INPUT` (a
 * variable that does not coerce), the `HttpError`'s code, or
 * `INTERNAL_SERVER_ERROR` (masked).
 *
 * @example Deno
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 * import { createWsHandler } from "@ramify/api/graphql/ws";
 *
 * const clock = api({
 *   ticks: op(async function* (_input, ctx) {
 *     for (let i = 1; !ctx.signal?.aborted; i++) {
 *       yield i;
 *       await new Promise((resolve) => setTimeout(resolve, 1_000));
 *     }
 *   }, { tags: { streaming: true } }),
 * });
 * const ws = createWsHandler(createGraphQLServer(api({ clock })));
 * // Deno.serve({ port: 4000 }, ws); // subscription { clockTicks }
 * ```
 *
 * @example Node, with the `ws` package
 * ```ts ignore
 * import { createServer } from "node:http";
 * import { WebSocketServer } from "ws";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 * import { handleBunWebSocket, type WsPeer } from "@ramify/api/graphql/ws";
 *
 * const { websocket } = handleBunWebSocket(createGraphQLServer(tree), {
 *   onConnect: (params) => params.token === "secret",
 * });
 * const http = createServer();
 * const wss = new WebSocketServer({
 *   server: http,
 *   path: "/graphql",
 *   // Agree on graphql-transport-ws when offered; without it the socket is closed with 4406.
 *   handleProtocols: (offered) => offered.has("graphql-transport-ws") && "graphql-transport-ws",
 * });
 * wss.on("connection", (socket, incoming) => {
 *   const headers = new Headers();
 *   for (const [name, value] of Object.entries(incoming.headers)) {
 *     if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
 *   }
 *   const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
 *   const peer: WsPeer = {
 *     data: { request: new Request(url, { headers }), protocol: socket.protocol },
 *     send: (text) => socket.send(text),
 *     close: (code, reason) => socket.close(code, reason),
 *   };
 *   websocket.open(peer);
 *   socket.on("message", (data) => websocket.message(peer, String(data)));
 *   socket.on("close", (code, reason) => websocket.close(peer, code, String(reason)));
 * });
 * http.listen(4000);
 * ```
 *
 * @module
 */

import { handleProtocols } from "graphql-ws";
import { HttpError } from "../../web/problem.ts";
import { errorResponse, problem } from "../../web/respond.ts";
import { applyPolicies, applyPoliciesToUpgrades, POLICY_OPTIONS } from "../../web/edge.ts";
import { graphqlWsEdge } from "./edge.ts";
import type { GraphQLServer } from "../execution/server.ts";
import { type Connect, createConnect, type ProtocolConnection } from "./_ws_protocol.ts";
import { WS_OPTIONS, type WsHandlerOptions } from "./ws_options.ts";
import { checkOptions } from "../../tree/options.ts";

export type { WsConnectFunction, WsHandlerOptions } from "./ws_options.ts";

/**
 * What {@linkcode handleBunWebSocket}'s handlers keep on each socket: the
 * upgrade request and the subprotocol agreed (`""` for none). Bun's `upgrade`
 * in `fetch` sets it; another server's adapter builds it (see the module's
 * Node example).
 *
 * @example
 * ```ts
 * import type { WsPeerData } from "@ramify/api/graphql/ws";
 *
 * const data: WsPeerData = {
 *   request: new Request("http://localhost/graphql"),
 *   protocol: "graphql-transport-ws",
 * };
 * ```
 */
export interface WsPeerData {
  /** The upgrade request. */
  readonly request: Request;
  /** The subprotocol agreed in the handshake, `""` for none (then the socket is closed with `4406`). */
  readonly protocol: string;
}

/**
 * A server-side socket as {@linkcode handleBunWebSocket}'s handlers use it:
 * Bun's `ServerWebSocket<WsPeerData>` is one; for another server, wrap its
 * socket in an object of this shape and keep that same object for the
 * socket's life.
 *
 * @example
 * ```ts
 * import type { WsPeer } from "@ramify/api/graphql/ws";
 *
 * const sent: string[] = [];
 * const peer: WsPeer = {
 *   data: { request: new Request("http://localhost/graphql"), protocol: "graphql-transport-ws" },
 *   send: (text) => sent.push(text),
 *   close: () => {},
 * };
 * ```
 */
export interface WsPeer {
  /** The upgrade request and the subprotocol agreed. */
  readonly data: WsPeerData;
  /** Sends a text frame. */
  send(text: string): unknown;
  /** Closes the socket with a code and a reason. */
  close(code?: number, reason?: string): unknown;
  /** Bytes queued to send (Bun's `getBufferedAmount`): backpressure watches it when present. */
  getBufferedAmount?(): number;
}

/**
 * The part of Bun's `Server` that {@linkcode handleBunWebSocket} uses.
 *
 * @example
 * ```ts
 * import type { BunServerLike } from "@ramify/api/graphql/ws";
 *
 * const refusing: BunServerLike = { upgrade: () => false };
 * ```
 */
export interface BunServerLike {
  /** Upgrades a request to a WebSocket: `data` becomes the socket's `data`. */
  upgrade(
    request: Request,
    options: { headers?: ConstructorParameters<typeof Headers>[0]; data: WsPeerData },
  ): boolean;
}

/**
 * What {@linkcode handleBunWebSocket} returns: `fetch` and `websocket` as
 * `Bun.serve` takes them.
 *
 * @example
 * ```ts
 * import type { BunWebSocketHandler } from "@ramify/api/graphql/ws";
 *
 * const serveOptions = (handler: BunWebSocketHandler) => ({
 *   hostname: "127.0.0.1",
 *   port: 4000,
 *   fetch: handler.fetch,
 *   websocket: handler.websocket,
 * });
 * ```
 */
export interface BunWebSocketHandler {
  /**
   * Upgrades a WebSocket request, agreeing on `graphql-transport-ws` when the
   * client offers it, and returns nothing (Bun answers the handshake). A
   * request that is not an upgrade is `426`; one Bun cannot upgrade is `400`.
   */
  fetch(
    request: Request,
    server: BunServerLike,
  ): Response | undefined | Promise<Response | undefined>;
  /** The socket handlers. */
  readonly websocket: {
    /** A socket opened: the connection starts (and its init timeout). */
    open(ws: WsPeer): void;
    /** A message arrived (text; binary is read as UTF-8). */
    message(ws: WsPeer, message: string | ArrayBuffer | ArrayBufferView): void;
    /** The socket closed: its operations stop and their generators close. */
    close(ws: WsPeer, code?: number, reason?: string): void;
  };
}

/**
 * The part of `Deno.upgradeWebSocket`'s socket used here, declared so that
 * nothing names Deno's types (the npm build runs on Node and Bun).
 */
interface UpgradedSocket {
  readonly protocol: string;
  readonly readyState: number;
  binaryType: string;
  onopen: (() => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null;
  onerror: (() => void) | null;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

type UpgradeWebSocket = (
  request: Request,
  options?: { protocol?: string },
) => { socket: UpgradedSocket; response: Response };

const OPEN = 1;

/**
 * The WebSocket handler of a GraphQL server for `Deno.serve`: it upgrades the
 * request and speaks `graphql-transport-ws` on the socket. A request that is
 * not a WebSocket upgrade is `426 Upgrade Required`; a malformed handshake is
 * `400`. It serves whatever path it is given: route to it yourself, for
 * example upgrades of `/graphql`, beside `createHttpGraphQLServer` (given the
 * same server) for the rest.
 * It needs `Deno.upgradeWebSocket` and throws where there is none (on Bun, use
 * {@linkcode handleBunWebSocket}).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer, createHttpGraphQLServer } from "@ramify/api/graphql";
 * import { createWsHandler } from "@ramify/api/graphql/ws";
 *
 * const tree = api({
 *   ping: op(() => "pong", { tags: { readOnly: true } }),
 *   news: op(async function* () {
 *     yield "first";
 *     yield "second";
 *   }, { tags: { streaming: true } }),
 * });
 * // One server for both transports: one schema, one document cache.
 * const server = createGraphQLServer(tree);
 * const ws = createWsHandler(server, {
 *   onConnect: (params) => params.token === "secret",
 *   maxSubscriptions: 10,
 * });
 * const http = createHttpGraphQLServer(server);
 * const handler = (request: Request) =>
 *   request.headers.get("upgrade")?.toLowerCase() === "websocket" ? ws(request) : http(request);
 * // Deno.serve({ port: 4000 }, handler);
 * ```
 */
export function createWsHandler(
  server: GraphQLServer,
  opts: WsHandlerOptions = {},
): (request: Request) => Response | Promise<Response> {
  checkOptions("createWsHandler", opts, WS_OPTIONS, POLICY_OPTIONS);
  const upgrade = denoUpgrade();
  const connect = createConnect(server, opts);
  const open = (request: Request): Response => {
    if (!isUpgrade(request)) return upgradeRequired();
    const protocol = agreedProtocol(request);
    // Read before the upgrade: Deno closes the request then.
    const kept = detached(request);
    let upgraded: ReturnType<UpgradeWebSocket>;
    try {
      upgraded = upgrade(request, protocol === "" ? {} : { protocol });
    } catch {
      return problem(400, "The WebSocket handshake is malformed");
    }
    const { socket, response } = upgraded;
    socket.binaryType = "arraybuffer";
    let connection: ProtocolConnection | undefined;
    socket.onopen = () => {
      connection = connect({
        // Deno's server-side socket reports "" whatever was agreed: use what was agreed.
        protocol,
        send: (text) => {
          if (socket.readyState === OPEN) socket.send(text);
        },
        close: (code, reason) => socket.close(code, reason),
        bufferedAmount: () => socket.bufferedAmount,
      }, kept);
    };
    socket.onmessage = (event) => connection?.message(event.data);
    socket.onclose = (event) => {
      connection?.closed(event.code, event.reason);
      connection = undefined;
    };
    // A close event follows every error: the connection ends there.
    socket.onerror = () => {};
    return response;
  };
  const policies = opts.policies;
  if (policies === undefined || policies.length === 0) return open;
  return applyPolicies((request) => Promise.resolve(open(request)), graphqlWsEdge, policies);
}

function upgradeBun(request: Request, bunServer: BunServerLike): Response | undefined {
  const protocol = agreedProtocol(request);
  const data: WsPeerData = { request: detached(request), protocol };
  // Bun agrees on the client's first subprotocol unless told which.
  const upgraded = bunServer.upgrade(
    request,
    protocol === "" ? { data } : { data, headers: { "sec-websocket-protocol": protocol } },
  );
  return upgraded ? undefined : problem(400, "The WebSocket handshake is malformed");
}

/**
 * The WebSocket handlers of a GraphQL server for `Bun.serve`: `fetch`
 * upgrades the request (agreeing on `graphql-transport-ws`) and `websocket`
 * speaks the protocol on the socket. Pass both to `Bun.serve`, or call `fetch`
 * from your own for the GraphQL path. The `websocket` handlers own the sockets
 * of the Bun server; they take any {@linkcode WsPeer}, which is how Node's
 * `ws` package is served too (see the module documentation).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 * import { handleBunWebSocket } from "@ramify/api/graphql/ws";
 *
 * const tree = api({
 *   news: op(async function* () {
 *     yield "first";
 *   }, { tags: { streaming: true } }),
 * });
 * const handler = handleBunWebSocket(createGraphQLServer(tree), { initTimeout: 5_000 });
 * const options = {
 *   port: 4000,
 *   fetch: (request: Request, server: Parameters<typeof handler.fetch>[1]) =>
 *     new URL(request.url).pathname === "/graphql"
 *       ? handler.fetch(request, server)
 *       : new Response("Not Found", { status: 404 }),
 *   websocket: handler.websocket,
 * };
 * // Bun.serve(options);
 * ```
 */
export function handleBunWebSocket(
  server: GraphQLServer,
  opts: WsHandlerOptions = {},
): BunWebSocketHandler {
  checkOptions("handleBunWebSocket", opts, WS_OPTIONS, POLICY_OPTIONS);
  const policies = opts.policies;
  // Composed once; without policies the upgrade stays synchronous, as Bun prefers it.
  const guarded = policies === undefined || policies.length === 0
    ? undefined
    : applyPoliciesToUpgrades(upgradeBun, graphqlWsEdge, policies);
  const connect: Connect = createConnect(server, opts);
  const connections = new WeakMap<WsPeer, ProtocolConnection>();
  return {
    fetch(request, bunServer) {
      if (!isUpgrade(request)) return upgradeRequired();
      return guarded === undefined ? upgradeBun(request, bunServer) : guarded(request, bunServer);
    },
    websocket: {
      open(ws) {
        connections.set(
          ws,
          connect({
            protocol: ws.data.protocol,
            send: (text) => ws.send(text),
            close: (code, reason) => ws.close(code, reason),
            ...(typeof ws.getBufferedAmount === "function"
              ? { bufferedAmount: () => ws.getBufferedAmount!() }
              : {}),
          }, ws.data.request),
        );
      },
      message(ws, message) {
        connections.get(ws)?.message(message);
      },
      close(ws, code, reason) {
        const connection = connections.get(ws);
        connections.delete(ws);
        connection?.closed(code, reason);
      },
    },
  };
}

/**
 * The upgrade request as handlers may read it for the connection's life: its
 * method, URL and headers (Deno refuses to read a request's headers once it
 * has been upgraded).
 */
function detached(request: Request): Request {
  return new Request(request.url, {
    method: request.method,
    headers: new Headers(request.headers),
  });
}

function isUpgrade(request: Request): boolean {
  return request.headers.get("upgrade")?.toLowerCase() === "websocket";
}

/** `graphql-transport-ws` if the client offers it, else `""`. */
function agreedProtocol(request: Request): string {
  return handleProtocols(request.headers.get("sec-websocket-protocol") ?? "") || "";
}

function upgradeRequired(): Response {
  return errorResponse(
    new HttpError(
      426,
      "This endpoint speaks GraphQL over WebSocket (graphql-transport-ws): open a WebSocket",
      { title: "Upgrade Required", headers: { upgrade: "websocket" } },
    ),
  );
}

/** `Deno.upgradeWebSocket`, looked up when a handler is made: nothing here names Deno up front. */
function denoUpgrade(): UpgradeWebSocket {
  const deno = (globalThis as unknown as { Deno?: { upgradeWebSocket?: UpgradeWebSocket } }).Deno;
  const upgrade = deno?.upgradeWebSocket;
  if (typeof upgrade !== "function") {
    throw new TypeError(
      "createWsHandler needs Deno.upgradeWebSocket: on Bun use handleBunWebSocket; on Node, see the ws example of @ramify/api/graphql/ws",
    );
  }
  return (request, options) => upgrade.call(deno, request, options);
}
