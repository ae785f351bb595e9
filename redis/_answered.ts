// A Redis reply awaited no longer than a store's `timeoutMs`: a frozen Redis
// (connections open, nothing answering) is treated as a Redis that is down.
// And the stores' one check of their numeric options.

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

/** `value` when it is a positive number (`integer`: a positive integer); a `RangeError` naming `caller` else. */
export function positive(caller: string, name: string, value: number, integer = false): number {
  if (integer ? !Number.isInteger(value) || value < 1 : !(value > 0) || !Number.isFinite(value)) {
    const kind = integer ? "integer" : "number";
    throw new RangeError(`${caller}: ${name} must be a positive ${kind}, got ${value}`);
  }
  return value;
}
