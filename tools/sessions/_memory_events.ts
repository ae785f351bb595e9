// The default event store of resumable call streams: in this process,
// bounded. Streams past `maxStreams` (the least recently used first), events
// past `maxEvents` per stream (the oldest first), and a stream answered
// `keepMs` ago, are forgotten; replaying from a forgotten event finds nothing.
// A replay following a stream live is told of each event as it is appended.

import type { McpEventStore, McpStreamEvent } from "./store.ts";

export interface MemoryEventsOptions {
  /** Streams kept at once. */
  readonly maxStreams: number;
  /** Events kept per stream. */
  readonly maxEvents: number;
  /** How long an answered stream stays replayable (ms). */
  readonly keepMs: number;
}

interface Stream {
  readonly session: string;
  /** Events' data by sequence number (from 0; a priming event's is `""`). */
  readonly events: Map<number, string>;
  next: number;
  /** Whether the call's answer was stored: nothing follows. */
  answered: boolean;
  touched: number;
  /** The replays waiting for what comes next, told when the stream is dropped too. */
  readonly listeners: Set<Listener>;
}

interface Listener {
  event(event: McpStreamEvent): void;
  gone(): void;
}

export function memoryEvents(opts: MemoryEventsOptions): McpEventStore {
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
    append(streamId, { session, data, answer, first }) {
      const known = streams.get(streamId);
      // A stream dropped while its call ran on stays dropped: its ids would start again.
      if (known === undefined && !first) return Promise.resolve(undefined);
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
      stream.events.set(seq, data);
      stream.events.delete(seq - opts.maxEvents);
      if (answer) stream.answered = true;
      const id = `${streamId}.${seq}`;
      for (const listener of [...stream.listeners]) listener.event({ id, data });
      return Promise.resolve(id);
    },
    forget(streamId) {
      drop(streamId);
      return Promise.resolve();
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
        return Promise.resolve(undefined);
      }
      use(streamId, stream);
      return Promise.resolve(following(stream, streamId, after, signal));
    },
  };
}

/**
 * What a stream holds after `after`, then what is appended until its answer:
 * taken and listened to now, so that nothing falls between.
 */
function following(
  stream: Stream,
  streamId: string,
  after: number,
  signal: AbortSignal,
): AsyncIterable<McpStreamEvent> {
  const queue: McpStreamEvent[] = [];
  for (let seq = after + 1; seq < stream.next; seq++) {
    const data = stream.events.get(seq);
    if (data !== undefined) queue.push({ id: `${streamId}.${seq}`, data });
  }
  let over = stream.answered;
  let wake = () => {};
  const end = () => {
    over = true;
    stream.listeners.delete(listener);
    signal.removeEventListener("abort", end);
    wake();
  };
  const listener: Listener = {
    event(event) {
      queue.push(event);
      if (stream.answered) end();
      else wake();
    },
    // Dropped before its answer (the call was cancelled, the store full): nothing more comes.
    gone: end,
  };
  if (!over) {
    stream.listeners.add(listener);
    signal.addEventListener("abort", end, { once: true });
    if (signal.aborted) end();
  }
  return {
    async *[Symbol.asyncIterator]() {
      try {
        while (true) {
          while (queue.length > 0) yield queue.shift()!;
          if (over) return;
          await new Promise<void>((resolve) => wake = resolve);
        }
      } finally {
        end();
      }
    },
  };
}
