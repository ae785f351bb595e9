// MCP's rendering of a handler's log lines and progress (tree/interaction.ts),
// and `logging/setLevel`. 2025 era: the level a client set holds for its
// session, remembered in this process (per handler, bounded), since every
// request of a session gets a fresh SDK server. 2026 era (stateless): a
// request carries its level in `_meta` (`io.modelcontextprotocol/logLevel`);
// without one, nothing is logged to it, as the SDK does.

import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { LOG_LEVELS, type LogLevel } from "../../tree/interaction.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** Sessions whose level is remembered, per handler; past it the oldest is forgotten. */
const MAX_LEVELS = 10_000;
const levelsOf = new WeakMap<object, Map<string, LogLevel>>();

/** The levels set through one handler's options (one map per `createMcpHandler` / `serveMcpStdio`). */
function levels(owner: object): Map<string, LogLevel> {
  let map = levelsOf.get(owner);
  if (map === undefined) levelsOf.set(owner, map = new Map());
  return map;
}

/** The session a request belongs to: its header over HTTP, one for the process over stdio. */
function sessionOf(ctx: ServerContext): string {
  return ctx.sessionId ?? ctx.http?.req?.headers.get("mcp-session-id") ?? "";
}

/** Answers `logging/setLevel`, remembering the level for the session. */
export function registerLogging(server: Server, loaded: Sdk, owner: object): void {
  server.setRequestHandler("logging/setLevel", (request, ctx) => {
    const level = request.params.level as LogLevel;
    if (!LOG_LEVELS.includes(level)) {
      throw new loaded.ProtocolError(
        loaded.ProtocolErrorCode.InvalidParams,
        `Unknown log level: ${JSON.stringify(level)}`,
      );
    }
    const map = levels(owner);
    const session = sessionOf(ctx);
    map.delete(session);
    map.set(session, level);
    if (map.size > MAX_LEVELS) map.delete(map.keys().next().value!);
    return {};
  });
}

/** Whether the request came in the 2026 (stateless) era: it carries the protocol envelope. */
export function isModern(loaded: Sdk, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[loaded.PROTOCOL_VERSION_META_KEY] !== undefined;
}

/**
 * Sends a log line to the client of this request, when at or above its
 * level: a `notifications/message` whose `data` is the message, or
 * `{ message, data }` when the handler gave data.
 */
export function logTo(
  loaded: Sdk,
  ctx: ServerContext,
  owner: object,
): (level: LogLevel, message: string, data: unknown) => Promise<void> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const threshold = isModern(loaded, ctx)
    ? envelope?.[loaded.LOG_LEVEL_META_KEY] as LogLevel | undefined
    : levels(owner).get(sessionOf(ctx));
  // 2026 era: a client that sent no level asked for no log lines.
  const silent = isModern(loaded, ctx) && threshold === undefined;
  return async (level, message, data) => {
    if (silent) return;
    if (threshold !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) {
      return;
    }
    await ctx.mcpReq.notify({
      method: "notifications/message",
      params: { level, data: data === undefined ? message : { message, data: jsonOf(data) } },
    });
  };
}

/** Progress as `notifications/progress`, when the client asked for it (a progress token). */
export function progressTo(
  ctx: ServerContext,
):
  | ((done: number, total: number | undefined, message: string | undefined) => Promise<void>)
  | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return async (progress, total, message) => {
    await ctx.mcpReq.notify({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message: String(message) }),
      },
    });
  };
}

/** Data as JSON goes: what cannot be JSON (a cycle, a bigint) is its text instead. */
function jsonOf(data: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(data) ?? "null");
  } catch {
    return String(data);
  }
}
