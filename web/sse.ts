/**
 * A stream of results as Server-Sent Events. The first item is waited for a
 * short while ({@linkcode OPEN_WITHIN_MS}) before anything is sent, so a
 * failure before it is the call's failure, answered with its own status;
 * past that bound the headers and an `: open` comment go at once, so that a
 * client or a balancer sees the subscription open while its topic is quiet.
 * Each item is one `data:` event with an `id:`: the item's own position when
 * it has one (a `StreamEvent`), else counting from 1 (or on from the
 * `Last-Event-ID` the client resumed with); a `StreamGap` is an `event: gap`
 * holding its notice. A comment line keeps the connection alive while the source is quiet,
 * and a failure ends the stream with an `event: error` holding the problem
 * body of its classification (a fault's bare 500, reported). Closing the
 * connection returns the source, so a generator's `finally` runs.
 *
 * Internal: not a public subpath. Used by the HTTP server's responses.
 *
 * @module
 */

import type { HandlerContext } from "../tree/node.ts";
import { failureOf } from "../tree/run.ts";
import { StreamEvent, StreamGap } from "../tree/stream_events.ts";
import { problemOf } from "./problem.ts";

/** How one event stream is written. */
export interface EventStreamOptions {
  /** The `id` of the first event. */
  readonly firstId: number;
  /** Milliseconds of silence before a heartbeat comment; 0 sends none. */
  readonly heartbeatMs: number;
  /** The call's context: its signal tells a failure of a caller gone away. */
  readonly context: HandlerContext;
  /** Observes a fault under way (a declared error is the handler's answer, not a fault). */
  readonly onError: (error: unknown) => void;
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(": heartbeat\n\n");
const OPENED = encoder.encode(": open\n\n");

/** Milliseconds the first item may take before the stream opens without it. */
export const OPEN_WITHIN_MS = 100;

/**
 * The event-stream response of a source. Rejects with what the source threw
 * before its first item, for the caller to answer as the call's failure.
 */
export async function eventStream(
  source: AsyncIterable<unknown>,
  opts: EventStreamOptions,
): Promise<Response> {
  const iterator = source[Symbol.asyncIterator]();
  const first = iterator.next();
  // Read later by `pull`; until then a rejection is not unhandled.
  first.catch(() => {});
  let pending: IteratorResult<unknown> | Promise<IteratorResult<unknown>> | undefined =
    await firstWithin(first, OPEN_WITHIN_MS);
  let opened = pending === undefined;
  if (opened) pending = first;
  let id = opts.firstId;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (opened) {
        opened = false;
        controller.enqueue(OPENED);
        return;
      }
      let event: Uint8Array | undefined;
      let failed = false;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      try {
        let step = pending;
        pending = undefined;
        if (step === undefined || step instanceof Promise) {
          if (opts.heartbeatMs > 0) {
            heartbeat = setInterval(() => {
              if (!cancelled) controller.enqueue(HEARTBEAT);
            }, opts.heartbeatMs);
          }
          step = await (step ?? iterator.next());
        }
        if (step.done) event = undefined;
        else if (step.value instanceof StreamGap) event = namedEvent("gap", step.value.notice());
        else if (step.value instanceof StreamEvent) {
          event = dataEvent(step.value.value, step.value.id);
        } else event = dataEvent(step.value, String(id++));
      } catch (error) {
        failed = true;
        const failure = failureOf(error, opts.context);
        if (failure.kind === "fault") opts.onError(error);
        event = namedEvent("error", problemOf(failure));
      } finally {
        clearInterval(heartbeat);
      }
      // Cancelled while the source was busy: the stream is closed, and
      // enqueueing into it would throw.
      if (cancelled) return;
      if (event !== undefined) controller.enqueue(event);
      if (event === undefined || failed) controller.close();
    },
    // The client went away: close the source so its `finally` runs.
    async cancel() {
      cancelled = true;
      try {
        await iterator.return?.();
      } catch (error) {
        if (failureOf(error, opts.context).kind === "fault") opts.onError(error);
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/** JSON text; a value JSON cannot hold (a function, a symbol) is a crash, not an empty event. */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`A ${typeof value} result is not JSON`);
  return text;
}

/** The first step, or `undefined` when it is not ready within `ms` (a failure in time is thrown). */
async function firstWithin(
  first: Promise<IteratorResult<unknown>>,
  ms: number,
): Promise<IteratorResult<unknown> | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([first, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One event: the value as JSON on a `data:` line (JSON never holds a raw newline). */
function dataEvent(value: unknown, id: string): Uint8Array {
  return encoder.encode(`id: ${id}\ndata: ${toJson(value ?? null)}\n\n`);
}

/** A `gap` or `error` event, its value as JSON. */
function namedEvent(name: "gap" | "error", value: unknown): Uint8Array {
  return encoder.encode(`event: ${name}\ndata: ${toJson(value)}\n\n`);
}
