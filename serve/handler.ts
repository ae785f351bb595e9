/**
 * `createHandler(tree, opts?)`: one fetch handler for everything the tree
 * offers, each surface at its own path and each switchable:
 *
 * | path | what |
 * |---|---|
 * | `/` | the REST API (`createFetch`), with `/openapi.json` |
 * | `/docs` | Swagger UI over the document; "try it out" calls this server |
 * | `/graphql` | GraphQL over HTTP; a WebSocket upgrade for subscriptions; GraphiQL for a browser (`Accept: text/html`) |
 * | `/mcp` | the MCP server (Streamable HTTP) |
 * | `/health` | `200 { "status": "ok" }` |
 *
 * The UIs' files come from their npm packages through this server, never a
 * CDN, and are read only when a UI is first opened. On Node and Bun, a
 * surface whose optional package is not installed (`@modelcontextprotocol/server`
 * for MCP; `swagger-ui-dist` for the docs; `graphiql`, `react` and `react-dom`
 * for GraphiQL; `ws` for subscriptions on Node; `graphql` for GraphQL) is left
 * out when the handler is built, with one line on standard error naming the
 * package to install. The handler works as
 * `export default handler` for `deno serve`, with `Deno.serve`, and with
 * `Bun.serve` (give it `handler.websocket` too); on Node, `serveNode` from
 * `@ramify/api/serve/node` wires it to `node:http` and `ws`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHandler } from "@ramify/api/serve";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const handler = await createHandler(tree, { mcp: false });
 * const response = await handler.fetch(new Request("http://localhost/health"));
 * console.log(await response?.json()); // { status: "ok" }
 * await handler.close();
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { assertImplemented } from "../tree/contract.ts";
import { createFetch, type CreateFetchOptions } from "../http/server/fetch.ts";
import type { ContextFunction } from "../tree/context.ts";
import { httpProjection } from "../route/projection.ts";
import { problem, restEdge } from "../web/respond.ts";
import { checkPolicies, type Policy, POLICY_OPTIONS } from "../web/edge.ts";
import { splitUrl } from "../web/request.ts";
import type { HttpGraphQLServerOptions } from "../graphql/transport/http.ts";
import type { BunWebSocketHandler, WsHandlerOptions } from "../graphql/transport/ws.ts";
import type { McpHandlerOptions } from "../tools/server/options.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";
import { tasksOf } from "./_tasks.ts";
import { serveAsset } from "./_assets.ts";
import { edgeOf, type Mounted } from "./_edge.ts";
import { graphiqlInit, graphiqlPage, swaggerInit, swaggerPage } from "./_pages.ts";
import { installed, WS_NEEDS_PACKAGE } from "./_peers.ts";
import { checkOptions, type ErrorObserver, knownKeys } from "../tree/options.ts";

/**
 * Options of {@linkcode createHandler}: one key per surface, `false` to leave
 * it out, else its own options; `context`, `timeoutMs`, `onError` and the
 * limits are given to every surface that has them (a surface's own options
 * win). A key it does not know is refused when it is called; a surface's
 * options are checked by that surface.
 *
 * @example
 * ```ts
 * import type { HandlerOptions } from "@ramify/api/serve";
 *
 * const opts: HandlerOptions = {
 *   context: ({ request }) => ({ tenant: request?.headers.get("x-tenant") }),
 *   timeoutMs: 10_000,
 *   graphql: { path: "/gql", graphiql: false },
 *   mcp: false,
 * };
 * ```
 */
