/**
 * An MCP server over a tree, on the official TypeScript SDK
 * (`@modelcontextprotocol/server`, an optional peer: loaded on the first
 * request, so a program that only describes tools never needs it).
 *
 * Every tool call goes through the leaf's call, prepared once: input
 * validated, handler run with a signal the client's cancellation (and the
 * `timeoutMs` deadline) aborts, output checked. A failure is a tool result
 * with `isError: true` whose text is the tree's one line for it, starting
 * with the HTTP status the other surfaces give (`404 Not Found: ...`, `422
 * ...` for arguments the input schema refuses, `503 ...` past the deadline,
 * `500 Internal Server Error` for a fault, its details masked), and a
 * declared error's data as JSON on the next line. An unknown tool is the
 * JSON-RPC error -32602. A streaming leaf sends each item as a progress
 * notification (when the client asked for progress) and its result holds
 * every item, as a list. Bytes (a `Blob`, a buffer, a byte stream) are one
 * `image`, `audio` or embedded `resource` block, base64, by media type.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createMcpHandler } from "@ramify/api/tools";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const mcp = createMcpHandler(tree, { name: "pinger" });
 * const serve = (request: Request) =>
 *   new URL(request.url).pathname === "/mcp" ? mcp(request) : new Response(null, { status: 404 });
 * ```
 *
 * @module
 */

import type { ClientCapabilities, McpHttpHandler } from "@modelcontextprotocol/server";
import type { Node } from "../tree/node.ts";
import { assertImplemented } from "../tree/contract.ts";
import type { ContextFunction } from "../tree/context.ts";
import { collectTools } from "./_collect.ts";
import { collectPrompts } from "./_prompts.ts";
import type { ToolsOptions } from "./describe.ts";
import { type Sdk, serverOf } from "./_server.ts";
import { modernSink, resourceSide, sessionHooks, withListen } from "./_resource_side.ts";
import { type LegacySessions, legacySessions } from "./_sessions.ts";
import { resumeOf } from "./_resume.ts";
import { type McpCancellations, type McpSessionStore, memoryMcpSessions } from "./sessions.ts";
import { type RateLimit, rateLimited, withRateHeaders } from "../http/web/rate_limit.ts";

/**
 * Options of the MCP server, over either transport.
 *
 * @example
 * ```ts
 * import type { McpOptions } from "@ramify/api/tools";
 *
 * const opts: McpOptions = {
 *   name: "bookstore",
 *   version: "1.2.0",
 *   timeoutMs: 10_000,
 *   context: ({ request }) => ({ tenant: request?.headers.get("x-tenant") ?? "public" }),
 * };
 * ```
 */
export interface McpOptions extends ToolsOptions {
  /** The server's name in the handshake. Default `"ramify"`. */
  readonly name?: string;
  /** The server's version in the handshake. Default `"0.0.0"`. */
  readonly version?: string;
  /** Instructions for the model, sent in the handshake. */
  readonly instructions?: string;
  /** Tools per `tools/list` page (with a cursor to the next). Default 100. */
  readonly pageSize?: number;
  /**
   * Observes a fault (a crash, a result breaking its output schema, an
   * undeclared error) before the masked result is sent, and a session store
   * or cancellation channel failing; never the caller's mistakes, declared
   * errors, cancellations or timeouts. Default: `console.error`.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Milliseconds a tool may run: then its `signal` aborts and the result is a
   * `503` tool error. Default none.
   */
  readonly timeoutMs?: number;
  /**
   * Makes the values tools' handlers and middleware see in their context. It
   * is told `{ surface: "mcp", request }` over HTTP (the request that carried
   * the call) and `{ surface: "mcp" }` over stdio. An `HttpError` it throws is
   * the tool's error result.
   */
  readonly context?: ContextFunction;
  /**
   * Headers the calls carry where the transport has none (stdio), so that
   * guards find their credentials there too: handlers see a request holding
   * them. Default none.
   */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /**
   * Confirming a `destructive` tool before it runs, as the command line asks
   * `Proceed? [y/N]`: `"ask"` (default) asks a client that declared
   * elicitation (a form with one boolean) and runs the tool for one that
   * cannot be asked; `"require"` refuses the call to a client that cannot be
   * asked; `"never"` never asks. A declined confirmation fails the call with
   * `aborted`, as the command line's "no".
   */
  readonly confirmDestructive?: "ask" | "require" | "never";
  /**
   * The scheme of resource URIs: a `readOnly` leaf is the resource
   * `<scheme>://<path>`, its path the one the HTTP surface serves it at,
   * each capture a `{name}` variable (`ramify://books/{bookId}`). Default
   * `"ramify"`.
   */
  readonly resourceScheme?: string;
  /**
   * How long (ms) clients may cache `tools/list`, `prompts/list`,
   * `resources/list` and `resources/templates/list` (the 2026-07-28
   * revision's `ttlMs`, `cacheScope: "public"`): a tree's lists never change
   * while it is served, so this is how long a redeployed server may go
   * unnoticed. `0` disables caching. Default one hour.
   */
  readonly listTtlMs?: number;
}

