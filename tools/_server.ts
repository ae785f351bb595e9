// One SDK server over the tree's tools: what each MCP request is answered
// with, on either transport. A fresh server per request (2026 era) or per
// session (2025 era); the tools are collected once, before.

import type {
  CallToolResult,
  ListToolsResult,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { ContextSource } from "../tree/context.ts";
import type { ToolEntry } from "./_collect.ts";
import { runTool, type StreamStep } from "./_result.ts";
import type { McpOptions } from "./mcp.ts";

/** The SDK's module, loaded on the first request. */
export type Sdk = typeof import("@modelcontextprotocol/server");

/** One SDK server answering `tools/list` and `tools/call` from the tools. */
export function serverOf(loaded: Sdk, tools: readonly ToolEntry[], opts: McpOptions): Server {
  const byName = new Map(tools.map((entry) => [entry.descriptor.name, entry]));
  const pageSize = opts.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`MCP: pageSize must be a positive integer, got ${pageSize}`);
  }
  const onError = opts.onError ??
    ((error: unknown) => console.error("ramify: MCP tool crashed:", error));
  // Over stdio: a request standing for the process, holding its headers.
  const standIn = opts.headers === undefined
    ? undefined
    : new Request("http://localhost/mcp", { method: "POST", headers: opts.headers });
  const server = new loaded.Server(
    { name: opts.name ?? "ramify", version: opts.version ?? "0.0.0" },
    {
      capabilities: { tools: {} },
      ...(opts.instructions === undefined ? {} : { instructions: opts.instructions }),
    },
  );
  server.setRequestHandler("tools/list", (request): ListToolsResult => {
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > tools.length || cursor === "") {
      throw new loaded.ProtocolError(
        loaded.ProtocolErrorCode.InvalidParams,
        `Invalid cursor: ${JSON.stringify(cursor)}`,
      );
    }
    const end = start + pageSize;
    return {
      tools: tools.slice(start, end).map(({ descriptor }) =>
        descriptor as ListToolsResult["tools"][number]
      ),
      ...(end < tools.length ? { nextCursor: String(end) } : {}),
    };
  });
  server.setRequestHandler("tools/call", async (request, ctx: ServerContext) => {
    const { name, arguments: args } = request.params;
    const entry = byName.get(name);
    if (entry === undefined) {
      throw new loaded.ProtocolError(
        loaded.ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${JSON.stringify(name)}`,
      );
    }
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const carried = ctx.http?.req;
    const carrier = carried ?? standIn;
    const source: ContextSource = carried === undefined
      ? { surface: "mcp" }
      : { surface: "mcp", request: carried };
    const result = await runTool(
      entry,
      args,
      {
        signal: webSignal(ctx.mcpReq.signal),
        surface: "mcp",
        // The request's `_meta` (a `traceparent`, say), which stdio has no headers to carry.
        ...(ctx.mcpReq._meta === undefined ? {} : { mcpMeta: ctx.mcpReq._meta }),
        ...(carrier === undefined ? {} : { request: carrier }),
      },
      source,
      {
        onError,
        timeoutMs: opts.timeoutMs,
        context: opts.context,
        onItem: progressToken === undefined
          ? undefined
          : (step) => ctx.mcpReq.notify(progressOf(progressToken, step)),
      },
    );
    return server.projectCallToolResult(
      result as CallToolResult,
      entry.descriptor.outputSchema as Record<string, unknown> | undefined,
    );
  });
  return server;
}

/**
 * A stream's step as a progress notification: an item's JSON as its message
 * (its position in `_meta.eventId`, for a call again with `lastEventId`), or
 * a gap's notice.
 */
function progressOf(progressToken: string | number, step: StreamStep) {
  const message = JSON.stringify("gap" in step ? step.gap : step.value);
  const eventId = "gap" in step ? undefined : step.eventId;
  return {
    method: "notifications/progress" as const,
    params: {
      progressToken,
      progress: step.count,
      message,
      ...(eventId === undefined ? {} : { _meta: { eventId } }),
    },
  };
}

/**
 * The client's cancellation as a web signal, aborting with an `AbortError` as
 * a request's signal does, whatever reason the SDK gives (a cancel
 * notification's text, a closed connection): a handler that gives up with its
 * signal's reason is then a cancelled call, not a fault.
 */
function webSignal(sdk: AbortSignal): AbortSignal {
  const web = new AbortController();
  const abort = () => web.abort(new DOMException("The client cancelled the call", "AbortError"));
  if (sdk.aborted) abort();
  else sdk.addEventListener("abort", abort, { once: true });
  return web.signal;
}
