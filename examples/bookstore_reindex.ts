/**
 * The work of the bookstore's `catalog.reindex`: a long-running leaf (a task
 * on every surface) that walks the shelves, reports its progress at each, and
 * stops when its signal aborts (a cancel).
 *
 * @module
 */

import { progress } from "@ramify/api/tree";
import type { HandlerContext } from "@ramify/api/tree/node";
import type { BookStore } from "./bookstore_store.ts";

/** How long reindexing one shelf takes: ten shelves, the default, take a few seconds. */
const SHELF_MS = 300;

/** Reindexes the store's books, shelf by shelf; rejects with the signal's reason once cancelled. */
export async function reindex(
  store: BookStore,
  shelves: number,
  ctx: HandlerContext,
): Promise<{ indexed: number; shelves: number }> {
  const books = await store.list();
  for (let shelf = 1; shelf <= shelves; shelf++) {
    await pause(SHELF_MS, ctx.signal);
    progress(ctx, shelf, shelves, `shelf ${shelf} of ${shelves}`);
  }
  return { indexed: books.length, shelves };
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });
}