/**
 * Options of {@linkcode createMcpHandler}.
 *
 * @example
 * ```ts
 * import type { McpHandlerOptions } from "@ramify/api/tools";
 *
 * const opts: McpHandlerOptions = { allowedOrigins: ["localhost", "app.example.com"] };
 * ```
 */
export interface McpHandlerOptions extends McpOptions {
  /**
   * The hostnames a browser's `Origin` may name (port-agnostic); a request
   * from any other origin is a 403, which keeps DNS rebinding out. Requests
   * without `Origin` (non-browser clients) pass. Default: localhost names.
   */
  readonly allowedOrigins?: readonly string[];
  /** When given, the hostnames the `Host` header may name (403 otherwise). */
  readonly allowedHosts?: readonly string[];
  /**
   * Where 2025-era sessions live: any instance that reads the store serves a
   * session (`redisMcpSessions` of `@ramify/api/redis` for several instances).
   * While the store is unreachable, session requests are a `503`. Default: in
   * this process, bounded by `maxSessions` and `sessionIdleMs`.
   */
  readonly sessions?: McpSessionStore;
  /**
   * Carries a client's `notifications/cancelled` to the instance running the
   * call (a `PubSubBus`, or `redisMcpCancellations` of `@ramify/api/redis`).
   * Default: this process only.
   */
  readonly cancellations?: McpCancellations;
  /** With the default store: sessions kept at once; past it the least recently used ends. Default 1000. */
  readonly maxSessions?: number;
  /** With the default store: a session unused this long (ms) ends. Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /** A rate limit: over it, `429` with `Retry-After` and a JSON-RPC error. Default none. */
  readonly rateLimit?: RateLimit;
  /**
   * Resumable call streams of 2025-era sessions (SEP-1699): each message of a
   * call's SSE answer carries an event id, after a first priming event (for
   * clients of 2025-11-25 and later), and a client whose stream ended gets
   * the rest with a GET carrying `Last-Event-ID`. Events are kept in this
   * process: a replay must reach the instance that ran the call (session
   * affinity at the balancer). `false` turns it off. Default `{}`.
   */
  readonly resumability?: false | McpResumability;
}

/**
 * How call streams resume (SEP-1699).
 *
 * @example
 * ```ts
 * import type { McpResumability } from "@ramify/api/tools";
 *
 * // Long calls free their connection after 30 s; clients come back 2 s later.
 * const resumability: McpResumability = { pollAfterMs: 30_000, retryMs: 2_000 };
 * ```
 */
export interface McpResumability {
  /** The wait before reconnecting (ms) the priming event suggests. Default 1000. */
  readonly retryMs?: number;
  /**
   * Closes a call's stream after this long (ms) while the call runs on: the
   * client reconnects and gets what followed (polling). Default never.
   */
  readonly pollAfterMs?: number;
  /** Call streams kept for replay; past it the least recently used is forgotten. Default 1000. */
  readonly maxStreams?: number;
  /** How long an answered call's stream stays replayable (ms). Default 5 minutes. */
  readonly keepMs?: number;
}

/**
 * A fetch handler speaking MCP's Streamable HTTP transport; `close()` ends
 * the calls in flight.
 *
 * @example
 * ```ts
 * import type { McpFetchHandler } from "@ramify/api/tools";
 *
 * const shutdown = (mcp: McpFetchHandler) => mcp.close();
 * ```
 */
export interface McpFetchHandler {
  /** Answers one HTTP request. */
  (request: Request): Promise<Response>;
  /** Aborts the calls in flight. */
  close(): Promise<void>;
}

let sdk: Promise<Sdk> | undefined;

function loadSdk(): Promise<Sdk> {
  sdk ??= import("@modelcontextprotocol/server").catch((error) => {
    sdk = undefined;
    throw new Error(
      "ramify: the MCP server needs @modelcontextprotocol/server (npm i @modelcontextprotocol/server)",
      { cause: error },
    );
  });
  return sdk;
}

