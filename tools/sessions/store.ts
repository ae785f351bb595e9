/**
 * Where 2025-era MCP sessions live. A session is a record (what `initialize`
 * negotiated), not a server instance: any process that can read the record
 * serves the session's requests, so instances behind a balancer without
 * stickiness all answer it. {@linkcode memoryMcpSessions} keeps records in this
 * process (the default of `createMcpHandler`); `redisMcpSessions`
 * (`@ramify/api/redis`) keeps them in Redis, for every instance.
 *
 * A call runs on the instance its request reached; the client's
 * `notifications/cancelled` may reach another one. An
 * {@linkcode McpCancellations} channel carries it there (`memoryBus()` of
 * `@ramify/api/pubsub` is one, in this process; `redisMcpCancellations` across
 * processes). A client resuming a call's stream (`Last-Event-ID`) may reach
 * another one too: an {@linkcode McpEventStore} that every instance reads
 * (`redisMcpEvents`) replays it there.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createMcpHandler, memoryMcpSessions } from "@ramify/api/tools";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const mcp = createMcpHandler(tree, {
 *   sessions: memoryMcpSessions({ maxSessions: 100, idleMs: 10 * 60_000 }),
 * });
 * ```
 *
 * @module
 */

/**
 * What a 2025-era session needs on every request: the negotiated protocol
 * revision and what the client declared in `initialize`. JSON, as stored.
 *
 * @example
 * ```ts
 * import type { McpSessionRecord } from "@ramify/api/tools";
 *
 * const record: McpSessionRecord = {
 *   protocolVersion: "2025-06-18",
 *   clientCapabilities: { elicitation: {} },
 *   clientInfo: { name: "inspector", version: "1.0.0" },
 *   createdAt: Date.now(),
 *   owner: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
 * };
 * ```
 */
export interface McpSessionRecord {
  /** The revision `initialize` negotiated, such as `"2025-06-18"`. */
  readonly protocolVersion: string;
  /** The client's capabilities as it declared them (`elicitation`, `sampling`, `roots`...). */
  readonly clientCapabilities: { readonly [key: string]: unknown };
  /** The client's name and version as it declared them. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** When the session began (ms since the epoch). */
  readonly createdAt: number;
  /**
   * Who opened the session: a fingerprint (SHA-256, hex) of the identity of
   * its `initialize` request (`sessionOwner` of `createMcpHandler`), never a
   * credential itself; absent when that request carried none. Only requests
   * of the same identity are served in the session.
   */
  readonly owner?: string;
}

/**
 * Keeps session records by id. Ids reaching a store are well-formed (the
 * handler refuses any other before asking); a record unused for the store's
 * idle time is gone.
 *
 * @example
 * ```ts
 * import type { McpSessionRecord, McpSessionStore } from "@ramify/api/tools";
 *
 * // Records that never expire, in a Map (a store for a test, say).
 * const records = new Map<string, McpSessionRecord>();
 * const forever: McpSessionStore = {
 *   create: (id, record) => Promise.resolve(void records.set(id, record)),
 *   get: (id) => Promise.resolve(records.get(id)),
 *   delete: (id) => Promise.resolve(records.delete(id)),
 * };
 * ```
 */
export interface McpSessionStore {
  /** Stores a new session's record. Rejects when the store is unreachable. */
  create(id: string, record: McpSessionRecord): Promise<void>;
  /**
   * The session's record, restarting its idle time; `undefined` when there is
   * none (never was, expired, deleted). Rejects when the store is unreachable.
   */
  get(id: string): Promise<McpSessionRecord | undefined>;
  /** Ends a session: whether there was one. */
  delete(id: string): Promise<boolean>;
}

