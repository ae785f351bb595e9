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

/**
 * The promise rejections nobody handled while `run` ran (and for a short wait
 * after it, when a rejection would be reported), kept from failing the test.
 */
export async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
  return unhandled;
}

/** A gate a test opens when it is ready: what awaits `passed` waits until then. */
export class Gate {
  readonly passed: Promise<void>;
  open!: () => void;
  constructor() {
    this.passed = new Promise((resolve) => this.open = resolve);
  }
}