export interface HandlerOptions {
  /** Makes the context values of every surface's handlers (told which surface, and the request). */
  readonly context?: ContextFunction;
  /** Milliseconds every leaf call may take on every surface, then 503 / `TIMEOUT`. Default none. */
  readonly timeoutMs?: number;
  /**
   * Origins besides the server's own whose pages may post forms to REST and
   * GraphQL (any other site's form is `403`, a forgery). Default none.
   */
  readonly trustedOrigins?: readonly string[];
  /** The largest body REST, GraphQL and MCP accept, in bytes (`413` above it). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Milliseconds a body may take to arrive on REST, GraphQL and MCP: `408` after. Default 30,000. */
  readonly bodyTimeoutMs?: number;
  /** The deepest nesting of a call's input on every surface (a `400` or its like below it). Default 64. */
  readonly maxInputDepth?: number;
  /** Observes every surface's faults, with the request. Default: `console.error`. */
  readonly onError?: ErrorObserver;
  /**
   * Request policies, applied once in front of every surface (REST, GraphQL,
   * MCP, the docs and health), the first listed running first:
   * `[cors(...), rateLimit(...)]` from `@ramify/api/http`. A refusal is
   * written as the surface it guards writes one. A surface's own `policies`
   * add to these (one of the same name is refused). Default none.
   */
  readonly policies?: readonly Policy[];
  /** Long-running leaves' tasks, one runtime REST, GraphQL and MCP share. Default: in memory. */
  readonly tasks?: TaskRuntime;
  /** The REST API and its document (`createFetch`'s options). Default on. */
  readonly rest?: false | CreateFetchOptions;
  /** GraphQL over HTTP and WebSocket, and GraphiQL. Default on, at `/graphql`. */
  readonly graphql?: false | GraphQLMount;
  /** The MCP server. Default on, at `/mcp`. */
  readonly mcp?: false | (McpHandlerOptions & { readonly path?: string });
  /** Swagger UI over the OpenAPI document. Default on, at `/docs`. */
  readonly docs?: false | { readonly path?: string; readonly title?: string };
  /** The health check. Default on, at `/health`. */
  readonly health?: false | { readonly path?: string };
}

/**
 * The GraphQL mount: the HTTP server's options, the WebSocket's (`false`: no
 * subscriptions over WebSocket) and GraphiQL (`false`: none).
 *
 * @example
 * ```ts
 * import type { GraphQLMount } from "@ramify/api/serve";
 *
 * const mount: GraphQLMount = { path: "/graphql", ws: { maxSubscriptions: 10 }, graphiql: true };
 * ```
 */
export interface GraphQLMount extends HttpGraphQLServerOptions {
  /** The WebSocket transport's options; `false` for none. Default on. */
  readonly ws?: false | WsHandlerOptions;
  /** GraphiQL for browsers at the same path. Default on. */
  readonly graphiql?: boolean;
}

/**
 * Where each surface is served (`undefined`: not served).
 *
 * @example
 * ```ts
 * import type { ServedPaths } from "@ramify/api/serve";
 *
 * const paths: ServedPaths = { api: "/", openapi: "/openapi.json", health: "/health" };
 * ```
 */
export interface ServedPaths {
  readonly api?: string;
  readonly openapi?: string;
  readonly docs?: string;
  readonly graphql?: string;
  readonly graphiql?: string;
  /** Where GraphQL subscriptions upgrade to WebSocket (the GraphQL path). */
  readonly subscriptions?: string;
  readonly mcp?: string;
  readonly health?: string;
}

/**
 * The one handler: `fetch` for every runtime (Bun passes its server as the
 * second argument, for upgrades), Bun's `websocket` handlers (also what
 * `serveNode` drives), the paths served, and `close()` for a graceful stop.
 *
 * @example
 * ```ts
 * import type { ServeHandler } from "@ramify/api/serve";
 *
 * const stop = (handler: ServeHandler) => handler.close();
 * ```
 */
export interface ServeHandler {
  /** Answers a request; `undefined` when Bun took it over as a WebSocket. */
  fetch(request: Request, server?: unknown): Promise<Response | undefined>;
  /** Bun's WebSocket handlers for GraphQL subscriptions. */
  readonly websocket: BunWebSocketHandler["websocket"];
  /** Where each surface is. */
  readonly paths: ServedPaths;
  /** Ends what is in flight (MCP streams) before a server stops. */
  close(): Promise<void>;
}

const ASSETS_AT = "/assets";

