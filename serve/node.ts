/**
 * `serveNode(handler, { port, hostname })`: the one adapter call that serves a
 * `createHandler` handler on Node's `node:http`, GraphQL subscriptions
 * included (through the `ws` package, an optional peer). `serve()` uses it on
 * Node by itself.
 *
 * A request's body reaches the handler with back-pressure: the socket is read
 * only as fast as the handler reads. A handler that stops reading (a `413`)
 * leaves the rest to be discarded as it arrives; once the answer is sent, a
 * body still coming is drained for two seconds, then the connection is closed.
 *
 * @example
 * ```ts ignore
 * import { createHandler } from "@ramify/api/serve";
 * import { serveNode } from "@ramify/api/serve/node";
 *
 * const handler = await createHandler(tree);
 * const server = await serveNode(handler, { port: 8000, hostname: "0.0.0.0" });
 * ```
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ServeHandler } from "./handler.ts";
import { nodeBody } from "./_node_body.ts";
import type { WsPeer } from "../graphql/transport/ws.ts";

/**
 * Serves the handler on `node:http`; WebSocket upgrades at
 * `handler.paths.subscriptions` go to GraphQL subscriptions (through `ws`,
 * which `createHandler` found installed, else it left them out), every other
 * upgrade is refused.
 *
 * @example
 * ```ts ignore
 * import { serveNode } from "@ramify/api/serve/node";
 *
 * const server = await serveNode(handler, { port: 0, hostname: "127.0.0.1" });
 * console.log(server.port);
 * await server.close();
 * ```
 */
export async function serveNode(
  handler: ServeHandler,
  at: { readonly port: number; readonly hostname: string },
): Promise<{ readonly port: number; close(): Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    respond(handler, incoming, outgoing).catch((error) => {
      console.error("ramify: a request failed in the Node adapter:", error);
      if (outgoing.headersSent) outgoing.end();
      else {
        // A problem, as every other failure answers; never an empty 500.
        outgoing.writeHead(500, { "content-type": "application/problem+json" });
        outgoing.end(INTERNAL_ERROR);
      }
    });
  });
  const upgrades = handler.paths.subscriptions;
  const sockets = upgrades === undefined ? undefined : await webSockets(handler);
  server.on("upgrade", (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (incoming.url ?? "/").split("?")[0];
    if (sockets === undefined || path !== upgrades) {
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
      return;
    }
    sockets(incoming, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(at.port, at.hostname, resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : at.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const INTERNAL_ERROR = JSON.stringify({
  type: "about:blank",
  title: "Internal Server Error",
  status: 500,
});

async function respond(
  handler: ServeHandler,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  const body = hasBody(incoming) ? nodeBody(incoming) : undefined;
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) controller.abort();
    // The answer is sent, or the client gone: a body left unread is not kept waiting.
    body?.release();
  });
  const request = requestOf(incoming, controller.signal, body?.stream);
  const response = (await handler.fetch(request)) ?? new Response(null, { status: 500 });
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    while (!outgoing.destroyed) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await drained(outgoing);
    }
  } finally {
    // A client gone mid-answer: the stream's source (an SSE generator, say) is told to stop.
    if (outgoing.destroyed) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  outgoing.end();
}

/** Resolves once the answer may be written on, or its connection is gone. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}

function hasBody(incoming: IncomingMessage): boolean {
  return incoming.method !== "GET" && incoming.method !== "HEAD" && incoming.method !== undefined;
}

function requestOf(
  incoming: IncomingMessage,
  signal: AbortSignal,
  body: ReadableStream<Uint8Array> | undefined,
): Request {
  const headers = headersOf(incoming);
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
  return new Request(url, {
    method: incoming.method ?? "GET",
    headers,
    signal,
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) { for (const item of value) headers.append(name, item); }
    else headers.set(name, value);
  }
  return headers;
}

/** What this adapter uses of the `ws` package. */
interface WsModule {
  readonly WebSocketServer: new (options: {
    noServer: true;
    handleProtocols: (offered: Set<string>) => string | false;
  }) => {
    handleUpgrade(
      incoming: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      done: (client: WsClient) => void,
    ): void;
  };
}

interface WsClient {
  readonly protocol: string;
  readonly bufferedAmount: number;
  send(text: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", listener: (data: unknown) => void): void;
  on(event: "close", listener: (code: number, reason: Buffer) => void): void;
}

/** The `ws` server that hands each socket to the handler's GraphQL subscriptions. */
async function webSockets(
  handler: ServeHandler,
): Promise<(incoming: IncomingMessage, socket: Duplex, head: Buffer) => void> {
  let ws: WsModule;
  try {
    // Named at run time: `ws` is an optional peer, typed here by what is used.
    const name = "ws";
    ws = await import(name) as WsModule;
  } catch (error) {
    throw new Error(
      "ramify: GraphQL subscriptions on Node need the ws package (npm i ws); or pass graphql: { ws: false }",
      { cause: error },
    );
  }
  const { websocket } = handler;
  const wss = new ws.WebSocketServer({
    noServer: true,
    // Agree on graphql-transport-ws when offered; without it the socket is closed with 4406.
    handleProtocols: (offered) =>
      offered.has("graphql-transport-ws") ? "graphql-transport-ws" : false,
  });
  return (incoming, socket, head) => {
    wss.handleUpgrade(incoming, socket, head, (client) => {
      const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
      const peer: WsPeer = {
        data: {
          request: new Request(url, { headers: headersOf(incoming) }),
          protocol: client.protocol,
        },
        send: (text) => client.send(text),
        close: (code, reason) => client.close(code, reason),
        getBufferedAmount: () => client.bufferedAmount,
      };
      websocket.open(peer);
      client.on("message", (data: unknown) => websocket.message(peer, String(data)));
      client.on(
        "close",
        (code: number, reason: Buffer) => websocket.close(peer, code, String(reason)),
      );
    });
  };
}
