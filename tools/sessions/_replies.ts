// Server-to-client requests of a 2025-era session (a handler's question, as
// `elicitation/create`): sent on the stream of the call that asks, while the
// client's answer comes back on a POST of its own, which reaches a fresh
// server here or another instance. Each such request goes out under an id
// unique to it (every fresh server counts its own from 0, so two calls of one
// session would collide), kept with how to hand the answer back under the
// server's own id; an answer nobody here waits for goes out on the sessions'
// channel (as cancellations do) to the instance that does.

import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/server";
import { isPlainObject } from "../../tree/plain_data.ts";

/** Hands a message to the server of one exchange. */
type HandOver = (message: JSONRPCMessage) => void;

/** What is sent on the channel for an answer another instance waits for. */
export interface Relayed {
  readonly session: string;
  readonly reply: JSONRPCMessage & { readonly id: RequestId };
}

/**
 * Gives `send`'s server-to-client requests ids of their own, registering
 * (by `keyOf` their wire id) how their answers reach `handOver` under the
 * server's id. Returns the `send` to use.
 */
export function relayedSend<O>(
  send: (message: JSONRPCMessage, options?: O) => Promise<void>,
  handOver: HandOver,
  register: (wireId: string, deliver: HandOver) => void,
): (message: JSONRPCMessage, options?: O) => Promise<void> {
  return (message, options) => {
    if (!isRequest(message)) return send(message, options);
    const wireId = `ramify-${crypto.randomUUID()}`;
    const own = message.id;
    register(wireId, (reply) => handOver({ ...reply, id: own } as JSONRPCMessage));
    return send({ ...message, id: wireId }, options);
  };
}

/** Whether a message is an answer (a result or an error) to a request. */
export function isReply(message: JSONRPCMessage): message is Relayed["reply"] {
  return !("method" in message) && "id" in message &&
    (typeof message.id === "string" || typeof message.id === "number");
}

/** An answer off the channel, or undefined for anything else. */
export function relayedOf(text: string): Relayed | undefined {
  try {
    const parsed = JSON.parse(text);
    if (!isPlainObject(parsed) || typeof parsed.session !== "string") return undefined;
    const reply = parsed.reply;
    return isPlainObject(reply) && isReply(reply as JSONRPCMessage)
      ? { session: parsed.session, reply: reply as Relayed["reply"] }
      : undefined;
  } catch {
    return undefined;
  }
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "method" in message && "id" in message && message.id !== undefined;
}
