/**
 * Deadlines. `watchDeadline` is for work that usually finishes long before its
 * deadline and is kept alive by a connection anyway (a body read, on every
 * request): one coarse ticker for all of them instead of a timer each, which
 * costs about as much as the rest of a small request; it never keeps a process
 * alive, and fires within two ticks (of 50 ms) of its time. `withDeadline`
 * runs a call that must give up on time (a handler, a GraphQL operation, a
 * tool), with its signal.
 *
 * Internal: not a public subpath. Used by the HTTP server (body reads, handler
 * timeouts), GraphQL execution and MCP tool calls.
 *
 * @module
 */

const TICK_MS = 50;

// An intrusive list, not a `Set`: adding and removing an entry is a few
// pointer writes, where a set hashes every entry it holds.
interface Watched {
  readonly at: number;
  readonly expire: () => void;
  prev: Watched | undefined;
  next: Watched | undefined;
}

let first: Watched | undefined;
let last: Watched | undefined;
let ticker: unknown;
let interval = TICK_MS;
// The clock as of the last tick: a deadline is set from it, one interval
// later than exact, so reading the time costs nothing per entry.
let now = 0;

function unlink(entry: Watched): void {
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
  let entry = first;
  while (entry !== undefined) {
    const next = entry.next;
    if (entry.at <= now) {
      unlink(entry);
      entry.expire();
    }
    entry = next;
  }
  if (first === undefined) {
    clearInterval(ticker as number);
    ticker = undefined;
  }
}

/**
 * Calls `expire` once `ms` have passed (and at most two ticks more), unless
 * the returned function is called first.
 */
export function watchDeadline(ms: number, expire: () => void): () => void {
  if (ticker === undefined) {
    now = Date.now();
    interval = Math.min(TICK_MS, Math.max(1, ms));
    ticker = setInterval(tick, interval);
    unref(ticker);
  }
  const entry: Watched = {
    at: now + ms + interval,
    expire,
    prev: last,
    next: undefined,
  };
  if (last === undefined) first = entry;
  else last.next = entry;
  last = entry;
  return () => unlink(entry);
}

function unref(handle: unknown): void {
  if (typeof handle === "object" && handle !== null && "unref" in handle) {
    (handle as { unref(): void }).unref();
    return;
  }
  const deno = (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno;
  deno?.unrefTimer?.(handle as number);
}

/**
 * Runs `run` with a signal that aborts with a `TimeoutError` once `ms` have
 * passed; the promise then settles with what `expired` gives (or throws), and
 * whatever `run` does after is ignored.
 */
export function withDeadline<T>(
  ms: number,
  run: (signal: AbortSignal) => T | Promise<T>,
  expired: () => T,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // A timer of its own, not the shared ticker: work that waits on nothing else
    // (a handler stuck on its signal) must still see the deadline come.
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      controller.abort(new DOMException("The operation timed out", "TimeoutError"));
      try {
        resolve(expired());
      } catch (error) {
        reject(error);
      }
    }, ms);
    const forget = () => clearTimeout(timer);
    Promise.resolve().then(() => run(controller.signal)).then(
      (value) => {
        forget();
        if (!settled) resolve(value);
        settled = true;
      },
      (error) => {
        forget();
        if (!settled) reject(error);
        settled = true;
      },
    );
  });
}

/** Whether an error is a signal's abort (a timeout, a client gone): the work gave up, it did not crash. */
export function isCancellation(error: unknown): boolean {
  return error instanceof DOMException &&
    (error.name === "AbortError" || error.name === "TimeoutError");
}
