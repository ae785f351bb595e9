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

import type { McpHttpHandler } from "@modelcontextprotocol/server";
import type { Node } from "../../tree/node.ts";
import { assertImplemented } from "../../tree/contract.ts";
import {
  MCP_HANDLER_OPTIONS,
  MCP_OPTIONS,
  type McpHandlerOptions,
  type McpOptions,
} from "./options.ts";
import { checkOptions } from "../../tree/options.ts";
import { type McpSurface, mcpSurface, reusedServers, type Sdk, serverMaker } from "./_server.ts";
import type { McpTasks } from "./_tasks.ts";
import { sessionHooks, withListen } from "./_resource_side.ts";
import type { Sink } from "./_subscriptions.ts";
import { type LegacySessions, legacySessions } from "../sessions/legacy.ts";
import { resumeOf } from "../sessions/resume.ts";
import { identities } from "./_session_owner.ts";
import { memoryMcpSessions } from "../sessions/store.ts";
import { applyPolicies, POLICY_OPTIONS } from "../../web/edge.ts";
import { mcpEdge } from "./edge.ts";
import { bodyLimitOf, checkedRequest } from "./_request_body.ts";
import { BODY_TIMEOUT_MS } from "../../web/body.ts";
import { paramHeadersRefusal } from "./_param_headers.ts";
import { streamedIfLate } from "../sessions/call_answer.ts";
import { authorizationGate } from "./_authorization.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { logFault } from "../../tree/outage.ts";
import { sdkErrors } from "./_sdk_errors.ts";
import { callerInfo } from "./_request_state.ts";

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
  checkOptions("createMcpHandler", opts, MCP_HANDLER_OPTIONS, POLICY_OPTIONS);
  assertImplemented(tree, "createMcpHandler");
  const surface = mcpSurface(tree, "createMcpHandler", opts);
  const side = surface.side;
  const origins = opts.allowedOrigins;
  const hosts = opts.allowedHosts;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const maxBodyBytes = bodyLimitOf(opts.maxBodyBytes);
  // The SDK reads a body handed to it unparsed (none but one that is no JSON) within the same bound.
  const sdkLimit = { maxRequestBodySize: maxBodyBytes };
  const sessions = opts.sessions ??
    memoryMcpSessions({ maxSessions: opts.maxSessions, idleMs: opts.sessionIdleMs });
  const onError = opts.onError ?? ((error) => logFault("ramify: MCP sessions:", error));
  // What the SDK itself reports (a server it could not make, a failure while serving).
  const onSdkError = opts.onError ?? ((error) => logFault("ramify: MCP server failed:", error));
  const resume = opts.resumability === false ? undefined : resumeOf(opts.resumability, onError);
  const identify = identities(tree, opts.sessionOwner, onError);
  const authorization = authorizationGate(tree, surface);
  let served: {
    modern: McpHttpHandler;
    /** Its event bus: one sink, so that a URI several listen streams follow is published once a change. */
    sink: Sink;
    legacy: LegacySessions;
    tasks?: McpTasks;
  } | undefined;
  let loadingTasks: Promise<McpTasks | undefined> | undefined;
  const answer = async (received: Request): Promise<Response> => {
    const metadata = authorization?.metadata?.(received);
    if (metadata !== undefined) return metadata;
    // What a CORS preflight reads (the `cors()` policy): the methods the transport takes.
    if (received.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: { allow: "GET, POST, DELETE, OPTIONS" } });
    }
    const loaded = await loadSdk();
    const rejected =
      (hosts === undefined
        ? undefined
        : loaded.hostHeaderValidationResponse(received, [...hosts])) ??
        loaded.originValidationResponse(
          received,
          origins === undefined ? loaded.localhostAllowedOrigins() : [...origins],
        );
    if (rejected !== undefined) return rejected;
    const checked = await checkedRequest(received, maxBodyBytes, bodyTimeoutMs);
    if (checked instanceof Response) return checked;
    const { request, parsed } = checked;
    const refused = await authorization?.gate(request, parsed);
    if (refused !== undefined) return refused;
    if (served === undefined) {
      // Awaited: another first request may get here meanwhile, and keep what this one makes.
      const tasks = await (loadingTasks ??= tasksOf(loaded, surface, opts));
      const makeServer = serverMaker(loaded, surface, opts, tasks);
      served ??= {
        tasks,
        // 2026-07-28 clients: a server per request in flight, reused after; cancelling closes the request.
        modern: loaded.createMcpHandler(reusedServers(() => makeServer()), {
          legacy: "reject",
          onerror: sdkErrors(loaded, onSdkError),
          ...sdkLimit,
        }),
        sink: { deliver: (uri) => served!.modern.notify.resourceUpdated(uri) },
        legacy: legacySessions(loaded, makeServer, {
          store: sessions,
          identify,
          ...sdkLimit,
          cancellations: opts.cancellations,
          onError,
          ...(resume === undefined ? {} : { resume }),
          ...(side?.followed === true ? sessionHooks(side) : {}),
        }),
      };
    }
    if (
      !claimsEnvelope(loaded, parsed) && await loaded.isLegacyRequest(request, parsed, sdkLimit)
    ) {
      return await served.legacy.handle(request, parsed);
    }
    // Who asks: a request's state is bound to it (_request_state.ts).
    const caller = await identify(request);
    if (!caller.ok) return caller.response;
    const authInfo = callerInfo(caller.owner);
    const { modern, sink } = served;
    // The SDK checks this header against the body, so it refuses a false one. A call running
    // on is a stream begun (streamedIfLate): what lets Deno see a client gone before a write.
    if (request.headers.get("mcp-method") === "tools/call") {
      return paramHeadersRefusal(surface.toolsByName, request, parsed) ??
        await streamedIfLate(modern.fetch(request, { parsedBody: parsed, authInfo }));
    }
    const fetchModern = (request: Request, parsedBody: unknown) =>
      modern.fetch(request, { parsedBody, authInfo });
    const listen = (request: Request, parsed: unknown) =>
      side === undefined
        ? fetchModern(request, parsed)
        : withListen(side, request, parsed, sink, fetchModern);
    // A listen naming tasks: their notifications go around the SDK's stream (it knows none).
    return await (served.tasks?.listen(request, parsed, listen) ?? listen(request, parsed));
  };
  const fetch = applyPolicies(answer, mcpEdge, opts.policies);
  return Object.assign(fetch, {
    close: async () => {
      await served?.modern.close();
      await served?.legacy.close();
      await served?.tasks?.close();
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
  checkOptions("serveMcpStdio", opts, MCP_OPTIONS);
  const surface = mcpSurface(tree, "serveMcpStdio", opts);
  const loaded = await loadSdk();
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const makeServer = serverMaker(loaded, surface, opts, await tasksOf(loaded, surface, opts));
  return serveStdio(() => makeServer());
}

/**
 * The tasks extension, for a tree with a long-running tool: its code loaded
 * then only, so that a server without one pays nothing for it.
 */
async function tasksOf(
  loaded: Sdk,
  surface: McpSurface,
  opts: McpOptions,
): Promise<McpTasks | undefined> {
  if (!surface.longRunning) return undefined;
  const { mcpTasks } = await import("./_tasks.ts");
  return mcpTasks(loaded, surface.tools, opts);
}

/**
 * Whether a message claims the 2026-07-28 per-request envelope (the reserved
 * protocol-version key in its `_meta`): the SDK's `isLegacyRequest` says no
 * legacy request does, so it need not classify the message a second time
 * before the modern handler does. An `initialize`, which the SDK may route
 * either way, and anything shaped as a response are left to it.
 */
function claimsEnvelope(loaded: Sdk, message: unknown): boolean {
  if (!isPlainObject(message) || typeof message.method !== "string") return false;
  if (message.method === "initialize" || "result" in message || "error" in message) return false;
  const meta = isPlainObject(message.params) ? message.params._meta : undefined;
  return isPlainObject(meta) && loaded.PROTOCOL_VERSION_META_KEY in meta;
}
