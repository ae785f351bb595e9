/**
 * Positions in a stream, decided once for every surface: an item may carry
 * the id it has in its topic (a {@linkcode StreamEvent}), so that a client
 * that reconnects can say where it stopped, and a stream may say that events
 * are missing (a {@linkcode StreamGap}) instead of skipping them silently.
 *
 * Each surface renders them its own way: SSE sends the id on the event's
 * `id:` line and a gap as `event: gap`; GraphQL puts the id in the result's
 * `extensions.eventId` and a gap as an error with code `EVENTS_MISSED`; MCP
 * puts the id in a progress notification's `_meta` and a gap as a progress
 * message; the command line prints a gap as a warning. A client resumes by
 * passing the last id it saw as the leaf's `lastEventId` input (over SSE the
 * `Last-Event-ID` header fills it).
 *
 * A pub/sub subscription on a bus that keeps events (`memoryStreams`,
 * `redisStreams`) gives its items ids itself; a handler writing its own
 * generator yields `streamEvent(value, id)`.
 *
 * @example
 * ```ts
 * import { api, op, streamEvent } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const tree = api({
 *   ticks: op(async function* ({ lastEventId }) {
 *     for (let n = Number(lastEventId ?? 0) + 1; n <= 3; n++) yield streamEvent({ n }, String(n));
 *   }, {
 *     tags: { readOnly: true, streaming: true },
 *     input: z.object({ lastEventId: z.string().optional() }),
 *   }),
 * });
 * ```
 *
 * @module
 */

/**
 * A stream's item with its position in its topic: the id means the same to
 * every server instance, so a client resuming from it anywhere gets what
 * follows it.
 *
 * @example
 * ```ts
 * import { StreamEvent } from "@ramify/api/tree";
 *
 * const event = new StreamEvent({ title: "Dune" }, "1700000000000-0");
 * console.log(event.id, event.value.title); // 1700000000000-0 Dune
 * ```
 */
export class StreamEvent<T = unknown> {
  /**
   * @param value the item
   * @param id its position: text without line breaks
   */
  constructor(readonly value: T, readonly id: string) {}

  /** The same position with another value (the value its output schema parsed). */
  with<U>(value: U): StreamEvent<U> {
    return new StreamEvent(value, this.id);
  }
}

/** Characters of a client's id a notice repeats. */
const MAX_SHOWN_ID = 64;

/**
 * Stands in a stream where events were not delivered: they were older than
 * what the topic keeps, the position a client resumed from is unknown, or the
 * subscriber fell too far behind. The stream goes on after it.
 *
 * @example
 * ```ts
 * import { StreamGap } from "@ramify/api/tree";
 *
 * const gap = new StreamGap("1700000000000-0");
 * console.log(gap.notice().code); // EVENTS_MISSED
 * ```
 */
export class StreamGap {
  /** @param lastEventId the position the client had, when it named one */
  constructor(readonly lastEventId?: string) {}

  /** What every surface tells the client, as JSON (a client's long id cut short). */
  notice(): GapNotice {
    const id = this.lastEventId;
    if (id === undefined) {
      return {
        code: "EVENTS_MISSED",
        message: "Some events were not delivered: this subscriber fell behind",
      };
    }
    const shown = id.length > MAX_SHOWN_ID ? `${id.slice(0, MAX_SHOWN_ID)}…` : id;
    return {
      code: "EVENTS_MISSED",
      message:
        `Events after ${shown} are no longer kept, or that id is unknown: the stream goes on from the oldest event kept, or with live events only when the id is unknown`,
      lastEventId: shown,
    };
  }
}

/**
 * The JSON a client receives for a {@linkcode StreamGap}.
 *
 * @example
 * ```ts
 * import type { GapNotice } from "@ramify/api/tree";
 *
 * const notice: GapNotice = { code: "EVENTS_MISSED", message: "Some events were not delivered" };
 * ```
 */
export interface GapNotice {
  readonly code: "EVENTS_MISSED";
  readonly message: string;
  readonly lastEventId?: string;
}

/**
 * What a stream's item is to its receivers: the value of a
 * {@linkcode StreamEvent}, nothing for a {@linkcode StreamGap} (each surface
 * tells a gap its own way), any other item as it is.
 *
 * @example
 * ```ts
 * import type { StreamEvent, StreamGap, StreamItemOf } from "@ramify/api/tree";
 *
 * const n: StreamItemOf<StreamEvent<number> | StreamGap | string> = 1;
 * ```
 */
export type StreamItemOf<I> = I extends StreamEvent<infer V> ? V : I extends StreamGap ? never : I;

/**
 * Gives a stream's item its position, for a handler writing its own stream.
 *
 * @example
 * ```ts
 * import { streamEvent } from "@ramify/api/tree";
 *
 * async function* numbers() {
 *   yield streamEvent(1, "1");
 *   yield streamEvent(2, "2");
 * }
 * ```
 *
 * @throws {TypeError} for an id with a line break (it could not travel on an SSE `id:` line).
 */
export function streamEvent<T>(value: T, id: string): StreamEvent<T> {
  if (/[\r\n\0]/.test(id)) throw new TypeError("A stream event's id may not hold a line break");
  return new StreamEvent(value, id);
}

/**
 * The method by which a source of events (a pub/sub subscription) gives its
 * items with their positions and gaps, while iterating it plainly gives the
 * values alone. A leaf returning such a source streams its positions on
 * every surface.
 *
 * @example
 * ```ts
 * import { StreamEvent } from "@ramify/api/tree";
 * import { eventsOf } from "@ramify/api/tree/catalogue";
 *
 * const source = {
 *   async *[Symbol.asyncIterator]() {
 *     yield "a";
 *   },
 *   async *[eventsOf]() {
 *     yield new StreamEvent("a", "1");
 *   },
 * };
 * ```
 */
export const eventsOf: unique symbol = Symbol.for("ramify.eventsOf");

/**
 * A source whose items have positions: see {@linkcode eventsOf}.
 *
 * @example
 * ```ts
 * import type { PositionedSource } from "@ramify/api/tree/catalogue";
 *
 * const accept = (source: PositionedSource) => source;
 * ```
 */
export interface PositionedSource {
  /** The items as {@linkcode StreamEvent}s (or bare values), with {@linkcode StreamGap}s. */
  [eventsOf](): AsyncIterator<unknown>;
}

/**
 * The stream a surface sends for a leaf's result: a source's positioned items
 * when it has them, else the stream as it is.
 *
 * @example
 * ```ts
 * import { positioned } from "@ramify/api/tree/catalogue";
 *
 * async function* plain() {
 *   yield 1;
 * }
 * const stream = positioned(plain()); // the same stream
 * ```
 */
export function positioned(source: AsyncIterable<unknown>): AsyncIterable<unknown> {
  const events = (source as Partial<PositionedSource>)[eventsOf];
  if (typeof events !== "function") return source;
  return { [Symbol.asyncIterator]: () => events.call(source) };
}
