// One SDK server over the tree's tools: what each MCP request is answered
// with, on either transport. A 2026-era server serves one request at a time
// and the next once that one ends (reusedServers); a 2025-era session's
// request gets a fresh one. What the tree offers is collected once, before
// (mcpSurface), so a request pays nothing for the size of the tree.

import type {
  CallToolResult,
  ClientCapabilities,
  ListToolsRequest,
  ListToolsResult,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { ContextSource } from "../../tree/context.ts";
import type { Node } from "../../tree/node.ts";
import { log, withInteraction } from "../../tree/interaction.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { confirmation } from "./_confirm.ts";
import { capabilitiesOf, mcpInteraction, missingElicitation } from "./_elicit.ts";
import { isModern } from "./_logging.ts";
import type { McpTasks } from "./_tasks.ts";
import { requestStateKeysOf, stateSeal } from "./_request_state.ts";
import type { Rounds } from "./_rounds.ts";
import { registerLogging } from "./_logging.ts";
import { collectPrompts, type PromptEntry } from "../projection/prompts.ts";
import { completePromptArgument, registerPrompts } from "./_prompts.ts";
import {
  listCacheHints,
  registerSide,
  type ResourceSide,
  resourceSide,
  sideCapabilities,
} from "./_resource_side.ts";
import { collectTools, type ToolEntry } from "../projection/tools.ts";
import { runTool, type StreamStep, type ToolResult } from "./_result.ts";
import { pageOf } from "./_resource_read.ts";
import type { McpOptions } from "./options.ts";
import { MAX_INPUT_DEPTH } from "../../tree/plain_data.ts";
import { logFault } from "../../tree/outage.ts";

/** The SDK's module, loaded on the first request. */
export type Sdk = typeof import("@modelcontextprotocol/server");

/** What the tree offers over MCP, collected once for every server of a handler. */
export interface McpSurface {
  readonly tools: readonly ToolEntry[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
  readonly prompts: readonly PromptEntry[];
  readonly side?: ResourceSide;
  /** Whether a tool is long-running: the tasks extension is served then, and only then. */
  readonly longRunning: boolean;
}

/** The tree's tools, prompts and resources; a tree that cannot be described fails here. */
export function mcpSurface(tree: Node, caller: string, opts: McpOptions): McpSurface {
  const depth = opts.maxInputDepth;
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 1)) {
    throw new RangeError(`MCP: maxInputDepth must be a positive integer, got ${depth}`);
  }
  requestStateKeysOf(opts);
  const tools = collectTools(tree, caller, opts.warnMissingHints);
  return {
    tools,
    toolsByName: new Map(tools.map((entry) => [entry.descriptor.name, entry])),
    prompts: collectPrompts(tree, caller),
    side: resourceSide(tree, caller, opts),
    longRunning: tools.some((entry) => entry.task !== undefined),
  };
}

/**
 * The maker of the SDK servers answering every MCP request the surface
 * offers, one a request (2026 era) or a session's request (2025 era): what no
 * request changes (the options checked, the server's identity and
 * capabilities, the tools/list answer) is made once, here.
 */
