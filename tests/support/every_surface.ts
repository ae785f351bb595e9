// One tree served on every surface at once, for the agreement suites: REST,
// GraphQL over HTTP and WebSocket and MCP on one real server, with an MCP
// client, a graphql-ws client and the generated GraphQL client connected.
import { createClient as createWsClient } from "graphql-ws";
import type { Node } from "@ramify/api/tree/node";
import { createFetch } from "@ramify/api/http";
import {
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
} from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createMcpHandler } from "@ramify/api/tools";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** Where each server reports a fault, and what the clients send through. */
export interface EverySurfaceOptions {
  readonly onError?: {
    readonly rest?: (error: unknown) => void;
    readonly graphql?: (error: unknown) => void;
    readonly mcp?: (error: unknown) => void;
  };
  /** The MCP client's fetch (to record the wire). */
  readonly mcpFetch?: typeof fetch;
  /** The graphql-ws client's WebSocket (to record the wire). */
  readonly webSocketImpl?: unknown;
}

/** What `generateGraphQLClient` writes, as the suites use it. */
export interface GeneratedClientModule {
  createClient(transport: unknown): unknown;
  httpTransport(url: string, opts?: { readonly headers?: Record<string, string> }): unknown;
  wsTransport(socket: unknown): unknown;
  GraphQLClientError: abstract new (...args: never[]) => Error;
}

/** The served tree and its connected clients. */
export interface EverySurface {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly mcpClient: McpClient;
  readonly socket: ReturnType<typeof createWsClient>;
  /** The module `generateGraphQLClient(tree)` wrote, imported. */
  readonly generated: GeneratedClientModule;
  close(): Promise<void>;
}

/** Each surface's handler, as one server mounts them. */
export interface SurfaceHandlers {
  readonly rest: (request: Request) => Response | Promise<Response>;
  readonly graphqlHttp: (request: Request) => Response | Promise<Response>;
  readonly graphqlWs: (request: Request) => Response | Promise<Response>;
  readonly mcp: (request: Request) => Response | Promise<Response>;
}

/** One real server on a free port: MCP at `/mcp`, GraphQL (HTTP and WebSocket) at `/graphql`, REST elsewhere. */
export function mountSurfaces(handlers: SurfaceHandlers): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/mcp") return handlers.mcp(request);
    if (pathname !== "/graphql") return handlers.rest(request);
    return request.headers.get("upgrade") === "websocket"
      ? handlers.graphqlWs(request)
      : handlers.graphqlHttp(request);
  });
}

/** Serves `tree` on every surface and connects a client to each; `close()` stops them all. */
export async function serveEverySurface(
  tree: Node,
  opts: EverySurfaceOptions = {},
): Promise<EverySurface> {
  const quiet = () => {};
  const graphqlOptions = { onError: opts.onError?.graphql ?? quiet };
  const rest = createFetch(tree, { onError: opts.onError?.rest ?? quiet });
  const graphqlHttp = createHttpGraphQLServer(tree, graphqlOptions);
  const graphqlWs = createWsHandler(createGraphQLServer(tree, graphqlOptions));
  // The suites' MCP client cannot confirm: like the CLI's --yes, destructive tools run unasked.
  const mcp = createMcpHandler(tree, {
    onError: opts.onError?.mcp ?? quiet,
    confirmDestructive: "never",
  });
  const server = mountSurfaces({ rest, graphqlHttp, graphqlWs, mcp });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const socket = createWsClient({
    url: `ws://127.0.0.1:${server.addr.port}/graphql`,
    webSocketImpl: opts.webSocketImpl ?? WebSocket,
    retryAttempts: 0,
  });
  const dir = await Deno.makeTempDir({ prefix: "ramify-agreement-" });
  const mcpClient = new McpClient({ name: "agreement", version: "1.0.0" });
  const close = async () => {
    await mcpClient.close();
    await mcp.close();
    await socket.dispose();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  };
  try {
    await mcpClient.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        ...(opts.mcpFetch === undefined ? {} : { fetch: opts.mcpFetch }),
      }),
    );
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    const generated = await import(`file://${dir}/client.ts`);
    return { base, mcpClient, socket, generated, close };
  } catch (error) {
    await close();
    throw error;
  }
}