/**
 * Builds the handler. GraphQL and MCP modules are loaded only when mounted;
 * a surface whose optional package is missing (Node, Bun) is left out, with a
 * line saying what to install.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHandler } from "@ramify/api/serve";
 *
 * const handler = await createHandler(api({ ping: op(() => "pong") }), { graphql: false, mcp: false });
 * console.log(handler.paths.docs); // "/docs"
 * ```
 *
 * @throws {TypeError} when two surfaces, or a surface and the tree, claim one path, or
 * a leaf is a contract without a handler (see `implement`).
 */
export async function createHandler(tree: Node, opts: HandlerOptions = {}): Promise<ServeHandler> {
  checkOptions("createHandler", opts, HANDLER_OPTIONS, POLICY_OPTIONS);
  if (opts.policies !== undefined) checkPolicies(opts.policies);
  const { guard, surfaceOwn } = edgeOf(opts.policies);
  checkOptions("createHandler (docs)", opts.docs || undefined, ["path", "title"]);
  checkOptions("createHandler (health)", opts.health || undefined, ["path"]);
  assertImplemented(tree, "createHandler");
  // What every surface is given unless its own options say otherwise.
  const given = (keys: readonly (keyof HandlerOptions)[]) =>
    Object.fromEntries(keys.flatMap((key) => opts[key] === undefined ? [] : [[key, opts[key]]]));
  // One runtime for every surface: a task started on one is read and cancelled on another.
  const made = opts.tasks === undefined ? await tasksOf(tree) : undefined;
  const calls = given(["context", "timeoutMs", "onError", "maxInputDepth", "tasks"]);
  if (made !== undefined) calls.tasks = made;
  const bodies = given(["maxBodyBytes", "bodyTimeoutMs"]);
  const forms = given(["trustedOrigins"]);
  const shared = { ...calls, ...bodies, ...forms };
  const routes = new Map<string, Mounted>();
  const claim = (path: string, what: string, serve: Mounted, surface = restEdge) => {
    if (!path.startsWith("/") || path.length < 2) {
      throw new TypeError(
        `createHandler: the ${what} path must start with "/" and name something, got "${path}"`,
      );
    }
    if (routes.has(path)) throw new TypeError(`createHandler: ${path} is claimed twice (${what})`);
    routes.set(path, guard(serve, surface));
  };
  const paths: Record<string, string> = {};

  const restOptions = opts.rest === false ? undefined : under(shared, opts.rest);
  surfaceOwn("rest", restOptions?.policies);
  const rest = restOptions === undefined ? undefined : createFetch(tree, restOptions);
  if (rest !== undefined) {
    paths.api = restOptions?.basePath ?? "/";
    if (restOptions?.openapi !== false) {
      paths.openapi = `${(restOptions?.basePath ?? "").replace(/\/$/, "")}/openapi.json`;
    }
  }

  let websocket: BunWebSocketHandler["websocket"] = NO_WEBSOCKET;
  if (opts.graphql !== false && installed("GraphQL", ["graphql"], "graphql: false")) {
    const mount = opts.graphql ?? {};
    const path = mount.path ?? "/graphql";
    const { createGraphQLServer, createHttpGraphQLServer } = await import("../graphql/mod.ts");
    const { createWsHandler, handleBunWebSocket } = await import("../graphql/transport/ws.ts");
    const { HTTP_TRANSPORT_OPTIONS } = await import("../graphql/transport/http_options.ts");
    const { GRAPHQL_SERVER_OPTIONS } = await import("../graphql/execution/server_options.ts");
    // One schema for both transports: the mount's transport options go to the
    // one, the rest (`onError` to both) to the server. Checked as the HTTP
    // server given a tree checks them.
    const { ws: _ws, graphiql: _graphiql, ...own } = mount;
    surfaceOwn("graphql", own.policies);
    surfaceOwn("graphql.ws", mount.ws === false ? undefined : mount.ws?.policies);
    const { graphqlEdge } = await import("../graphql/transport/edge.ts");
    checkOptions(
      "createHttpGraphQLServer",
      own,
      [...GRAPHQL_SERVER_OPTIONS, ...HTTP_TRANSPORT_OPTIONS],
    );
    const transport: Record<string, unknown> = {};
    const serverOwn: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(own)) {
      if ((HTTP_TRANSPORT_OPTIONS as readonly string[]).includes(key)) transport[key] = value;
      if (!(HTTP_TRANSPORT_OPTIONS as readonly string[]).includes(key) || key === "onError") {
        serverOwn[key] = value;
      }
    }
    const served = { ...given(["timeoutMs", "onError"]), tasks: calls.tasks };
    const server = createGraphQLServer(tree, under(served, serverOwn));
    const http = createHttpGraphQLServer(server, {
      ...under(
        { ...given(["context", "onError", "maxInputDepth"]), ...bodies, ...forms },
        transport,
      ),
      path,
    });
    const sockets = mount.ws !== false &&
      (!WS_NEEDS_PACKAGE ||
        installed("GraphQL subscriptions over WebSocket", ["ws"], "graphql: { ws: false }"));
    const wsOptions: WsHandlerOptions | undefined = sockets
      ? under(given(["context", "onError", "maxInputDepth"]), mount.ws)
      : undefined;
    // Deno upgrades in the handler; Bun through its server; Node in serveNode, before the handler.
    const denoUpgrades = typeof (globalThis as { Deno?: { upgradeWebSocket?: unknown } }).Deno
      ?.upgradeWebSocket === "function";
    const deno = wsOptions === undefined || !denoUpgrades
      ? undefined
      : createWsHandler(server, wsOptions);
    const bun = wsOptions === undefined ? undefined : handleBunWebSocket(server, wsOptions);
    if (bun !== undefined) websocket = bun.websocket;
    const graphiql = mount.graphiql !== false &&
      installed("GraphiQL", ["graphiql", "react", "react-dom"], "graphql: { graphiql: false }");
    const assets = `${path}${ASSETS_AT}`;
    claim(path, "GraphQL", async (request, bunServer) => {
      if (request.headers.get("upgrade")?.toLowerCase() === "websocket" && bun !== undefined) {
        if (isBunServer(bunServer)) return await bun.fetch(request, bunServer) ?? undefined;
        if (deno !== undefined) return await deno(request);
      }
      if (
        graphiql && request.method === "GET" &&
        request.headers.get("accept")?.includes("text/html") && !splitUrl(request.url).query
      ) {
        return html(graphiqlPage("GraphiQL", assets));
      }
      return await http(request);
    }, graphqlEdge);
    paths.graphql = path;
    if (graphiql) {
      claim(
        assets,
        "GraphiQL assets",
        (request) => serveAsset(request, assets, { "graphiql-init.js": () => graphiqlInit(path) }),
      );
      paths.graphiql = path;
    }
    if (bun !== undefined) paths.subscriptions = path;
  }

  let closeMcp = () => Promise.resolve();
  if (
    opts.mcp !== false && installed("MCP", ["@modelcontextprotocol/server"], "mcp: false")
  ) {
    const { path = "/mcp", ...own } = opts.mcp ?? {};
    surfaceOwn("mcp", own.policies);
    const { mcpEdge } = await import("../tools/server/edge.ts");
    const { createMcpHandler } = await import("../tools/server/mcp.ts");
    // MCP has no forms: its browser guard is `allowedOrigins` (see docs/limits.md).
    const mcp = createMcpHandler(tree, under({ ...calls, ...bodies }, own));
    closeMcp = () => mcp.close();
    claim(path, "MCP", mcp, mcpEdge);
    paths.mcp = path;
  }

  if (
    opts.docs !== false && rest !== undefined && paths.openapi !== undefined &&
    installed("Docs (Swagger UI)", ["swagger-ui-dist"], "docs: false")
  ) {
    const path = opts.docs?.path ?? "/docs";
    const title = opts.docs?.title ?? restOptions?.document?.title ?? "API";
    const assets = `${path}${ASSETS_AT}`;
    const openapi = paths.openapi;
    claim(
      path,
      "docs",
      (request) =>
        Promise.resolve(
          request.method === "GET" || request.method === "HEAD"
            ? html(swaggerPage(`${title}: API reference`, assets))
            : problem(405, "The docs page answers GET", { allow: "GET, HEAD" }),
        ),
    );
    claim(
      assets,
      "docs assets",
      (request) => serveAsset(request, assets, { "swagger-init.js": () => swaggerInit(openapi) }),
    );
    paths.docs = path;
  }

  if (opts.health !== false) {
    const path = opts.health?.path ?? "/health";
    claim(path, "health", () => Promise.resolve(Response.json({ status: "ok" })));
    paths.health = path;
  }

  checkTreeClaims(tree, restOptions, routes);
  const prefixes = [...routes.keys()].sort((a, b) => b.length - a.length);
  const elsewhere = guard(
    (request) =>
      rest === undefined
        ? Promise.resolve(problem(404, "No route matches this path"))
        : rest(request),
    restEdge,
  );
  return {
    async fetch(request, server) {
      const path = splitUrl(request.url).path;
      for (const prefix of prefixes) {
        if (path === prefix || (path.startsWith(`${prefix}/`) && prefix.endsWith(ASSETS_AT))) {
          try {
            return await routes.get(prefix)!(request, server);
          } catch (error) {
            // A surface that throws still answers a problem, never an empty 500.
            console.error(`ramify: ${prefix} failed:`, error);
            return problem(500);
          }
        }
      }
      return await elsewhere(request);
    },
    websocket,
    paths,
    close: () => closeMcp().then(() => made?.close()),
  };
}

