// A Redis reply awaited no longer than a store's `timeoutMs`: a frozen Redis
// (connections open, nothing answering) is treated as a Redis that is down.

import { StoreUnreachable } from "../tree/outage.ts";

/** The answer, or a rejection once `timeoutMs` have passed without one (a frozen Redis). */
export async function answered<T>(reply: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      reply,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StoreUnreachable(`ramify: Redis did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
