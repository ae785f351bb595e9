// One subscriber's bounded queue, read two ways: plainly (the payloads) or
// with positions (`eventsOf`: each payload as a StreamEvent when the bus gave
// it an id, and a StreamGap where messages were lost). A subscriber resuming
// from an id holds what arrives live until the replay of what it missed is
// out, then lets through only what is newer than the last it was given.

import { eventsOf, StreamEvent, StreamGap } from "../tree/stream_events.ts";
import { compareEventIds } from "./streams.ts";

/** What a topic hands each of its subscribers. */
export interface Sink {
  push(payload: unknown, id?: string): void;
  gap(): void;
  end(error?: unknown): void;
}

/** The queue's side the pub/sub drives while a subscriber catches up. */
export interface Catching {
  /** Puts a replayed event in line, ahead of what arrived live meanwhile. */
  replayed(payload: unknown, id: string): void;
  gap(lastEventId: string): void;
  /** The replay is out: what arrived live and is newer goes on. */
  caughtUp(): void;
  readonly done: boolean;
}

export interface QueueOptions {
  readonly topic: string;
  readonly bufferSize: number;
  readonly overflow: "drop-oldest" | "close";
  readonly filter?: (payload: unknown) => boolean;
  readonly limit?: number;
  /** Called once when the subscription ends, however it ends. */
  readonly onEnd: () => void;
  readonly overflowError: () => Error;
  /** The position a resuming subscriber had: live messages wait for the replay. */
  readonly lastEventId?: string;
}

interface Entry {
  readonly payload: unknown;
  readonly id: string | undefined;
}

type Item = Entry | StreamGap;

/** A subscription's queue: the sink the topic pushes into, and the iterator read from it. */
export function subscriptionQueue(opts: QueueOptions) {
  const queue: Item[] = [];
  let held: Entry[] | undefined = opts.lastEventId === undefined ? undefined : [];
  let newest = opts.lastEventId;
  let waiting: ((result: IteratorResult<Item>) => void) | undefined;
  let failing: ((error: unknown) => void) | undefined;
  let done = false;
  let failure: unknown;
  let dropped = 0;
  let given = 0;

  const finish = (error?: unknown) => {
    if (done) return;
    done = true;
    failure = error;
    held = undefined;
    opts.onEnd();
    if (waiting !== undefined) {
      const [resolve, reject] = [waiting, failing!];
      waiting = failing = undefined;
      if (error === undefined) resolve({ done: true, value: undefined });
      else reject(error);
    }
  };
  const enqueue = (item: Item) => {
    if (done) return;
    if (waiting !== undefined) {
      const resolve = waiting;
      waiting = failing = undefined;
      resolve({ done: false, value: item });
      return;
    }
    if (!(item instanceof StreamGap) && queue.length >= opts.bufferSize) {
      if (opts.overflow === "close") {
        queue.length = 0;
        finish(opts.overflowError());
        return;
      }
      // The oldest waiting message goes, and a gap stands where it was.
      const at = queue[0] instanceof StreamGap ? 1 : 0;
      queue.splice(at, 1);
      dropped++;
      if (!(queue[0] instanceof StreamGap)) queue.unshift(new StreamGap());
    }
    queue.push(item);
  };
  const accept = (payload: unknown, id: string | undefined) => {
    try {
      if (opts.filter !== undefined && !opts.filter(payload)) return;
    } catch (error) {
      finish(error);
      return;
    }
    if (id !== undefined) {
      // A message replayed and delivered live too is given once.
      if (newest !== undefined && compareEventIds(id, newest) <= 0) return;
      newest = id;
    }
    enqueue({ payload, id });
  };

  const sink: Sink = {
    push(payload, id) {
      if (done) return;
      if (held !== undefined) held.push({ payload, id });
      else accept(payload, id);
    },
    gap: () => enqueue(new StreamGap()),
    end: finish,
  };
  const catching: Catching = {
    replayed: (payload, id) => accept(payload, id),
    gap(lastEventId) {
      // The position is lost: what is kept (or arrives) from now on goes through.
      newest = undefined;
      enqueue(new StreamGap(lastEventId));
    },
    caughtUp() {
      const live = held ?? [];
      held = undefined;
      for (const { payload, id } of live) accept(payload, id);
    },
    get done() {
      return done;
    },
  };

  const take = (): Promise<IteratorResult<Item>> => {
    if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift()! });
    if (done) {
      if (failure !== undefined) {
        const error = failure;
        failure = undefined;
        return Promise.reject(error);
      }
      return Promise.resolve({ done: true, value: undefined });
    }
    return new Promise((resolve, reject) => {
      waiting = resolve;
      failing = reject;
    });
  };
  const counted = (result: IteratorResult<Item>): IteratorResult<Item> => {
    if (result.done || result.value instanceof StreamGap) return result;
    if (opts.limit !== undefined && ++given >= opts.limit) {
      queue.length = 0;
      finish();
    }
    return result;
  };
  const close = () => {
    queue.length = 0;
    finish();
    return Promise.resolve({ done: true as const, value: undefined });
  };

  const plainNext = async (): Promise<IteratorResult<unknown>> => {
    while (true) {
      const result = counted(await take());
      if (result.done) return result;
      const item = result.value;
      if (!(item instanceof StreamGap)) return { done: false, value: item.payload };
    }
  };
  const positioned = async (): Promise<IteratorResult<unknown>> => {
    const result = counted(await take());
    if (result.done) return result;
    const item = result.value;
    if (item instanceof StreamGap) return { done: false, value: item };
    return {
      done: false,
      value: item.id === undefined ? item.payload : new StreamEvent(item.payload, item.id),
    };
  };

  const iterator = {
    get dropped() {
      return dropped;
    },
    next: plainNext,
    return: close,
    [Symbol.asyncIterator]() {
      return iterator;
    },
    [eventsOf]() {
      return { next: positioned, return: close };
    },
  };
  return { sink, catching, iterator };
}