/**
 * A channel that reaches every instance serving the app: cancellations go
 * through it to the instance running the call. `PubSubBus` (`memoryBus()`,
 * `redisBus()` of `@ramify/api/pubsub`) fits, as does `redisMcpCancellations`.
 *
 * @example
 * ```ts
 * import type { McpCancellations } from "@ramify/api/tools";
 *
 * // One process: delivered at once, to this process's listeners.
 * const listeners = new Set<(message: string) => void>();
 * const local: McpCancellations = {
 *   publish: (_topic, message) => Promise.resolve(listeners.forEach((deliver) => deliver(message))),
 *   subscribe: (_topic, deliver) => {
 *     listeners.add(deliver);
 *     return Promise.resolve(() => Promise.resolve(void listeners.delete(deliver)));
 *   },
 * };
 * ```
 */
export interface McpCancellations {
  /** Sends a message to every subscriber of the topic, in every process. */
  publish(topic: string, message: string): Promise<void>;
  /** Calls `deliver` with each message of the topic; resolves with the way to stop. */
  subscribe(topic: string, deliver: (message: string) => void): Promise<() => Promise<void>>;
}

/**
 * Options of {@linkcode memoryMcpSessions}.
 *
 * @example
 * ```ts
 * import type { MemoryMcpSessionsOptions } from "@ramify/api/tools";
 *
 * const opts: MemoryMcpSessionsOptions = { maxSessions: 500, idleMs: 5 * 60_000 };
 * ```
 */
