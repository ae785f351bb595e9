// How long to wait before trying Redis again (a reconnection, a stream
// reader's next read): doubling from 50 ms, at most 2 s.

/** Milliseconds to wait before attempt `n` again. */
export function backoffMs(attempt: number): number {
  return Math.min(50 * 2 ** attempt, 2000);
}
