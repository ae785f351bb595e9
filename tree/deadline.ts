/**
 * Deadlines. `arm` (an entry of one's own) and `watchDeadline` (a callback)
 * are for work that usually finishes long before its deadline and is kept
 * alive by a connection anyway (a body read, on every request): one coarse
 * ticker for all of them instead of a timer each, which costs about as much as
 * the rest of a small request; it never keeps a process alive, and fires
 * within two ticks (of 50 ms) of its time.
 *
 * Internal: not a public subpath. Used by the HTTP server (body reads, handler
 * timeouts), GraphQL execution and MCP tool calls.
 *
 * @module
 */

const TICK_MS = 50;

/**
 * An entry of the ticker's list, which `arm` links in and `disarm` takes out;
 * a subclass says what expiring does. The entry is the list's link itself
 * (no set to hash it into, no closure around it): arming and disarming are a
 * few pointer writes, on every request that reads a body.
 */
export abstract class Deadline {
  /** When it expires, by the ticker's clock. */
  at = 0;
  prev: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  /** Called once `ms` have passed since `arm` (and at most two ticks more), unless disarmed. */
  abstract expire(): void;
}

let first: Deadline | undefined;
let last: Deadline | undefined;
let ticking = false;
let interval = TICK_MS;
// The clock as of the last tick: a deadline is set from it, one interval
// later than exact, so reading the time costs nothing per entry.
let now = 0;

/** Takes an entry out of the list; harmless when it is not in it. */
export function disarm(entry: Deadline): void {
  // Only the first entry has no predecessor: any other without one is out already.
  if (entry.prev === undefined && first !== entry) return;
  if (entry.prev === undefined) first = entry.next;
  else entry.prev.next = entry.next;
  if (entry.next === undefined) last = entry.prev;
  else entry.next.prev = entry.prev;
  entry.prev = entry.next = undefined;
}

function tick(): void {
  now = Date.now();
  try {
    let entry = first;
    while (entry !== undefined) {
      const next = entry.next;
      if (entry.at <= now) {
        disarm(entry);
        entry.expire();
      }
      entry = next;
    }
  } finally {
    if (first === undefined) ticking = false;
    else schedule();
  }
}

/**
 * The next tick, on `AbortSignal.timeout`'s timer rather than `setInterval`:
 * Deno makes its global timers Node's, loaded on the first call (~4.5 ms, paid
 * by the first request that reads a body), while the signal's timer is the
 * runtime's own; it never keeps a process alive either.
 */
function schedule(): void {
  AbortSignal.timeout(interval).addEventListener("abort", tick, { once: true });
}

/** Links an entry in: it expires once `ms` have passed (and at most two ticks more), unless disarmed first. */
export function arm(entry: Deadline, ms: number): void {
  if (!ticking) {
    ticking = true;
    now = Date.now();
    interval = Math.min(TICK_MS, Math.max(1, ms));
    schedule();
  }
  entry.at = now + ms + interval;
  entry.prev = last;
  entry.next = undefined;
  if (last === undefined) first = entry;
  else last.next = entry;
  last = entry;
}

class Callback extends Deadline {
  constructor(readonly callback: () => void) {
    super();
  }
  expire(): void {
    this.callback();
  }
}

/**
 * Calls `expire` once `ms` have passed (and at most two ticks more), unless
 * the returned function is called first.
 */
export function watchDeadline(ms: number, expire: () => void): () => void {
  const entry = new Callback(expire);
  arm(entry, ms);
  return () => disarm(entry);
}

/**
 * Waits `ms`, or rejects with the signal's reason once it aborts (at once,
 * when it already has): the pause between polls and retries of the clients
 * and the command line.
 *
 * @example
 * ```ts
 * import { delay } from "./deadline.ts";
 *
 * await delay(1);
 * const stop = new AbortController();
 * stop.abort(new Error("stopped"));
 * await delay(1_000, stop.signal).catch((error) => console.log(error.message)); // "stopped"
 * ```
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
