/**
 * The bookstore's books: one {@linkcode BookStore} interface, kept in memory
 * for one process ({@linkcode MemoryBookStore}) or in Redis, where every
 * instance of the example reads and numbers alike ({@linkcode redisBookStore}).
 *
 * @module
 */

import { HttpError } from "@ramify/api";
import type { Redis } from "@ramify/api/redis";
import { z } from "zod";

/** A book, as every surface shows it. */
export const Book = z.object({
  id: z.string(),
  title: z.string().min(1),
  author: z.string().min(1),
  year: z.number().int().optional(),
}).meta({ title: "Book" });
/** A book, as every surface shows it. */
export type Book = z.infer<typeof Book>;

/** A book's fields without its id: what adding or replacing one takes. */
export const BookFields = Book.omit({ id: true });
/** A book's fields without its id. */
export type BookFields = z.infer<typeof BookFields>;

/** Where the books are; a missing book is an {@linkcode HttpError} 404. */
export interface BookStore {
  /** Every book, in the order they were added. */
  list(): Promise<Book[]>;
  /** Adds a book under a new id. */
  add(fields: BookFields): Promise<Book>;
  /** One book. */
  read(id: string): Promise<Book>;
  /** Overwrites a book that exists. */
  replace(id: string, fields: BookFields): Promise<Book>;
  /** Removes a book and its reservation (none: nothing happens). */
  remove(id: string): Promise<void>;
  /** Reserves a book that exists; twice is the same as once. */
  reserve(id: string): Promise<{ bookId: string; reserved: true }>;
  /** Whether a book is reserved. */
  isReserved(id: string): Promise<boolean>;
}

const missing = (id: string) => new HttpError(404, `There is no book ${id}`);

/** An in-memory store, so the example runs anywhere: one process's books. */
export class MemoryBookStore implements BookStore {
  #books = new Map<string, Book>();
  #reservations = new Set<string>();
  #nextId = 1;

  constructor(seed: readonly BookFields[] = []) {
    for (const fields of seed) this.#add(fields);
  }

  #add(fields: BookFields): Book {
    const book = { id: String(this.#nextId++), ...fields };
    this.#books.set(book.id, book);
    return book;
  }

  #read(id: string): Book {
    const book = this.#books.get(id);
    if (book === undefined) throw missing(id);
    return book;
  }

  list(): Promise<Book[]> {
    return Promise.resolve([...this.#books.values()]);
  }

  add(fields: BookFields): Promise<Book> {
    return Promise.resolve(this.#add(fields));
  }

  read(id: string): Promise<Book> {
    return Promise.try(() => this.#read(id));
  }

  replace(id: string, fields: BookFields): Promise<Book> {
    return Promise.try(() => {
      this.#read(id);
      const book = { id, ...fields };
      this.#books.set(id, book);
      return book;
    });
  }

  remove(id: string): Promise<void> {
    this.#books.delete(id);
    this.#reservations.delete(id);
    return Promise.resolve();
  }

  reserve(id: string): Promise<{ bookId: string; reserved: true }> {
    return Promise.try(() => {
      this.#read(id);
      this.#reservations.add(id);
      return { bookId: id, reserved: true as const };
    });
  }

  isReserved(id: string): Promise<boolean> {
    return Promise.resolve(this.#reservations.has(id));
  }
}

// Each script checks and writes in one step, so that a book removed by another
// instance meanwhile is not written back.
const ADD = `local id = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], id, ARGV[1])
return id`;
const REPLACE = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;
const RESERVE = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;
const REMOVE = `redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1`;

/**
 * The books in Redis, under the app's prefix: `books` (a hash of id to the
 * book's fields as JSON), `books:next` (the last id given, by `INCR`, so every
 * instance numbers alike), `books:reserved` (a set of ids) and `books:seeded`.
 * While Redis is unreachable every operation answers 503, with `Retry-After`.
 */
export class RedisBookStore implements BookStore {
  readonly #redis: Redis;
  readonly #books: string;
  readonly #next: string;
  readonly #reserved: string;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#books = `${redis.prefix}books`;
    this.#next = `${redis.prefix}books:next`;
    this.#reserved = `${redis.prefix}books:reserved`;
  }

  /** Adds `books` unless some instance has seeded the store before (ever). */
  seed(books: readonly BookFields[]): Promise<void> {
    return this.#reach(async () => {
      const first = await this.#redis.command([
        "SET",
        `${this.#redis.prefix}books:seeded`,
        "1",
        "NX",
      ]);
      if (first === null) return;
      for (const fields of books) {
        await this.#redis.script(ADD, [this.#next, this.#books], [json(fields)]);
      }
    });
  }

  list(): Promise<Book[]> {
    return this.#reach(async () => {
      const flat = await this.#redis.command<string[]>(["HGETALL", this.#books]);
      const books: Book[] = [];
      for (let i = 0; i < flat.length; i += 2) books.push(bookOf(flat[i], flat[i + 1]));
      return books.sort((a, b) => Number(a.id) - Number(b.id));
    });
  }

  add(fields: BookFields): Promise<Book> {
    return this.#reach(async () => {
      const id = await this.#redis.script(ADD, [this.#next, this.#books], [json(fields)]);
      return { id: String(id), ...fields };
    });
  }

  read(id: string): Promise<Book> {
    return this.#reach(async () => {
      const stored = await this.#redis.command<string | null>(["HGET", this.#books, id]);
      if (stored === null) throw missing(id);
      return bookOf(id, stored);
    });
  }

  replace(id: string, fields: BookFields): Promise<Book> {
    return this.#reach(async () => {
      const done = await this.#redis.script(REPLACE, [this.#books], [id, json(fields)]);
      if (done === 0) throw missing(id);
      return { id, ...fields };
    });
  }

  remove(id: string): Promise<void> {
    return this.#reach(async () => {
      await this.#redis.script(REMOVE, [this.#books, this.#reserved], [id]);
    });
  }

  reserve(id: string): Promise<{ bookId: string; reserved: true }> {
    return this.#reach(async () => {
      const done = await this.#redis.script(RESERVE, [this.#books, this.#reserved], [id]);
      if (done === 0) throw missing(id);
      return { bookId: id, reserved: true as const };
    });
  }

  isReserved(id: string): Promise<boolean> {
    return this.#reach(async () =>
      await this.#redis.command<number>(["SISMEMBER", this.#reserved, id]) === 1
    );
  }

  /** Runs `action`; Redis failing (down, restarting) is the client's 503, not a crash. */
  async #reach<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(503, "The books are out of reach for a moment: try again", {
        headers: { "retry-after": "1" },
        cause: error,
      });
    }
  }
}

/** The books of the app whose Redis handle this is, seeded once for all instances. */
export async function redisBookStore(
  redis: Redis,
  seed: readonly BookFields[] = [],
): Promise<RedisBookStore> {
  const store = new RedisBookStore(redis);
  await store.seed(seed);
  return store;
}

/** Only the fields: the id is the hash field already. */
function json({ title, author, year }: BookFields): string {
  return JSON.stringify({ title, author, year });
}

function bookOf(id: string, stored: string): Book {
  return { id, ...JSON.parse(stored) as BookFields };
}
