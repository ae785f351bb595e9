// Resumable SSE streams of 2025-era sessions (SEP-1699): every message a
// call's POST stream carries is kept here under an event id, so that a client
// whose stream ended (the server closes long calls' streams to poll, or the
// network dropped) reconnects with a GET carrying `Last-Event-ID` and gets
// what followed, then the rest as it comes, on any request of this process.
// The SDK's transport is per request here (_sessions.ts), so the replay is
// served from this store, not by the transport that began the call. Bounded:
// streams past `maxStreams` (the least recently used first), events past
// `maxEvents` per stream (the oldest first), and a stream answered
// `keepMs` ago, are forgotten; replaying from a forgotten event is a 400.
// A stream belongs to its session: another session's GET cannot read it.

import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import type { McpResumability } from "./sessions.ts";

export interface ResumeOptions {
  /** Streams kept at once. */
  readonly maxStreams: number;
  /** Events kept per stream. */
  readonly maxEvents: number;
  /** How long an answered stream stays replayable (ms). */
  readonly keepMs: number;
}

interface Stream {
  readonly session: string;
  /** Events by sequence number (from 0; a priming event's message is `{}`). */
  readonly events: Map<number, JSONRPCMessage>;
  next: number;
  /** Whether the call's answer (a response) was stored: nothing follows. */
  answered: boolean;
  touched: number;
  /** The replays waiting for what comes next, told when the stream is dropped too. */
  readonly listeners: Set<Listener>;
}

interface Listener {
  event(id: string, message: JSONRPCMessage): void;
  gone(): void;
}

/** A session's store for one request's transport; `forget` drops the streams it began. */
export interface SessionEvents extends EventStore {
  forget(): void;
}

export interface ResumableStreams {
  /** The store a session's transport writes to. */
  forSession(session: string): SessionEvents;
  /** The replay of a session's stream after `lastEventId`: SSE, or a JSON-RPC error response. */
  replay(session: string, lastEventId: string, signal: AbortSignal): Response;
}

const encoder = new TextEncoder();

export function memoryStreams(opts: ResumeOptions): ResumableStreams {
  // In insertion order of use: the first is the least recently used.
  const streams = new Map<string, Stream>();
  const use = (id: string, stream: Stream) => {
    streams.delete(id);
    stream.touched = Date.now();
    streams.set(id, stream);
  };
  const drop = (id: string) => {
    const stream = streams.get(id);
    streams.delete(id);
    for (const listener of [...stream?.listeners ?? []]) listener.gone();
  };
  const sweep = () => {
    const now = Date.now();
    for (const [id, stream] of streams) {
      if (stream.answered && now - stream.touched > opts.keepMs) drop(id);
    }
    for (const id of [...streams.keys()].slice(0, Math.max(0, streams.size - opts.maxStreams))) {
      drop(id);
    }
  };
  return {
    forSession(session) {
      const mine = new Set<string>();
      return {
        forget() {
          for (const id of mine) drop(id);
        },
        storeEvent(streamId, message) {
          const known = streams.get(streamId);
          // A stream dropped while its call ran on stays dropped: its ids would start again.
          if (known === undefined && mine.has(streamId)) {
            return Promise.resolve(`${streamId}.dropped`);
          }
          mine.add(streamId);
          const stream = known ?? {
            session,
            events: new Map(),
            next: 0,
            answered: false,
            touched: 0,
            listeners: new Set(),
          };
          use(streamId, stream);
          // Only a new stream can take the store past its bound.
          if (known === undefined) sweep();
          const seq = stream.next++;
          stream.events.set(seq, message);
          stream.events.delete(seq - opts.maxEvents);
          if ("id" in message && ("result" in message || "error" in message)) {
            stream.answered = true;
          }
          const id = `${streamId}.${seq}`;
          for (const listener of [...stream.listeners]) listener.event(id, message);
          return Promise.resolve(id);
        },
        // Replays go through `replay`, never the transport: it finds no stream to resume.
        replayEventsAfter() {
          return Promise.reject(new Error("replayed by the session, not the transport"));
        },
      };
    },
    replay(session, lastEventId, signal) {
      const [, streamId = "", seqText = ""] = /^([^.]+)\.(\d{1,15})$/.exec(lastEventId) ?? [];
      const after = Number(seqText);
      const stream = streams.get(streamId);
      // A stream of another session is as unknown as a forgotten one.
      if (
        stream === undefined || stream.session !== session || after >= stream.next ||
        !stream.events.has(after)
      ) {
        return Response.json({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Unknown or expired event ID" },
          id: null,
        }, { status: 400 });
      }
      use(streamId, stream);
      let stop = () => {};
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const write = (id: string, message: JSONRPCMessage) => {
            // A priming event has nothing to replay.
            if (!("jsonrpc" in message)) return;
            controller.enqueue(
              encoder.encode(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`),
            );
          };
          for (let seq = after + 1; seq < stream.next; seq++) {
            const message = stream.events.get(seq);
            if (message !== undefined) write(`${streamId}.${seq}`, message);
          }
          if (stream.answered) {
            controller.close();
            return;
          }
          const end = () => {
            stop();
            controller.close();
          };
          const listener: Listener = {
            event(id, message) {
              write(id, message);
              if (stream.answered) end();
            },
            // Dropped before its answer (the call was cancelled, the store full): nothing more comes.
            gone: end,
          };
          stop = () => {
            stream.listeners.delete(listener);
            signal.removeEventListener("abort", stop);
          };
          stream.listeners.add(listener);
          signal.addEventListener("abort", stop, { once: true });
        },
        cancel() {
          stop();
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
export function resumeOf(option: McpResumability | undefined): Resume {
  const { retryMs = 1000, pollAfterMs, maxStreams = 1000, keepMs = 300_000 } = option ?? {};
  for (const [name, value] of Object.entries({ retryMs, pollAfterMs, maxStreams, keepMs })) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new RangeError(`MCP: resumability.${name} must be a positive integer, got ${value}`);
    }
  }
  return {
    streams: memoryStreams({ maxStreams, maxEvents: 1000, keepMs }),
    retryMs,
    pollAfterMs,
  };
}
