/**
 * Deadlines for work that usually finishes long before them (a body read, on
 * every request): one coarse ticker for all of them instead of a timer each,
 * which costs about as much as the rest of a small request. The ticker runs
 * only while deadlines are watched and never keeps a process alive; a
 * deadline fires within a tick (50 ms) of its time.
 *
 * Private to `http/server/`: used by `body.ts`.
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
