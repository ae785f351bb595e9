// Resource subscriptions, served from the stream a resource names
// (`meta.tools.updates`): while anyone is subscribed to a URI, that streaming
// leaf runs once in this process, through the one call path, with the URI's
// captures and the context of the subscription that started it; each item it
// yields is one `notifications/resources/updated { uri }` to every
// subscriber, who reads the resource again with its own credentials. A
// subscriber joining a running stream makes the same call first, with its own
// context (its guards, and whatever the leaf checks before it answers with
// its stream), which is then closed unread; it hears nothing before. The stream ends when the last
// subscriber leaves.
//
// Subscribers, by era:
// - 2025 sessions over HTTP: `resources/subscribe` (any POST of the session)
//   records the URI for the session, in this process; the notifications go
//   out on the session's GET stream, which this module serves. Subscriptions
//   end with the session (DELETE), or when the session has had no GET stream
//   open for GRACE_MS. Single instance: the GET stream and the subscriptions
//   must reach the same instance (sticky sessions behind a balancer).
// - stdio: the connection's own server sends them.
// - 2026-07-28: `subscriptions/listen` with `resourceSubscriptions`; the SDK
//   serves the stream and delivers what is published on its event bus.
//
// Bounds: MAX_FEEDS URIs followed at once, MAX_PER_SESSION subscriptions per
// session, MAX_SESSIONS sessions holding subscriptions (the least recently
// active leaves first).

import type { HandlerContext, Node } from "../../tree/node.ts";
import { principalOf } from "../../tree/principal.ts";
import { contextOf } from "../../engine/engine.ts";
import { admit } from "../../engine/admission.ts";
import { failureOf } from "../../tree/run.ts";
import { isAsyncIterable } from "../../tree/plain_data.ts";
import { watchDeadline } from "../../tree/deadline.ts";
import type { ResourceEntry } from "../projection/resources.ts";
import { type ResourceOptions, runWith } from "./_resource_read.ts";

/** URIs followed at once, across every subscriber. */
const MAX_FEEDS = 1000;
/** Subscriptions one session may hold. */
export const MAX_PER_SESSION = 100;
/** Sessions holding subscriptions at once. */
const MAX_SESSIONS = 1000;
/** Notifications waiting on a session's GET stream, at most. */
const MAX_QUEUED = 1000;
/** How long a session's subscriptions outlive its GET stream, waiting for it to come back. */
const GRACE_MS = 60_000;

/** Where a URI's change notifications go. */
export interface Sink {
  deliver(uri: string): void;
}

/** A subscription refused for a bound or a resource without updates: the caller's (-32602 or -32603). */
export class SubscribeRefused extends Error {
  constructor(message: string, readonly full = false) {
    super(message);
    this.name = "SubscribeRefused";
  }
}

interface Feed {
  readonly sinks: Map<Sink, number>;
  readonly abort: AbortController;
  /** Settles once the stream has begun: rejected with what refused it (a guard, the input). */
  readonly started: Promise<void>;
}

/** A feed held for a sink: release it when done; `ready` rejects if the stream could not begin. */
export interface Held {
  readonly release: () => void;
  readonly ready: Promise<void>;
}

/** The followed URIs of one handler: each runs its resource's stream while held. */
export class Feeds {
  readonly #feeds = new Map<string, Feed>();
  readonly #opts: ResourceOptions;
  readonly #onError: (error: unknown) => void;

  constructor(opts: ResourceOptions, onError: (error: unknown) => void) {
    this.#opts = opts;
    this.#onError = onError;
  }

