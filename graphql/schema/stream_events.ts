/**
 * Positions of a subscription's events in GraphQL: an event's id goes in its
 * result's `extensions.eventId` (a client resubscribes with it as the
 * field's `lastEventId` argument), and a gap is an error with code
 * `EVENTS_MISSED` in the stream, which goes on after it.
 *
 * Internal: not a public subpath. The subscription field's `resolve` notes
 * the id of the event it resolves; the server adds it to that event's result.
 *
 * @module
 */

import { GraphQLError } from "graphql";
import { StreamEvent, StreamGap } from "../../tree/stream_events.ts";

// Per subscription (its context), the id of the event being resolved.
const noted = new WeakMap<object, string>();

/** The value a subscription field resolves for an event; a gap is the field's error. */
export function eventPayload(payload: unknown, context: unknown): unknown {
  if (payload instanceof StreamGap) {
    const { message, ...extensions } = payload.notice();
    throw new GraphQLError(message, { extensions });
  }
  if (!(payload instanceof StreamEvent)) return payload;
  if (typeof context === "object" && context !== null) noted.set(context, payload.id);
  return payload.value;
}

/** A subscription's result with the id of the event it resolved (noted once) in its extensions. */
export function withEventId<R extends { readonly extensions?: Readonly<Record<string, unknown>> }>(
  result: R,
  context: unknown,
): R {
  if (typeof context !== "object" || context === null) return result;
  const eventId = noted.get(context);
  if (eventId === undefined) return result;
  noted.delete(context);
  return { ...result, extensions: { ...result.extensions, eventId } };
}
