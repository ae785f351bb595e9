/**
 * `serve(tree, opts?)`: the one line that starts a server for everything the
 * tree offers (see `createHandler`) on the runtime it runs on: `Deno.serve`,
 * `Bun.serve` or, on Node, `node:http` with `ws`. It prints where each surface
 * is, unless `quiet`.
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { serve } from "@ramify/api/serve";
 *
 * await serve(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }), { port: 8000 });
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { checkOptions } from "../tree/options.ts";
import {
  createHandler,
  HANDLER_OPTIONS,
  type HandlerOptions,
  type ServedPaths,
  type ServeHandler,
} from "./handler.ts";

/**
 * Options of {@linkcode serve}: the handler's, and where to listen.
 *
 * @example
 * ```ts
 * import type { ServeOptions } from "@ramify/api/serve";
 *
 * const opts: ServeOptions = { port: 8000, hostname: "127.0.0.1", mcp: false };
 * ```
 */
export interface ServeOptions extends HandlerOptions {
  /** The port; 0 picks a free one. Default 8000. */
  readonly port?: number;
  /** The interface. Default `0.0.0.0`. */
  readonly hostname?: string;
  /** Print nothing at start-up. Default false. */
  readonly quiet?: boolean;
}

/**
 * A running server: its address, what it serves where, and a graceful stop.
 *
 * @example
 * ```ts
 * import type { RunningServer } from "@ramify/api/serve";
 *
 * const stop = (server: RunningServer) => server.close();
 * ```
 */
export interface RunningServer {
  /** The base URL, like `http://localhost:8000`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** Where each surface is. */
  readonly paths: ServedPaths;
  /** Ends the calls in flight and stops listening. */
  close(): Promise<void>;
}

/**
 * A listener for a handler on one runtime: what `serve` picks, and what
 * `serveNode` is for Node.
 *
 * @example
 * ```ts
 * import type { Listen } from "@ramify/api/serve";
 *
 * const nowhere: Listen = () => Promise.reject(new Error("no runtime"));
 * ```
 */
export type Listen = (
  handler: ServeHandler,
  at: { readonly port: number; readonly hostname: string },
) => Promise<{ readonly port: number; close(): Promise<void> }>;

/**
 * Starts the server on this runtime.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { serve } from "@ramify/api/serve";
 *
 * const server = await serve(api({ ping: op(() => "pong") }), { port: 0, quiet: true, mcp: false });
 * console.log((await fetch(`${server.url}/health`)).status); // 200
 * await server.close();
 * ```
 */
export async function serve(tree: Node, opts: ServeOptions = {}): Promise<RunningServer> {
  checkOptions("serve", opts, [...HANDLER_OPTIONS, "port", "hostname", "quiet"]);
  const { port: _port, hostname: _hostname, quiet: _quiet, ...handlerOptions } = opts;
  const handler = await createHandler(tree, handlerOptions);
  const hostname = opts.hostname ?? "0.0.0.0";
  const listen = await listenerOfRuntime();
  const listening = await listen(handler, { port: opts.port ?? 8000, hostname });
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  const url = `http://${shown}:${listening.port}`;
  if (opts.quiet !== true) console.log(startupLines(url, handler.paths));
  return {
    url,
    port: listening.port,
    paths: handler.paths,
    close: async () => {
      await handler.close();
      await listening.close();
    },
  };
}

/** What `serve` prints: each surface's URL. */
export function startupLines(url: string, paths: ServedPaths): string {
  const rows: [string, string | undefined][] = [
    ["API", paths.api === undefined ? undefined : `${url}${paths.api === "/" ? "/" : paths.api}`],
    ["OpenAPI", paths.openapi && `${url}${paths.openapi}`],
    ["Docs", paths.docs && `${url}${paths.docs}`],
    [
      "GraphQL",
      paths.graphql &&
      `${url}${paths.graphql}${paths.graphiql ? " (GraphiQL in a browser)" : ""}`,
    ],
    ["MCP", paths.mcp && `${url}${paths.mcp}`],
    ["Health", paths.health && `${url}${paths.health}`],
  ];
  return [
    `Listening on ${url}/`,
    ...rows.filter(([, at]) => at !== undefined).map(([name, at]) => `  ${name.padEnd(8)} ${at}`),
  ].join("\n");
}

interface DenoLike {
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    handler: (request: Request) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
}

interface BunLike {
  serve(options: {
    port: number;
    hostname: string;
    fetch: (request: Request, server: unknown) => Promise<Response | undefined>;
    websocket: ServeHandler["websocket"];
  }): { port: number; stop(closeActive?: boolean): Promise<void> | void };
}

async function listenerOfRuntime(): Promise<Listen> {
  const runtime = globalThis as { Deno?: DenoLike; Bun?: BunLike };
  const bun = runtime.Bun;
  if (bun !== undefined) {
    return (handler, at) => {
      const server = bun.serve({ ...at, fetch: handler.fetch, websocket: handler.websocket });
      return Promise.resolve({ port: server.port, close: async () => await server.stop() });
    };
  }
  const deno = runtime.Deno;
  if (deno !== undefined) {
    return (handler, at) => {
      const server = deno.serve(
        { ...at, onListen() {} },
        async (request) => (await handler.fetch(request)) ?? new Response(null, { status: 500 }),
      );
      return Promise.resolve({ port: server.addr.port, close: () => server.shutdown() });
    };
  }
  const { serveNode } = await import("./node.ts");
  return serveNode;
}