export function serverMaker(
  loaded: Sdk,
  surface: McpSurface,
  opts: McpOptions,
  tasks?: McpTasks,
): (declared?: ClientCapabilities) => Server {
  const { tools, toolsByName: byName, prompts, side } = surface;
  const pageSize = opts.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`MCP: pageSize must be a positive integer, got ${pageSize}`);
  }
  const onError = opts.onError ??
    ((error: unknown) => logFault("ramify: MCP tool crashed:", error));
  // Over stdio: a request standing for the process, holding its headers.
  const standIn = opts.headers === undefined
    ? undefined
    : new Request("http://localhost/mcp", { method: "POST", headers: opts.headers });
  const info = { name: opts.name ?? "ramify", version: opts.version ?? "0.0.0" };
  // The SDK copies the capabilities, and keeps the hints as they are: one object serves every server.
  const options = {
    capabilities: {
      tools: {},
      logging: {},
      ...(prompts.length === 0 ? {} : { prompts: { listChanged: false } }),
      ...sideCapabilities(side, prompts.length > 0),
      ...(tasks === undefined ? {} : { extensions: tasks.extensions }),
    },
    cacheHints: listCacheHints(opts),
    ...(opts.instructions === undefined ? {} : { instructions: opts.instructions }),
    // A `requestState` the server did not seal is refused (-32602) before any handler sees it.
    requestState: { verify: stateSeal(loaded, opts).verify },
  };
  const maxDepth = opts.maxInputDepth ?? MAX_INPUT_DEPTH;
  const listTools = (request: ListToolsRequest): ListToolsResult => {
    const { items, ...next } = pageOf(loaded, tools, request.params?.cursor, pageSize);
    return {
      tools: items.map(({ descriptor }) => descriptor as ListToolsResult["tools"][number]),
      ...next,
    };
  };
  return (declared) => {
    const server = new loaded.Server(info, options);
    /** A call's own context (the client's signal, the request, the renderer of `log`/`ask`) and source. */
    const callContext = (
      ctx: ServerContext,
    ): {
      context: HandlerContext;
      source: ContextSource;
      rounds?: Rounds;
      unanswered?: () => boolean;
      settled: () => void;
    } => {
      const carried = ctx.http?.req;
      const carrier = carried ?? standIn;
      const declaredNow = declared ?? server.getClientCapabilities();
      const { interaction, rounds, unanswered } = mcpInteraction(
        loaded,
        ctx,
        opts,
        declaredNow,
        opts.timeoutMs,
      );
      const [client, settled] = webSignal(ctx.mcpReq.signal);
      const context = withInteraction(
        {
          // A question left to the client (2026 era) ends the run as a cancellation would.
          signal: rounds === undefined ? client : AbortSignal.any([client, rounds.signal]),
          surface: "mcp" as const,
          // The request's `_meta` (a `traceparent`, say), which stdio has no headers to carry.
          ...(ctx.mcpReq._meta === undefined ? {} : { mcpMeta: ctx.mcpReq._meta }),
          ...(carrier === undefined ? {} : { request: carrier }),
        },
        interaction,
      );
      return {
        rounds,
        unanswered,
        settled,
        context,
        source: carried === undefined ? { surface: "mcp" } : { surface: "mcp", request: carried },
      };
    };
    server.setRequestHandler("tools/list", listTools);
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
      const { context, source, rounds, unanswered, settled } = callContext(ctx);
      let result: ToolResult;
      try {
        const refused = await confirmation(entry, context, opts.confirmDestructive, opts.timeoutMs);
        if (refused !== undefined) return rounds?.pending() ?? refused as CallToolResult;
        // The confirmation's own question is no need of the handler's.
        unanswered?.();
        // A long-running tool's 2026-era call is a task for a client of the extension.
        if (entry.task !== undefined && tasks !== undefined && isModern(loaded, ctx)) {
          const capabilities = capabilitiesOf(
            loaded,
            ctx,
            declared ?? server.getClientCapabilities(),
          );
          const handle = await tasks.call(entry, args, { context, source, capabilities })
            .catch((error) => {
              // A question asked before the task (meta.tools.askFirst), left to the client: the
              // call's input round; the next round, with the answer, makes the task.
              const round = rounds?.pending();
              if (round === undefined) throw error;
              return round;
            });
          if (handle !== undefined) return handle as CallToolResult;
        }
        result = await runTool(
          entry,
          args,
          context,
          source,
          {
            onError: (error) => {
              if (source.request === undefined) onError(error);
              else onError(error, source.request);
              log(context, "error", `${name}: 500 Internal Server Error`);
            },
            timeoutMs: opts.timeoutMs,
            maxDepth,
            context: opts.context,
            resourceScheme: opts.resourceScheme,
            onItem: progressToken === undefined
              ? undefined
              : (step) => ctx.mcpReq.notify(progressOf(progressToken, step)),
          },
        );
      } finally {
        // Answered: the exchange's close that follows cancels nothing.
        settled();
      }
      const pending = rounds?.pending();
      if (pending !== undefined) return pending;
      // A 2026-era call that asked a client unable to answer, and then failed, needed elicitation.
      if (result.isError === true && unanswered?.() === true) {
        throw missingElicitation(loaded, name);
      }
      return server.projectCallToolResult(
        result as CallToolResult,
        entry.descriptor.outputSchema as Record<string, unknown> | undefined,
      );
    });
    tasks?.register(server, (ctx) => {
      const { context, source, settled } = callContext(ctx);
      settled();
      const capabilities = capabilitiesOf(loaded, ctx, declared ?? server.getClientCapabilities());
      return { context, source, capabilities };
    });
    registerLogging(server, loaded, opts);
    if (prompts.length > 0) {
      registerPrompts(server, loaded, prompts, { ...opts, onError }, callContext);
    }
    const contextOf = (ctx: ServerContext) => callContext(ctx).context;
    registerSide(
      server,
      loaded,
      side,
      { opts, onError, standIn, contextOf },
      pageSize,
      prompts.length === 0
        ? undefined
        : (name, argument, value, args, ctx) =>
          completePromptArgument(
            prompts,
            name,
            argument,
            value,
            args,
            contextOf(ctx),
            opts.timeoutMs,
          ),
    );
    return server;
  };
}

/** How many idle servers a handler keeps: past its usual concurrency, the rest are dropped. */
const MAX_IDLE = 32;

/**
 * A maker of 2026-era servers that reuses each once its exchange ends, so
 * that its handlers are registered once, not per request. The SDK sets each
 * exchange's revision and client capabilities on the server it is handed, and
 * refuses one still serving; a handler reads every other fact of its request
 * from the request's context.
 *
 * @example
 * ```ts ignore
 * const factory = reusedServers(() => makeServer());
 * const handler = loaded.createMcpHandler(() => factory(), { legacy: "reject" });
 * ```
 */
export function reusedServers(make: () => Server): () => Server {
  const idle: Server[] = [];
  return () => {
    const reused = idle.pop();
    if (reused !== undefined) return reused;
    const server = make();
    // The SDK chains its exchange's close to this one: the server is free again.
    server.onclose = () => void (idle.length < MAX_IDLE && idle.push(server));
    return server;
  };
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
 * signal's reason is then a cancelled call, not a fault. With it, the
 * function that stops following the client, once the call is answered.
 */
function webSignal(sdk: AbortSignal): [AbortSignal, () => void] {
  const web = new AbortController();
  const abort = () => web.abort(new DOMException("The client cancelled the call", "AbortError"));
  if (sdk.aborted) abort();
  else sdk.addEventListener("abort", abort, { once: true });
  return [web.signal, () => sdk.removeEventListener("abort", abort)];
}