  /**
   * Holds the URI's feed for `sink` until released; `carried` is the request
   * the stream's call is made on behalf of, when this hold starts it. A feed
   * is its principal's: the stream's guards say whose, and subscribers of
   * one URI share a feed only when they are the same principal (a stream of
   * the caller's own inbox is never heard by another).
   */
  hold(
    uri: string,
    entry: ResourceEntry,
    captures: Readonly<Record<string, string>>,
    carried: Request | undefined,
    sink: Sink,
  ): Held {
    const updates = entry.updates;
    if (updates === undefined) {
      throw new SubscribeRefused(
        `${uri} gives no change notifications (its leaf names no meta.tools.updates)`,
      );
    }
    let inner: Held | undefined;
    let released = false;
    const release = () => {
      released = true;
      inner?.release();
    };
    const ready = this.#ownerOf(updates.leaf, carried).then((owner) => {
      if (released) return;
      inner = this.#hold(
        JSON.stringify([uri, owner ?? null]),
        uri,
        updates,
        captures,
        carried,
        sink,
      );
      return inner.ready;
    });
    return { release, ready };
  }

  /** Who a subscriber is: the principal the stream leaf's guards establish for it. */
  async #ownerOf(leaf: Node, carried: Request | undefined): Promise<string | undefined> {
    const context = await contextOf(feedContext(carried), this.#opts.context);
    return principalOf(await admit(leaf, context));
  }

  #hold(
    key: string,
    uri: string,
    updates: NonNullable<ResourceEntry["updates"]>,
    captures: Readonly<Record<string, string>>,
    carried: Request | undefined,
    sink: Sink,
  ): Held {
    const input = Object.fromEntries(updates.captures.map((name) => [name, captures[name]]));
    let feed = this.#feeds.get(key);
    let joining = false;
    if (feed === undefined) {
      if (this.#feeds.size >= MAX_FEEDS) {
        throw new SubscribeRefused(`At most ${MAX_FEEDS} resources are followed at once`, true);
      }
      // The first subscriber's call runs the leaf's guards with its own context.
      feed = this.#start(key, uri, updates.call, input, carried);
    } else joining = true;
    const current = feed;
    let held = true;
    let counted = false;
    const count = () => {
      counted = true;
      current.sinks.set(sink, (current.sinks.get(sink) ?? 0) + 1);
    };
    const release = () => {
      if (!held) return;
      held = false;
      if (!counted) return;
      const left = (current.sinks.get(sink) ?? 1) - 1;
      if (left > 0) current.sinks.set(sink, left);
      else current.sinks.delete(sink);
      if (current.sinks.size === 0) this.#end(key, current);
    };
    if (!joining) {
      count();
      return { release, ready: current.started };
    }
    // A joiner passes the guards with its own context before it hears of any change.
    const ready = this.#admit(updates.call, input, carried).then(() => {
      if (this.#feeds.get(key) !== current) {
        throw new SubscribeRefused(`The changes of ${uri} stopped; subscribe again`);
      }
      if (held) count();
    });
    return { release, ready };
  }

  /**
   * A joiner's admission: the call a first subscriber makes, with the
   * joiner's context, so every guard and check runs for it; the stream it
   * answers is closed unread (an async generator's body never starts).
   */
  async #admit(
    call: ResourceEntry["call"],
    input: Record<string, unknown>,
    carried: Request | undefined,
  ): Promise<void> {
    const abort = new AbortController();
    const context = feedContext(carried, abort.signal);
    try {
      const stream = await runWith(call, input, context, carried, { context: this.#opts.context });
      if (isAsyncIterable(stream)) await stream[Symbol.asyncIterator]().return?.();
    } finally {
      abort.abort(new DOMException("Admitted: the running stream serves it", "AbortError"));
    }
  }

  /** Ends every feed. */
  close(): void {
    for (const [key, feed] of [...this.#feeds]) this.#end(key, feed);
  }

  #end(key: string, feed: Feed): void {
    if (this.#feeds.get(key) === feed) this.#feeds.delete(key);
    feed.abort.abort(new DOMException("No one follows the resource any more", "AbortError"));
  }

  /** Calls the stream's leaf (no deadline: it runs while followed) and pumps it once begun. */
  #start(
    key: string,
    uri: string,
    call: ResourceEntry["call"],
    input: Record<string, unknown>,
    carried: Request | undefined,
  ): Feed {
    const abort = new AbortController();
    const context = feedContext(carried, abort.signal);
    const begun = (async () => {
      const stream = await runWith(call, input, context, carried, { context: this.#opts.context });
      if (!isAsyncIterable(stream)) throw new TypeError(`The updates of ${uri} are not a stream`);
      return stream;
    })();
    const feed: Feed = { sinks: new Map(), abort, started: begun.then(() => {}) };
    this.#feeds.set(key, feed);
    // Its holders hear of a refusal through `ready`; the feed itself just ends.
    feed.started.catch(() => this.#end(key, feed));
    void begun.then((stream) => this.#pump(key, uri, feed, stream, context), () => {});
    return feed;
  }

  async #pump(
    key: string,
    uri: string,
    feed: Feed,
    stream: AsyncIterable<unknown>,
    context: HandlerContext,
  ): Promise<void> {
    try {
      for await (const _item of stream) {
        if (feed.abort.signal.aborted) break;
        for (const sink of [...feed.sinks.keys()]) sink.deliver(uri);
      }
    } catch (error) {
      const failure = failureOf(error, context);
      if (failure.kind === "fault") this.#onError(failure.error);
    } finally {
      // A stream that ended (or failed) follows nothing more; a later subscription starts it again.
      if (this.#feeds.get(key) === feed) this.#feeds.delete(key);
    }
  }
}

/** The context of a feed's call, made on behalf of `carried` (none: over stdio, the process). */
function feedContext(carried: Request | undefined, signal?: AbortSignal): HandlerContext {
  return {
    ...(signal === undefined ? {} : { signal }),
    surface: "mcp",
    ...(carried === undefined ? {} : { request: carried }),
  };
}

interface Session {
  readonly held: Map<string, () => void>;
  stream?: ReadableStreamDefaultController<Uint8Array>;
  /** Disarms the grace period's deadline. */
  grace?: () => void;
}

const encoder = new TextEncoder();

/** The 2025 sessions' subscriptions in this process, and their GET streams. */
export class SessionSubscriptions {
  readonly #sessions = new Map<string, Session>();
  readonly #feeds: Feeds;

  constructor(feeds: Feeds) {
    this.#feeds = feeds;
  }

  /** Subscribes the session; rejects if the stream could not begin (then nothing is held). */
  async subscribe(
    id: string,
    uri: string,
    entry: ResourceEntry,
    captures: Readonly<Record<string, string>>,
    carried: Request | undefined,
  ): Promise<void> {
    const session = this.#touch(id);
    if (session.held.has(uri)) return;
    if (session.held.size >= MAX_PER_SESSION) {
      throw new SubscribeRefused(`A session holds at most ${MAX_PER_SESSION} subscriptions`);
    }
    const sink: Sink = { deliver: (changed) => this.#send(id, changed) };
    const { release, ready } = this.#feeds.hold(uri, entry, captures, carried, sink);
    session.held.set(uri, release);
    if (session.stream === undefined) this.#wait(id, session);
    try {
      await ready;
    } catch (error) {
      if (session.held.get(uri) === release) session.held.delete(uri);
      release();
      throw error;
    }
  }

  unsubscribe(id: string, uri: string): void {
    const session = this.#sessions.get(id);
    session?.held.get(uri)?.();
    session?.held.delete(uri);
    if (session !== undefined && session.held.size === 0 && session.stream === undefined) {
      this.end(id);
    }
  }

  /** The session's GET stream: its notifications, as server-sent events. */
  open(id: string, request: Request): Response {
    const session = this.#touch(id);
    session.grace?.();
    // One stream per session: a new one (a client reconnecting) replaces the old.
    const before = session.stream;
    session.stream = undefined;
    try {
      before?.close();
    } catch {
      // Already closed by the client.
    }
    let mine: ReadableStreamDefaultController<Uint8Array> | undefined;
    const closed = () => {
      if (mine === undefined || session.stream !== mine) return;
      session.stream = undefined;
      this.#wait(id, session);
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        mine = controller;
        session.stream = controller;
        // A comment first, so that the client sees the stream open.
        controller.enqueue(encoder.encode(": subscribed\n\n"));
      },
      cancel: closed,
    });
    request.signal.addEventListener("abort", closed, { once: true });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "mcp-session-id": id,
      },
    });
  }

  /** Ends the session's subscriptions and its stream. */
  end(id: string): void {
    const session = this.#sessions.get(id);
    if (session === undefined) return;
    this.#sessions.delete(id);
    session.grace?.();
    for (const release of session.held.values()) release();
    try {
      session.stream?.close();
    } catch {
      // Already closed.
    }
  }

  close(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
  }

  /** The session's state, most recently used last; past MAX_SESSIONS the least recent ends. */
  #touch(id: string): Session {
    const session = this.#sessions.get(id) ?? { held: new Map() };
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    if (this.#sessions.size > MAX_SESSIONS) this.end(this.#sessions.keys().next().value!);
    return session;
  }

  /** Ends the session's subscriptions unless a GET stream opens within GRACE_MS. */
  #wait(id: string, session: Session): void {
    session.grace?.();
    session.grace = watchDeadline(GRACE_MS, () => {
      if (this.#sessions.get(id) === session && session.stream === undefined) this.end(id);
    });
  }

  #send(id: string, uri: string): void {
    const stream = this.#sessions.get(id)?.stream;
    // A client not reading its stream is not buffered for without end: past MAX_QUEUED waiting
    // notifications the next are dropped (each says only "changed"; those queued say it already).
    if (stream === undefined || (stream.desiredSize ?? 0) < -MAX_QUEUED) return;
    const message = { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } };
    try {
      stream.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
    } catch {
      // The client went away between the check and the write: its stream's close handles it.
    }
  }
}
