/**
 * Where the answers of leaves that take an `Idempotency-Key` are kept: the
 * {@linkcode IdempotencyStore} interface, and {@linkcode memoryIdempotency},
 * its store for one process (the router's default). Several instances share
 * one store in Redis (`redisIdempotency` from `@ramify/api/redis`).
 *
 * A record goes through two states under one key: `running` from the first
 * request's claim (held for `lockMs`, so that an instance dying mid-run does
 * not hold the key for ever) and `done` with the answer (kept for `ttlMs`).
 * Each claim carries a token of its own; only its holder completes or
 * releases it.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { createFetch, memoryIdempotency } from "@ramify/api/http";
 *
 * const tree = api({
 *   pay: op(() => ({ paid: true }), http.post, { http: { idempotencyKey: "required" } }),
 * });
 * const handler = createFetch(tree, { idempotency: memoryIdempotency({ ttlMs: 60 * 60_000 }) });
 * ```
 *
 * @module
 */

/**
 * An answer as kept for its replay: the status, the headers worth sending
 * again, and the body's bytes.
 *
 * @example
 * ```ts
 * import type { StoredAnswer } from "@ramify/api/http";
 *
 * const created: StoredAnswer = {
 *   status: 201,
 *   headers: [["content-type", "application/json"]],
 *   body: new TextEncoder().encode('{"id":1}'),
 * };
 * ```
 */
export interface StoredAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/**
 * What a claim found under a key: nothing (the claim is now the caller's), a
 * request still running, or the answer of one done. Both of the latter carry
 * the fingerprint of the request that claimed the key first.
 *
 * @example
 * ```ts
 * import type { IdempotencyState } from "@ramify/api/http";
 *
 * const running: IdempotencyState = { state: "running", fingerprint: "3f2a..." };
 * ```
 */
export type IdempotencyState =
  | { readonly state: "claimed" }
  | { readonly state: "running"; readonly fingerprint: string }
  | { readonly state: "done"; readonly fingerprint: string; readonly answer: StoredAnswer };

/**
 * The records of idempotency keys. Every method may reject (a store out of
 * reach): the router then answers `503` and runs nothing.
 *
 * @example
 * ```ts
 * import type { IdempotencyStore } from "@ramify/api/http";
 *
 * const never: IdempotencyStore = {
 *   claim: () => Promise.reject(new Error("no store")),
 *   complete: () => Promise.resolve(),
 *   release: () => Promise.resolve(),
 * };
 * ```
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for a request with this fingerprint, atomically: of two
   * claims racing, one gets `claimed`, the other sees it `running`.
   */
  claim(key: string, fingerprint: string, token: string): Promise<IdempotencyState>;
  /** Keeps the answer of the claim `token` holds (nothing if it holds the key no more). */
  complete(key: string, token: string, answer: StoredAnswer): Promise<void>;
  /** Forgets the claim `token` holds, so that a retry runs again (an answer not kept). */
  release(key: string, token: string): Promise<void>;
}

/**
 * Options of {@linkcode memoryIdempotency}.
 *
 * @example
 * ```ts
 * import type { MemoryIdempotencyOptions } from "@ramify/api/http";
 *
 * const opts: MemoryIdempotencyOptions = { ttlMs: 24 * 60 * 60_000, lockMs: 60_000, maxEntries: 10_000 };
 * ```
 */
export interface MemoryIdempotencyOptions {
  /** Milliseconds an answer is replayed for. Default a day. */
  readonly ttlMs?: number;
  /**
   * Milliseconds a running request holds its key (longer than any run; after
   * it, another request with the key runs again). Default a minute.
   */
  readonly lockMs?: number;
  /** The most records kept; past it the oldest is forgotten. Default 10,000. */
  readonly maxEntries?: number;
  /** The current time in epoch milliseconds (injectable for tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** The defaults of every store: a day of replays, a minute's hold on a running key. */
export const DEFAULT_TTL_MS = 24 * 60 * 60_000;
/** See {@linkcode DEFAULT_TTL_MS}. */
export const DEFAULT_LOCK_MS = 60_000;

interface MemoryRecord {
  readonly fingerprint: string;
  readonly token: string;
  readonly answer: StoredAnswer | undefined;
  readonly expires: number;
}

/**
 * The records of one process, bounded in time (`ttlMs`, `lockMs`) and in
 * number (`maxEntries`); expired records go as they are met, with no timer.
 *
 * @example
 * ```ts
 * import { memoryIdempotency } from "@ramify/api/http";
 *
 * const store = memoryIdempotency({ ttlMs: 60_000 });
 * console.log(await store.claim("k1", "fp", "t1")); // { state: "claimed" }
 * console.log((await store.claim("k1", "fp", "t2")).state); // "running"
 * ```
 *
 * @throws {RangeError} when a duration or `maxEntries` is not a positive number.
 */
export function memoryIdempotency(opts: MemoryIdempotencyOptions = {}): IdempotencyStore {
  const ttlMs = positive("ttlMs", opts.ttlMs ?? DEFAULT_TTL_MS);
  const lockMs = positive("lockMs", opts.lockMs ?? DEFAULT_LOCK_MS);
  const maxEntries = positive("maxEntries", opts.maxEntries ?? 10_000);
  const now = opts.now ?? Date.now;
  const records = new Map<string, MemoryRecord>();
  // Re-inserted on every write, so the map's order is the order of writes:
  // the sweep drops the oldest while they are expired or there is no room,
  // and stops at the first live one once there is.
  const put = (key: string, record: MemoryRecord) => {
    records.delete(key);
    records.set(key, record);
  };
  const sweep = (time: number) => {
    for (const [key, record] of records) {
      if (record.expires > time && records.size < maxEntries) return;
      records.delete(key);
    }
  };
  const held = (key: string, token: string, time: number) => {
    const record = records.get(key);
    return record !== undefined && record.token === token && record.expires > time
      ? record
      : undefined;
  };
  return {
    claim(key, fingerprint, token) {
      const time = now();
      const record = records.get(key);
      if (record !== undefined && record.expires > time) {
        return Promise.resolve(
          record.answer === undefined
            ? { state: "running", fingerprint: record.fingerprint }
            : { state: "done", fingerprint: record.fingerprint, answer: record.answer },
        );
      }
      records.delete(key);
      sweep(time);
      put(key, { fingerprint, token, answer: undefined, expires: time + lockMs });
      return Promise.resolve({ state: "claimed" });
    },
    complete(key, token, answer) {
      const time = now();
      const record = held(key, token, time);
      if (record !== undefined) put(key, { ...record, answer, expires: time + ttlMs });
      return Promise.resolve();
    },
    release(key, token) {
      if (held(key, token, now()) !== undefined) records.delete(key);
      return Promise.resolve();
    },
  };
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`memoryIdempotency: ${name} must be a positive number, got ${value}`);
  }
  return value;
}
