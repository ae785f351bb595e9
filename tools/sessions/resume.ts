// Resumable SSE streams of 2025-era sessions (SEP-1699): every message a
// call's POST stream carries is kept in an event store under an event id, so
// that a client whose stream ended (the server closes long calls' streams to
// poll, or the network dropped) reconnects with a GET carrying
// `Last-Event-ID` and gets what followed, then the rest as it comes, on any
// request of any instance reading the store. The SDK's transport is per
// request here (legacy.ts), so the replay is served from the store, not by
// the transport that began the call. A stream belongs to its session: another
// session's GET cannot read it. The store failing never fails the call (its
// stream is then no longer resumable); a replay it cannot serve is a 503.
//
// Used by legacy.ts and by the MCP server (tools/server/mcp.ts: `resumeOf`).

import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import type { McpEventStore, McpResumability } from "./store.ts";
import { memoryEvents } from "./_memory_events.ts";
import { jsonRpcRefusal } from "./refusal.ts";

/** A session's store for one request's transport; `forget` drops the streams it began. */
export interface SessionEvents extends EventStore {
  forget(): void;
}

export interface ResumableStreams {
  /** The store a session's transport writes to. */
  forSession(session: string): SessionEvents;
  /** The replay of a session's stream after `lastEventId`: SSE, or a JSON-RPC error response. */
  replay(session: string, lastEventId: string, signal: AbortSignal): Promise<Response>;
}

const encoder = new TextEncoder();

/** The transports' side of an event store, and its replays as SSE answers. */
export function resumableStreams(
  store: McpEventStore,
  onError: (error: unknown) => void,
): ResumableStreams {
  return {
    forSession(session) {
      const mine = new Set<string>();
      // Streams that lost an event: a replay must not skip it, so none is kept.
      const broken = new Set<string>();
      const drop = (streamId: string) => void store.forget(streamId).catch(onError);
      return {
        forget() {
          // A broken stream was dropped when it broke.
          for (const id of mine) if (!broken.has(id)) drop(id);
        },
        async storeEvent(streamId, message) {
          const first = !mine.has(streamId);
          mine.add(streamId);
          if (!broken.has(streamId)) {
            try {
              const id = await store.append(streamId, {
                session,
                // A priming event (`{}`) has nothing to replay.
                data: "jsonrpc" in message ? JSON.stringify(message) : "",
                answer: "id" in message && ("result" in message || "error" in message),
                first,
              });
              if (id !== undefined) return id;
            } catch (error) {
              // Fail open: the call's own stream goes on, without ids that resume.
              onError(error);
              drop(streamId);
            }
            broken.add(streamId);
          }
          return `${streamId}.dropped`;
        },
        // Replays go through `replay`, never the transport: it finds no stream to resume.
        replayEventsAfter() {
          return Promise.reject(new Error("replayed by the session, not the transport"));
        },
      };
    },
    async replay(session, lastEventId, signal) {
      // Ended by the client leaving (the request's signal) or the body being cancelled.
      const stopped = new AbortController();
      let events: AsyncIterable<{ id: string; data: string }> | undefined;
      try {
        events = await store.replay(
          session,
          lastEventId,
          AbortSignal.any([signal, stopped.signal]),
        );
      } catch (error) {
        onError(error);
        return jsonRpcRefusal(503, -32000, "Event store unavailable", { "retry-after": "1" });
      }
      if (events === undefined) {
        return jsonRpcRefusal(400, -32000, "Unknown or expired event ID");
      }
      const iterator = events[Symbol.asyncIterator]();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          let step: IteratorResult<{ id: string; data: string }>;
          try {
            do step = await iterator.next(); while (!step.done && step.value.data === "");
          } catch (error) {
            // The store went away mid-replay: the client comes back from its last id.
            if (!stopped.signal.aborted && !signal.aborted) onError(error);
            step = { done: true, value: undefined };
          }
          if (stopped.signal.aborted) return;
          if (step.done) return controller.close();
          const { id, data } = step.value;
          controller.enqueue(encoder.encode(`event: message\nid: ${id}\ndata: ${data}\n\n`));
        },
        async cancel() {
          stopped.abort();
          await iterator.return?.();
        },
      });
      return new Response(body, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    },
  };
}

/** Resumability as a session's requests use it. */
export interface Resume {
  readonly streams: ResumableStreams;
  /** The `retry` (ms) priming events suggest. */
  readonly retryMs: number;
  /** When given, a call's stream is closed after this long (ms) while the call runs on. */
  readonly pollAfterMs: number | undefined;
}

/** Whether a revision's clients take priming events (an id and empty data), as the SDK decides. */
export function primes(revision: string | null): boolean {
  return revision !== null && revision >= "2025-11-25";
}

/**
 * Resolves once the transport has sent an answer (a response): the call is
 * over even when no stream carried it.
 */
export function answeredOf(
  transport: { send(message: JSONRPCMessage, options?: never): Promise<void> },
): Promise<void> {
  return new Promise((resolve) => {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      await send(message, options);
      if ("id" in message && ("result" in message || "error" in message)) resolve();
    };
  });
}

/**
 * The call's SSE answer, ended after `afterMs` while the call runs on (the
 * client comes back with `Last-Event-ID`): `parked` is told first, so that
 * the exchange waits for the call's answer instead of ending it.
 */
export function polling(response: Response, afterMs: number, parked: () => void): Response {
  if (response.body === null || !response.headers.get("content-type")?.includes("event-stream")) {
    return response;
  }
  const reader = response.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        closed = true;
        parked();
        controller.close();
        void reader.cancel().catch(() => {});
      }, afterMs);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (closed) return;
        if (done) {
          clearTimeout(timer);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        clearTimeout(timer);
        if (!closed) controller.error(error);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The option, defaults filled in; a bad number is an error now, not on a call. */
export function resumeOf(
  option: McpResumability | undefined,
  onError: (error: unknown) => void,
): Resume {
  const { retryMs = 1000, pollAfterMs, maxStreams = 1000, keepMs = 300_000 } = option ?? {};
  for (const [name, value] of Object.entries({ retryMs, pollAfterMs, maxStreams, keepMs })) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new RangeError(`MCP: resumability.${name} must be a positive integer, got ${value}`);
    }
  }
  return {
    streams: resumableStreams(
      option?.store ?? memoryEvents({ maxStreams, maxEvents: 1000, keepMs }),
      onError,
    ),
    retryMs,
    pollAfterMs,
  };
}