/**
 * Serves the tree's tools over MCP's Streamable HTTP transport: a fetch
 * handler to mount (at `/mcp` by convention). Tool names and schemas are
 * checked now, so a tree that cannot be described fails here, not on a call.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { api, op } from "@ramify/api/tree";
 * import { createMcpHandler } from "@ramify/api/tools";
 *
 * const tree = api({
 *   add: op(({ a, b }) => a + b, {
 *     input: z.object({ a: z.number(), b: z.number() }),
 *     tags: { readOnly: true },
 *   }),
 * });
 * const mcp = createMcpHandler(tree, { name: "calculator" });
 * ```
 */
export function createMcpHandler(tree: Node, opts: McpHandlerOptions = {}): McpFetchHandler {
  assertImplemented(tree, "createMcpHandler");
  const tools = collectTools(tree, "createMcpHandler", opts.warnMissingHints);
  const prompts = collectPrompts(tree, "createMcpHandler");
  const side = resourceSide(tree, "createMcpHandler", opts);
  const origins = opts.allowedOrigins;
  const hosts = opts.allowedHosts;
  const sessions = opts.sessions ??
    memoryMcpSessions({ maxSessions: opts.maxSessions, idleMs: opts.sessionIdleMs });
  const resume = opts.resumability === false ? undefined : resumeOf(opts.resumability);
  let served: { modern: McpHttpHandler; legacy: LegacySessions } | undefined;
  const answer = async (request: Request): Promise<Response> => {
    const loaded = await loadSdk();
    const rejected =
      (hosts === undefined
        ? undefined
        : loaded.hostHeaderValidationResponse(request, [...hosts])) ??
        loaded.originValidationResponse(
          request,
          origins === undefined ? loaded.localhostAllowedOrigins() : [...origins],
        );
    if (rejected !== undefined) return rejected;
    const makeServer = (declared?: ClientCapabilities) =>
      serverOf(loaded, tools, opts, prompts, declared, side);
    served ??= {
      // 2026-07-28 clients: one instance per request; cancelling closes the request.
      modern: loaded.createMcpHandler(() => makeServer(), { legacy: "reject", onerror: () => {} }),
      legacy: legacySessions(loaded, makeServer, {
        store: sessions,
        cancellations: opts.cancellations,
        onError: opts.onError ?? ((error) => console.error("ramify: MCP sessions:", error)),
        ...(resume === undefined ? {} : { resume }),
        ...(side?.followed === true ? sessionHooks(side) : {}),
      }),
    };
    if (await loaded.isLegacyRequest(request)) return await served.legacy.handle(request);
    const modern = served.modern;
    return side === undefined
      ? await modern.fetch(request)
      : await withListen(side, request, modernSink(modern), modern.fetch);
  };
  const rateLimit = opts.rateLimit;
  const fetch = async (request: Request) => {
    if (rateLimit === undefined) return lowerCaseHeaders(await answer(request));
    const verdict = await rateLimited(rateLimit, request);
    if (verdict.refused === undefined) {
      return withRateHeaders(lowerCaseHeaders(await answer(request)), verdict);
    }
    await request.body?.cancel().catch(() => {});
    const { status, message } = verdict.refused;
    return Response.json({
      jsonrpc: "2.0",
      error: { code: -32000, message: status === 429 ? "Too many requests" : message },
      id: null,
    }, { status, headers: verdict.headers });
  };
  return Object.assign(fetch, {
    close: async () => {
      await served?.modern.close();
      await served?.legacy.close();
      side?.sessions.close();
      side?.feeds.close();
    },
  });
}

/**
 * Serves the tree's tools over MCP's stdio transport (this process's stdin
 * and stdout), for clients that start the server as a command. Resolves once
 * serving has begun; `close()` ends it.
 *
 * @example
 * ```ts ignore
 * import { api, op } from "@ramify/api/tree";
 * import { serveMcpStdio } from "@ramify/api/tools";
 *
 * await serveMcpStdio(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }), {
 *   name: "pinger",
 * });
 * ```
 */
export async function serveMcpStdio(
  tree: Node,
  opts: McpOptions = {},
): Promise<{ close(): Promise<void> }> {
  const tools = collectTools(tree, "serveMcpStdio", opts.warnMissingHints);
  const loaded = await loadSdk();
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const prompts = collectPrompts(tree, "serveMcpStdio");
  const side = resourceSide(tree, "serveMcpStdio", opts);
  return serveStdio(() => serverOf(loaded, tools, opts, prompts, undefined, side));
}

/**
 * The response with its header names in lower case, as every other surface
 * writes them: the MCP SDK names some in title case, and Deno sends a name as
 * it was given.
 */
function lowerCaseHeaders(response: Response): Response {
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    // Iterating a Headers gives lower-case names (each Set-Cookie on its own).
    headers: [...response.headers],
  });
}
