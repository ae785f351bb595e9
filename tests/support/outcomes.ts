// What a call came to, for tests of failures: the error it threw or rejected
// with, and a handler's wait for its signal to abort.

/** The error a call throws or rejects with (a synchronous leaf fails synchronously). */
export async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
}

/** Never settles until `signal` aborts, then rejects with its reason: a handler stuck on I/O. */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
