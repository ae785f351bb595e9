// The document cache: one entry per document text (its parsed and validated
// document, whose compiled plans live as long as it does), least recently used
// evicted first, bounded by count and by an estimate of memory: 64 bytes per
// character of text, the estimate documented since the cache was first bounded.
// It is low for small documents: measured with
// tests/graphql/execution/compiled_flood_support.ts, a cache full of 52-character
// documents holds about 230 bytes per character (graphql-js's parsed documents
// about 100, their plans and the maps the rest), so for those the count bound
// (1,000 by default: about 10 MB) is the one that holds.

/** What a cached document is estimated to cost per character of its text. */
export const BYTES_PER_CHAR = 64;

/** A least-recently-used map from document text, bounded by count and bytes. */
export class DocumentCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxBytes / BYTES_PER_CHAR;
  }

  /** How many entries it holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** The characters of text it holds (the estimate is `BYTES_PER_CHAR` bytes each). */
  get chars(): number {
    return this.#chars;
  }

  /** The entry of `key`, now the most recently used; `undefined` when not held. */
  get(key: string): V | undefined {
    const entries = this.#entries;
    const value = entries.get(key);
    if (value === undefined) return undefined;
    // Already the newest (a repeated query): nothing to move.
    if (this.#newest !== key) {
      entries.delete(key);
      entries.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  #newest: string | undefined;

  /** Holds `value` under `key` (unless the text alone exceeds the bound) and gives it back. */
  add(key: string, value: V): V {
    if (key.length > this.#maxChars || this.#maxEntries < 1) return value;
    const entries = this.#entries;
    if (entries.delete(key)) this.#chars -= key.length;
    entries.set(key, value);
    this.#newest = key;
    this.#chars += key.length;
    while (entries.size > this.#maxEntries || this.#chars > this.#maxChars) {
      const oldest = entries.keys().next().value!;
      entries.delete(oldest);
      this.#chars -= oldest.length;
    }
    return value;
  }
}
