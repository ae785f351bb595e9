// The tree the MCP tests serve over Streamable HTTP and stdio: a value, a
// structured result, a 404, a crash, a stream, a call that waits to be
// cancelled (or to time out), a declared error with data, a leaf without an
// input schema (its captures alone), and one that shows its context. Each
// leaf says readOnly or destructive, as MCP clients need to know.
import { z } from "zod";
import { api, type ContextFunction, LeafError, op } from "@ramify/api/tree";
import { HttpError } from "@ramify/api/tree";

/** Settles when the pending call's signal aborts. */
export const cancelled: { resolve?: (reason: unknown) => void } = {};

/** The servers' `context` option: what it was told, for `whoami` to show. */
export const context: ContextFunction = (source) => ({
  surface: source.surface,
  carried: source.request !== undefined,
});

export const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true }, description: "Answers pong" }),
  books: api({
    add: op(({ title, pages }) => ({ id: "b1", title, pages, secret: "hidden" }), {
      input: z.object({ title: z.string().min(1), pages: z.number().int().positive() }),
      output: z.object({ id: z.string(), title: z.string(), pages: z.number() }),
      tags: { idempotent: false, destructive: false },
    }),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }) => {
          if (bookId !== "b1") throw new HttpError(404, `No book ${bookId}`);
          return { id: bookId, title: "Dune" };
        }, { tags: { readOnly: true } }),
        echo: op((input) => input, { tags: { readOnly: true } }),
      }),
    },
  }),
  boom: op((): string => {
    throw new Error("secret database password in this message");
  }, { tags: { readOnly: true } }),
  ticks: op(async function* ({ count }) {
    // A stream has gaps between items: the SDK client over stdio drops progress
    // that arrives in the same read as the result (the server's order is right).
    for (let i = 1; i <= count; i++) {
      yield { tick: i };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }, {
    input: z.object({ count: z.number().int().min(0).max(10) }),
    tags: { streaming: true, readOnly: true },
  }),
  wait: op((_input, { signal }) =>
    new Promise<string>((_, reject) => {
      signal?.addEventListener("abort", () => {
        cancelled.resolve?.(signal.reason);
        reject(signal.reason);
      }, { once: true });
    }), { tags: { readOnly: true } }),
  reserve: op((): string => {
    throw new LeafError("SOLD_OUT", { data: { left: 0 } });
  }, {
    errors: {
      SOLD_OUT: { status: 409, message: "Sold out", data: z.object({ left: z.number() }) },
    },
    tags: { destructive: false },
  }),
  whoami: op((_input, ctx) => ({ surface: ctx.surface, carried: ctx.carried }), {
    tags: { readOnly: true },
  }),
});
