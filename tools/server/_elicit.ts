// MCP's rendering of a handler's `ask` (tree/interaction.ts), when the client
// declared elicitation (form mode): on a 2025-era request an
// `elicitation/create` request related to the tool call; on a 2026-era one,
// which has no server-to-client requests, the multi-round-trip pattern
// (_rounds.ts). Without elicitation `ask` answers `unsupported`. The answer
// is checked against the form by `ask` itself.

import type { ClientCapabilities, ServerContext } from "@modelcontextprotocol/server";
import type { AskResult, FormSchema, Interaction } from "../../tree/interaction.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { isModern, logTo, progressTo } from "./_logging.ts";
import { type Rounds, roundsOf } from "./_rounds.ts";
import { stateSeal } from "./_request_state.ts";
import type { McpOptions } from "./options.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** The client's capabilities: as the session's `initialize` declared them, or the request's envelope. */
export function capabilitiesOf(
  loaded: Sdk,
  ctx: ServerContext,
  declared: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const carried = envelope?.[loaded.CLIENT_CAPABILITIES_META_KEY];
  return declared ?? (isPlainObject(carried) ? carried as ClientCapabilities : undefined);
}

/**
 * How a handler's question reaches this client on a 2025-era request, or
 * `undefined` when it cannot (no form-mode elicitation declared).
 * `timeoutMs` bounds the wait as the server's deadline does.
 */
function askOver(
  loaded: Sdk,
  ctx: ServerContext,
  capabilities: ClientCapabilities | undefined,
  timeoutMs: number | undefined,
): Interaction["ask"] {
  if (!formMode(capabilities) || isModern(loaded, ctx)) return undefined;
  return async (message: string, schema: FormSchema, signal: AbortSignal | undefined) => {
    const result = await ctx.mcpReq.send(
      {
        method: "elicitation/create",
        params: { mode: "form", message, requestedSchema: schema as Record<string, unknown> },
      },
      {
        ...(signal === undefined ? {} : { signal }),
        ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
      },
    );
    return (result.action === "accept"
      ? { action: "accept", content: result.content ?? {} }
      : { action: result.action }) as AskResult;
  };
}

/**
 * What a call's handler's `log`, `progress` and `ask` do over MCP, and the
 * call's rounds when its questions go back to the client (2026 era). A
 * 2026-era request that declared no form elicitation gets `unsupported` at
 * its `ask`, and `unanswered` says (once) whether a question met it since it
 * was last read: a call that then fails needed the capability (-32021).
 */
export function mcpInteraction(
  loaded: Sdk,
  ctx: ServerContext,
  opts: McpOptions,
  declared: ClientCapabilities | undefined,
  timeoutMs: number | undefined,
): { interaction: Interaction; rounds?: Rounds; unanswered?: () => boolean } {
  const capabilities = capabilitiesOf(loaded, ctx, declared);
  const modern = isModern(loaded, ctx);
  const rounds = modern && formMode(capabilities)
    ? roundsOf(loaded, ctx, stateSeal(loaded, opts))
    : undefined;
  let missed = false;
  const unsupported = modern && rounds === undefined
    ? () => {
      missed = true;
      return Promise.resolve({ action: "unsupported" } as const);
    }
    : undefined;
  return {
    interaction: {
      log: logTo(loaded, ctx, opts),
      progress: progressTo(ctx),
      ask: rounds?.ask ?? unsupported ?? askOver(loaded, ctx, capabilities, timeoutMs),
    },
    ...(rounds === undefined ? {} : { rounds }),
    ...(unsupported === undefined ? {} : {
      unanswered: () => {
        const was = missed;
        missed = false;
        return was;
      },
    }),
  };
}

/**
 * The `-32021` error of a 2026-era call that asked a client without form
 * elicitation and then failed: the capability it needed, for the client to
 * declare and call again.
 */
export function missingElicitation(loaded: Sdk, tool: string): Error {
  return new loaded.MissingRequiredClientCapabilityError(
    { requiredCapabilities: { elicitation: { form: {} } } },
    `"${tool}" needs an answer from the user: declare the elicitation capability (form mode) and call it again`,
  );
}

/** Whether the client answers forms: `elicitation: {}` (before modes existed) or `{ form: {} }`. */
function formMode(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return isPlainObject(elicitation) &&
    (Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form));
}
