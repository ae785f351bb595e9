// A large download for the agreement suites: bytes made as they are read (so
// the server never holds them whole) and a running tally of what arrived (its
// length and an Adler-32 sum, which notices a byte lost, added or moved), so
// that no side needs the whole download in one array to compare it.

/** A byte stream of `size` bytes in 64 KiB chunks, each made when pulled. */
export function madeBytes(size: number): ReadableStream<Uint8Array> {
  const chunk = 64 * 1024;
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const length = Math.min(chunk, size - sent);
      const start = sent;
      controller.enqueue(new Uint8Array(length).map((_, i) => ((start + i) * 31) & 255));
      sent += length;
    },
  }, { highWaterMark: 0 });
}

/** The length and Adler-32 sum of bytes, added chunk by chunk. */
export class Tally {
  length = 0;
  #a = 1;
  #b = 0;

  add(chunk: Uint8Array): void {
    let a = this.#a;
    let b = this.#b;
    for (const byte of chunk) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
    [this.#a, this.#b] = [a, b];
    this.length += chunk.length;
  }

  /** What arrived, to compare with another tally. */
  get seen(): { readonly length: number; readonly sum: number } {
    return { length: this.length, sum: this.#b * 65536 + this.#a };
  }

  /** Tallies a whole body, reading it chunk by chunk. */
  static async of(body: ReadableStream<Uint8Array> | Blob): Promise<Tally["seen"]> {
    const tally = new Tally();
    const reader = (body instanceof Blob ? body.stream() : body).getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      tally.add(step.value);
    }
    return tally.seen;
  }
}
