// The confirmation of a `destructive` tool before it runs, as the command line
// asks `Proceed? [y/N]`: a form with one boolean, through the call's `ask`.
// Declined, dismissed or answered `false`, the call fails with the tree's
// line for a refused confirmation (`aborted`), before the handler runs. A
// client that cannot be asked (no form-mode elicitation, declared at
// `initialize` or on the 2026-era request) is refused with a line saying how
// to allow it (`"ask"`, the default, and `"require"`, now the same), as the
// command line refuses without a terminal, unless the server opts out:
// `"ask-or-run"` runs the tool for such a client, `"never"` never asks. The
// server's deadline bounds the wait for an answer too.

import { Cancelled, classify, failureLine, TimedOut } from "../../tree/failure.ts";
import { ask, confirmQuestion, NOT_CONFIRMED } from "../../tree/interaction.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { extended } from "../../tree/context.ts";
import type { ToolEntry } from "../projection/tools.ts";
import type { ToolResult } from "./_result.ts";

/** When to ask (McpOptions `confirmDestructive`). */
export type ConfirmMode = "ask" | "require" | "ask-or-run" | "never";

/** The refusal of a destructive tool to a client that cannot confirm it, saying how to allow it. */
function cannotConfirm(name: string): string {
  return `"${name}" is destructive: call it from a client that supports elicitation to confirm it, ` +
    `or set the server's confirmDestructive to "ask-or-run" to run it unconfirmed`;
}

/** The form a confirmation asks for. */
const CONFIRM_FORM = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Proceed?", default: false } },
  required: ["confirm"],
} as const;

/**
 * `undefined` when the call may go on; else the tool result it ends with.
 * `context` holds the call's renderer and the client's signal.
 */
export async function confirmation(
  entry: ToolEntry,
  context: HandlerContext,
  mode: ConfirmMode = "ask",
  timeoutMs?: number,
): Promise<ToolResult | undefined> {
  const { name, title, description } = entry.descriptor;
  if (!entry.confirms || mode === "never") return undefined;
  const deadline = timeoutMs === undefined || timeoutMs === Infinity
    ? undefined
    : AbortSignal.timeout(timeoutMs);
  const signals = [context.signal, deadline].filter((signal) => signal !== undefined);
  const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
  const about = description === undefined ? title : `${title}: ${description}`;
  try {
    const answer = await ask(extended(context, { signal }), {
      message: `${confirmQuestion(name)}\n${about}`,
      schema: CONFIRM_FORM,
    });
    if (answer.action === "accept" && answer.content.confirm === true) return undefined;
    if (answer.action !== "unsupported") return refused(NOT_CONFIRMED);
    return mode === "ask-or-run" ? undefined : refused(cannotConfirm(name));
  } catch (error) {
    const failure = classify(
      deadline?.aborted === true ? new TimedOut(timeoutMs!) : new Cancelled(error),
    );
    return refused(failureLine(failure));
  }
}

function refused(line: string): ToolResult {
  return { content: [{ type: "text", text: line }], isError: true };
}