export interface MemoryMcpSessionsOptions {
  /** Sessions kept at once; past it the least recently used is dropped. Default 1000. */
  readonly maxSessions?: number;
  /** A session unused this long (ms) is gone. Default 30 minutes. */
  readonly idleMs?: number;
  /** A millisecond clock (injectable for tests). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Session records in this process's memory, bounded: at most `maxSessions`
 * (the least recently used goes first) and none idle past `idleMs`. Serves one
 * instance; behind a balancer, use `redisMcpSessions`.
 *
 * @example
 * ```ts
 * import { memoryMcpSessions } from "@ramify/api/tools";
 *
 * const sessions = memoryMcpSessions({ maxSessions: 2 });
 * await sessions.create("a", {
 *   protocolVersion: "2025-06-18",
 *   clientCapabilities: {},
 *   clientInfo: { name: "c", version: "1" },
 *   createdAt: Date.now(),
 * });
 * console.log((await sessions.get("a"))?.protocolVersion); // "2025-06-18"
 * ```
 *
 * @throws {RangeError} for a `maxSessions` that is not a positive integer or an `idleMs` that is not positive.
 */
export function memoryMcpSessions(opts: MemoryMcpSessionsOptions = {}): McpSessionStore {
  const max = opts.maxSessions ?? 1000;
  const idleMs = opts.idleMs ?? 30 * 60_000;
  const now = opts.now ?? Date.now;
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(`MCP: maxSessions must be a positive integer, got ${max}`);
  }
  if (!(idleMs > 0)) throw new RangeError(`MCP: sessionIdleMs must be positive, got ${idleMs}`);
  // Map order is use order: a used session moves to the end, so the idle and
  // the least recently used are at the front.
  const kept = new Map<string, { record: McpSessionRecord; usedAt: number }>();
  const dropIdle = (at: number) => {
    for (const [id, entry] of kept) {
      if (at - entry.usedAt <= idleMs) break;
      kept.delete(id);
    }
  };
  return {
    create(id, record) {
      const at = now();
      dropIdle(at);
      kept.delete(id);
      while (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(id, { record, usedAt: at });
      return Promise.resolve();
    },
    get(id) {
      const at = now();
      dropIdle(at);
      const entry = kept.get(id);
      if (entry === undefined) return Promise.resolve(undefined);
      kept.delete(id);
      kept.set(id, { record: entry.record, usedAt: at });
      return Promise.resolve(entry.record);
    },
    delete(id) {
      return Promise.resolve(kept.delete(id));
    },
  };
}

/**
 * How call streams resume (SEP-1699).
 *
 * @example
 * ```ts
 * import type { McpResumability } from "@ramify/api/tools";
 *
 * // Long calls free their connection after 30 s; clients come back 2 s later.
 * const resumability: McpResumability = { pollAfterMs: 30_000, retryMs: 2_000 };
 * ```
 */
export interface McpResumability {
  /** The wait before reconnecting (ms) the priming event suggests. Default 1000. */
  readonly retryMs?: number;
  /**
   * Closes a call's stream after this long (ms) while the call runs on: the
   * client reconnects and gets what followed (polling). Default never.
   */
  readonly pollAfterMs?: number;
  /**
   * With the default store: call streams kept for replay; past it the least
   * recently used is forgotten. Default 1000.
   */
  readonly maxStreams?: number;
  /** With the default store: how long an answered call's stream stays replayable (ms). Default 5 minutes. */
  readonly keepMs?: number;
  /**
   * Where call streams' events are kept: any instance that reads the store
   * serves a replay (`redisMcpEvents` of `@ramify/api/redis` for several
   * instances). Default: in this process, bounded by `maxStreams` and
   * `keepMs` (which only it reads).
   */
  readonly store?: McpEventStore;
}

/**
 * One event of a call's stream, as a replay gives it.
 *
 * @example
 * ```ts
 * import type { McpStreamEvent } from "@ramify/api/tools";
 *
 * const answer: McpStreamEvent = {
 *   id: "4f1c.2",
 *   data: '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
 * };
 * ```
 */
export interface McpStreamEvent {
  /** Its id, as the client sends it back in `Last-Event-ID`. */
  readonly id: string;
  /** The message as JSON text; `""` for a priming event, which has nothing to replay. */
  readonly data: string;
}

/**
 * An event a call's stream is given, as {@linkcode McpEventStore.append} takes it.
 *
 * @example
 * ```ts
 * import type { McpEventAppend } from "@ramify/api/tools";
 *
 * const priming: McpEventAppend = {
 *   session: "0123456789abcdef0123456789abcdef",
 *   data: "",
 *   answer: false,
 *   first: true,
 * };
 * ```
 */
export interface McpEventAppend {
  /** The session whose call it is: only that session's GET may replay the stream. */
  readonly session: string;
  /** The message as JSON text; `""` for a priming event. */
  readonly data: string;
  /** Whether it is the call's answer: nothing follows, and replays end with it. */
  readonly answer: boolean;
  /**
   * Whether it begins the stream. A later event of a stream the store no
   * longer holds is not kept either: the stream's ids would start again.
   */
  readonly first: boolean;
}

/**
 * Keeps the events of call streams (SEP-1699) so that a client whose stream
 * ended gets the rest with `Last-Event-ID`. Event ids are the store's own,
 * opaque to clients; a store checks the ones clients send back before using
 * them. A store bounds what it keeps (events per stream, how long).
 *
 * @example
 * ```ts
 * import type { McpEventStore } from "@ramify/api/tools";
 *
 * // Keeps nothing: every call answers as usual, no stream resumes (400).
 * const none: McpEventStore = {
 *   append: () => Promise.resolve(undefined),
 *   forget: () => Promise.resolve(),
 *   replay: () => Promise.resolve(undefined),
 * };
 * ```
 */
export interface McpEventStore {
  /**
   * Adds an event to the stream `stream`: resolves with its id, or
   * `undefined` when it is not kept (a later event of a stream no longer
   * held). Rejects when the store is unreachable: the call goes on without
   * it, and its stream no longer resumes.
   */
  append(stream: string, event: McpEventAppend): Promise<string | undefined>;
  /** Drops a stream (delivered whole, or broken): nothing resumes it. */
  forget(stream: string): Promise<void>;
  /**
   * The events of the session's stream after `lastEventId`, then the rest as
   * they come, ending after the answer (or when the stream is dropped, or
   * `signal` aborts). `undefined` when there is nothing to resume from that
   * id: unknown, malformed, forgotten, or another session's. Rejects when the
   * store is unreachable.
   */
  replay(
    session: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<McpStreamEvent> | undefined>;
}
