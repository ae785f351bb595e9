// A handler's `ask` on a 2026-era request, which has no server-to-client
// requests: the multi-round-trip pattern. A question the request does not
// answer yet ends the run (the call's signal aborts, so the handler unwinds
// as a cancelled call) and the call returns `input_required` with the
// question; the client asks the person and calls again with the answer, and
// the handler runs again from the start, this time getting the answer at the
// same question; questions asked together (`Promise.all`) go back together.
// A question is keyed by its own `key`, or by its order in the
// run (`ask-1`, `ask-2`, ...); the answers earlier rounds used ride in
// `requestState`, sealed (_request_state.ts), so that the next round, on any
// instance, hands them out again as they were given. Keys of the request the
// run never asks for are dropped, and every answer is checked against its
// form by `ask`.

import type { InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import type { AskResult, FormSchema } from "../../tree/interaction.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import type { StateSeal } from "./_request_state.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

/** The questions of one 2026-era call. */
export interface Rounds {
  /** Aborts when a question is left to the client: the run ends there. */
  readonly signal: AbortSignal;
  /** The renderer's `ask`. */
  ask(
    message: string,
    schema: FormSchema,
    signal: AbortSignal | undefined,
    key?: string,
  ): Promise<AskResult>;
  /** The `input_required` result, when a question was left to the client. */
  pending(): InputRequiredResult | undefined;
}

/** The rounds of a 2026-era call, answered from the request; `seal` seals the next round's state. */
export function roundsOf(loaded: Sdk, ctx: ServerContext, seal: StateSeal): Rounds {
  // The SDK opened the state (its `verify` hook is the seal's): what the server sealed.
  const opened = ctx.mcpReq.requestState();
  const answers: Record<string, unknown> = {
    ...(isPlainObject(opened) && isPlainObject(opened.answers) ? opened.answers : {}),
    ...ctx.mcpReq.inputResponses,
  };
  const used: Record<string, unknown> = {};
  const ended = new AbortController();
  let asked = 0;
  const questions = new Map<string, { message: string; schema: FormSchema }>();
  let sealing: Promise<string> | undefined;
  let state: string | undefined;
  return {
    signal: ended.signal,
    async ask(message, schema, _signal, own) {
      const key = own ?? `ask-${++asked}`;
      const answer = Object.hasOwn(answers, key) ? answers[key] : undefined;
      if (isPlainObject(answer)) {
        used[key] = answer;
        // Anything but the three actions is no answer: the form check sees `accept`'s content.
        return (ACTIONS.has(answer.action)
          ? answer.action === "accept"
            ? { action: "accept", content: answer.content ?? {} }
            : { action: answer.action }
          : { action: "cancel" }) as AskResult;
      }
      if (ended.signal.aborted) throw ended.signal.reason;
      // Questions asked together (`Promise.all`) go back together: the state is sealed a
      // microtask later, once each of them has been asked or answered, and then the run ends.
      if (!questions.has(key)) questions.set(key, { message, schema });
      sealing ??= Promise.resolve().then(() => seal.mint({ answers: { ...used } }, ctx));
      try {
        state = await sealing;
      } finally {
        ended.abort(new DOMException("The client answers first", "AbortError"));
      }
      throw ended.signal.reason;
    },
    pending() {
      if (state === undefined) return undefined;
      return loaded.inputRequired({
        inputRequests: Object.fromEntries(
          [...questions].map(([key, { message, schema }]) => [
            key,
            loaded.inputRequired.elicit({
              mode: "form",
              message,
              requestedSchema: schema as never,
            }),
          ]),
        ),
        requestState: state,
      });
    },
  };
}
