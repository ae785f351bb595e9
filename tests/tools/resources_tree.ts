// The tree the resource, completion and subscription tests serve: listed
// resources of each content kind, templates, leaves opted in and out, leaves
// that are no resources (input beyond captures, required or optional; not
// readOnly; streaming), a completer, a stream of changes, and leaves that see
// exactly what a URI binds (for the hostile cases), fail, crash, or show
// their context.
import { z } from "zod";
import { api, type ContextFunction, HttpError, op } from "@ramify/api/tree";

const readOnly = { tags: { readOnly: true } } as const;

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** The book data; `changed` moves a book's stream on. */
export const books: Record<string, { id: string; title: string }> = {
  b1: { id: "b1", title: "Dune" },
  b2: { id: "b2", title: "Emma" },
};

/** Each book's change signal: resolving it makes its stream yield. */
const waiting = new Map<string, Set<() => void>>();
export function changed(bookId: string): void {
  for (const wake of waiting.get(bookId) ?? []) wake();
}
/** How many change streams run now, by book. */
export const following = new Map<string, number>();

/** A change stream: an item each time `changed(id)` is called, until the signal aborts. */
export async function* watched(id: string, signal: AbortSignal | undefined) {
  const stopped = () => signal?.aborted === true;
  following.set(id, (following.get(id) ?? 0) + 1);
  const wakes = waiting.get(id) ?? new Set();
  waiting.set(id, wakes);
  try {
    while (!stopped()) {
      await new Promise<void>((resolve) => {
        wakes.add(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      wakes.clear();
      if (!stopped()) yield { id };
    }
  } finally {
    following.set(id, following.get(id)! - 1);
  }
}

/** The values each leaf of `seen` was called with, in order. */
export const seen: unknown[] = [];

export const context: ContextFunction = (source) => ({
  tenant: source.request?.headers.get("x-tenant") ?? "none",
});

const IDS = Array.from({ length: 150 }, (_, at) => `b${at + 1}`);

export const tree = api({
  about: op(() => "A bookstore", { ...readOnly, output: z.string(), description: "What this is" }),
  stats: op(() => ({ books: Object.keys(books).length }), {
    ...readOnly,
    output: z.object({ books: z.number() }),
  }),
  bare: op(() => ({ untyped: true }), readOnly),
  logo: op(() => new File([PNG], "logo.png", { type: "image/png" }), {
    ...readOnly,
    output: z.file().mime(["image/png"]),
  }),
  secret: op(() => "no", { ...readOnly, tools: { resource: false } }),
  only: op(() => "a resource, no tool", { ...readOnly, tools: { tool: false, title: "Only" } }),
  off: op(() => "nowhere", { ...readOnly, tools: false }),
  search: op(({ q }) => [q], { ...readOnly, input: z.object({ q: z.string() }) }),
  paged: op(({ page }) => page ?? 1, {
    ...readOnly,
    input: z.object({ page: z.number().optional() }),
  }),
  add: op(() => "added", { tags: { destructive: false } }),
  ticks: op(async function* () {
    yield 1;
  }, { tags: { readOnly: true, streaming: true } }),
  whoami: op((_input, ctx) => ({ tenant: ctx.tenant }), readOnly),
  vault: op(() => "gold", { ...readOnly, tools: { updates: "vaultChanges" } }),
  // Its guard refuses before the stream begins: a subscription fails with it.
  vaultChanges: op((_input, ctx) => {
    if (ctx.tenant !== "acme") throw new HttpError(403, "Not yours");
    return (async function* () {})();
  }, { tags: { readOnly: true, streaming: true } }),
  // A tenant's resource whose changes run while followed: each subscriber passes its check.
  safe: op((_input, ctx) => {
    if (ctx.tenant !== "acme") throw new HttpError(403, "Not yours");
    return "gold";
  }, { ...readOnly, tools: { updates: "safeChanges" } }),
  safeChanges: op((_input, ctx) => {
    if (ctx.tenant !== "acme") throw new HttpError(403, "Not yours");
    return watched("safe", ctx.signal);
  }, { tags: { readOnly: true, streaming: true } }),
  boom: op((): string => {
    throw new Error("secret database password");
  }, readOnly),
  slow: op(
    (_input, { signal }) =>
      new Promise<string>((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true })
      ),
    readOnly,
  ),
  ids: op(({ value, arguments: args }) => {
    seen.push({ value, arguments: args });
    return IDS;
  }, {
    ...readOnly,
    input: z.object({ value: z.string(), arguments: z.record(z.string(), z.string()) }),
  }),
  broken: op(() => [1, 2], {
    ...readOnly,
    input: z.object({ value: z.string(), arguments: z.record(z.string(), z.string()) }),
  }),
  books: api({}, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }) => {
          const book = books[String(bookId)];
          if (book === undefined) throw new HttpError(404, `No book ${bookId}`);
          return book;
        }, {
          ...readOnly,
          description: "A book",
          output: z.object({ id: z.string(), title: z.string() }),
          tools: { complete: { bookId: "ids" }, updates: "books/{bookId}/changes" },
        }),
        changes: op((input, { signal }) => watched(String(input.bookId), signal), {
          tags: { readOnly: true, streaming: true },
        }),
        formats: api({}, {
          fallback: {
            name: "format",
            subtree: api({
              read: op((input) => {
                const { bookId, format } = input as { bookId: string; format: string };
                return `${bookId} as ${format}`;
              }, {
                ...readOnly,
                input: z.object({ format: z.enum(["pdf", "epub", "mobi"]) }),
                tools: { complete: { bookId: "broken" } },
              }),
            }),
          },
        }),
      }),
    },
  }),
  echo: api({}, {
    fallback: {
      name: "value",
      subtree: api({
        read: op(({ value }) => {
          seen.push(value);
          return value;
        }, readOnly),
      }),
    },
  }),
});
