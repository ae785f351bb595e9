// A handler's `ask` on a 2026-era request, which has no server-to-client
// requests: the multi-round-trip pattern. A question the request does not
// answer yet ends the run (the call's signal aborts, so the handler unwinds
// as a cancelled call) and the call returns `input_required` with the
// question; the client asks the person and calls again with the answer, and
// the handler runs again from the start, this time getting the answer at the
// same question. Questions are keyed by their order in the run (`ask-1`,
// `ask-2`, ...); earlier rounds' answers ride in `requestState`. Both the
// state and the answers come from the client: an answer is a client's answer
// either way, and every one is checked against its form by `ask`.

import type { InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import type { AskResult, FormSchema } from "../../tree/interaction.ts";
import { isPlainObject } from "../../tree/plain_data.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** State past this many characters is not read: answers are small. */
const MAX_STATE = 64 * 1024;
const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

/** The questions of one 2026-era call. */
export interface Rounds {
  /** Aborts when a question is left to the client: the run ends there. */
  readonly signal: AbortSignal;
  /** The renderer's `ask`. */
  ask(message: string, schema: FormSchema): Promise<AskResult>;
  /** The `input_required` result, when a question was left to the client. */
  pending(): InputRequiredResult | undefined;
}

/** The rounds of a 2026-era call, answered from the request. */
export function roundsOf(loaded: Sdk, ctx: ServerContext): Rounds {
  const answers: Record<string, unknown> = {
    ...stateOf(ctx.mcpReq.requestState()),
    ...ctx.mcpReq.inputResponses,
  };
  const ended = new AbortController();
  let asked = 0;
  let left: { key: string; message: string; schema: FormSchema } | undefined;
  return {
    signal: ended.signal,
    ask(message, schema) {
      const key = `ask-${++asked}`;
      const answer = Object.hasOwn(answers, key) ? answers[key] : undefined;
      if (isPlainObject(answer)) {
        // Anything but the three actions is no answer: the form check sees `accept`'s content.
        return Promise.resolve(
          (ACTIONS.has(answer.action)
            ? answer.action === "accept"
              ? { action: "accept", content: answer.content ?? {} }
              : { action: answer.action }
            : { action: "cancel" }) as AskResult,
        );
      }
      left ??= { key, message, schema };
      ended.abort(new DOMException("The client answers first", "AbortError"));
      return Promise.reject(ended.signal.reason);
    },
    pending() {
      if (left === undefined) return undefined;
      const { key, message, schema } = left;
      const known = Object.fromEntries(
        Object.entries(answers).filter(([name]) => /^ask-\d+$/.test(name)),
      );
      return loaded.inputRequired({
        inputRequests: {
          [key]: loaded.inputRequired.elicit({
            mode: "form",
            message,
            requestedSchema: schema as never,
          }),
        },
        requestState: JSON.stringify(known),
      });
    },
  };
}

function stateOf(state: unknown): Record<string, unknown> {
  if (typeof state !== "string" || state.length > MAX_STATE) return {};
  try {
    const parsed = JSON.parse(state);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
