/**
 * Deadlines. `watchDeadline` is for work that usually finishes long before its
 * deadline and is kept alive by a connection anyway (a body read, on every
 * request): one coarse ticker for all of them instead of a timer each, which
 * costs about as much as the rest of a small request; it never keeps a process
 * alive, and fires within a tick (50 ms). `withDeadline` runs a call that must
 * give up on time (a handler, a GraphQL operation, a tool), with its signal.
 *
 * Internal: not a public subpath. Used by the HTTP server (body reads, handler
 * timeouts), GraphQL execution and MCP tool calls.
 *
 * @module
 */

const TICK_MS = 50;

interface Watched {
  readonly at: number;
  readonly expire: () => void;
}

const watched = new Set<Watched>();
let ticker: unknown;

function tick(): void {
  const now = Date.now();
  for (const entry of watched) {
    if (entry.at <= now) {
      watched.delete(entry);
      entry.expire();
    }
  }
  if (watched.size === 0) {
    clearInterval(ticker as number);
    ticker = undefined;
  }
}

/** Calls `expire` once `ms` have passed, unless the returned function is called first. */
export function watchDeadline(ms: number, expire: () => void): () => void {
  const entry: Watched = { at: Date.now() + ms, expire };
  watched.add(entry);
  if (ticker === undefined) {
    ticker = setInterval(tick, Math.min(TICK_MS, Math.max(1, ms)));
    unref(ticker);
  }
  return () => void watched.delete(entry);
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
