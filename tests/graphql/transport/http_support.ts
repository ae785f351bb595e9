// Helpers of the GraphQL-over-HTTP tests: a book tree, a served handler and
// requests in each media type.
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import type { HandlerContext } from "@ramify/api/tree/node";
import type { HttpGraphQLServerOptions } from "@ramify/api/graphql";

export const GRAPHQL_RESPONSE = "application/graphql-response+json";

export class NotFound extends Error {
  override name = "NotFound";
}

export const Book = z.object({ id: z.string(), title: z.string() });

/** The test tree: read leaves (Query), a mutation, a crash, a context probe, a subscription. */
export function bookTree(seen: HandlerContext[] = []) {
  const books = new Map([["1", { id: "1", title: "Dune" }]]);
  return api({
    books: api({
      list: op(() => [...books.values()], { tags: { readOnly: true }, output: z.array(Book) }),
      add: op(({ title }: { title: string }) => {
        const book = { id: String(books.size + 1), title };
        books.set(book.id, book);
        return book;
      }, { input: z.object({ title: z.string().min(1) }), output: Book }),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }: { bookId: string }) => {
            const book = books.get(bookId);
            if (book === undefined) throw new NotFound(`no book ${bookId}`);
            return book;
          }, { tags: { readOnly: true }, output: Book }),
        }),
      },
    }),
    whoami: op((_input: unknown, ctx: HandlerContext) => {
      seen.push(ctx);
      return String(ctx.user ?? "anonymous");
    }, { tags: { readOnly: true }, output: z.string() }),
    crash: op(() => {
      throw new Error("db password hunter2");
    }, { tags: { readOnly: true }, output: z.string() }),
    // Free-form input is declared: a JSON argument named `input`.
    echo: op(({ input }) => input, {
      tags: { readOnly: true },
      input: z.object({ input: z.unknown() }),
    }),
    big: op(() => 10n, { tags: { readOnly: true } }),
    events: op(async function* () {
      yield 1;
    }, { tags: { streaming: true } }),
  });
}

export type Handler = (request: Request) => Promise<Response>;

/** Serves a handler on a free local port for the duration of `fn`. */
export async function withServer(
  handler: Handler,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/graphql`);
  } finally {
    await server.shutdown();
  }
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
}

/** Fetches and reads the whole body (parsed when it is JSON). */
export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export function post(
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return send(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

export function get(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
  return send(target.href, { headers });
}

export const strict = { accept: GRAPHQL_RESPONSE };

/**
 * Options whose `onError` records what crashed, in `crashes`: a property the
 * server does not see as an option (not enumerable: unknown options are refused).
 */
export function quiet(extra: HttpGraphQLServerOptions = {}): HttpGraphQLServerOptions & {
  readonly crashes: unknown[];
} {
  const crashes: unknown[] = [];
  const options = { onError: (error: unknown) => crashes.push(error), ...extra };
  return Object.defineProperty(options, "crashes", { value: crashes, enumerable: false }) as
    & HttpGraphQLServerOptions
    & { readonly crashes: unknown[] };
}

export function codes(reply: Reply): string[] {
  return (reply.body?.errors ?? []).map((e: { extensions?: { code?: string } }) =>
    e.extensions?.code
  );
}