/**
 * Every option of {@linkcode createHandler}: any other key is refused when it
 * is called (`serve` knows these and where to listen).
 *
 * @example
 * ```ts
 * import { HANDLER_OPTIONS } from "./handler.ts";
 *
 * console.log(HANDLER_OPTIONS.includes("mcp")); // true
 * ```
 */
export const HANDLER_OPTIONS = knownKeys<HandlerOptions>()([
  "policies",
  "context",
  "timeoutMs",
  "trustedOrigins",
  "maxBodyBytes",
  "bodyTimeoutMs",
  "maxInputDepth",
  "onError",
  "tasks",
  "rest",
  "graphql",
  "mcp",
  "docs",
  "health",
]);

/** A surface's options over what every surface is given: its own win. */
function under<T extends object>(shared: Record<string, unknown>, own: T | undefined): T {
  return { ...shared, ...own } as T;
}

const NO_WEBSOCKET: BunWebSocketHandler["websocket"] = {
  open: (peer) => peer.close(1008, "No WebSocket here"),
  message: () => {},
  close: () => {},
};

function isBunServer(
  value: unknown,
): value is { upgrade(request: Request, opts?: unknown): boolean } {
  return typeof (value as { upgrade?: unknown } | undefined)?.upgrade === "function";
}

function html(text: string): Response {
  return new Response(text, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      // The pages and everything they load come from here.
      "content-security-policy":
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:",
      "x-content-type-options": "nosniff",
    },
  });
}

/** A surface's path that the tree routes itself is a clash, named at build. */
function checkTreeClaims(
  tree: Node,
  rest: CreateFetchOptions | undefined,
  routes: ReadonlyMap<string, unknown>,
): void {
  if (rest === undefined || (rest.basePath !== undefined && rest.basePath !== "/")) return;
  const route = httpProjection(tree, rest);
  for (const path of routes.keys()) {
    const first = path.split("/")[1];
    const child = route.children[first];
    if (child === undefined) continue;
    const exact = path.split("/").length === 2;
    if (!exact || Object.keys(child.methods).length > 0) {
      throw new TypeError(
        `createHandler: the tree routes /${first} itself, where a surface is served (${path}); move the surface (its path option) or rename the tree's child`,
      );
    }
  }
}
