// Fakes shared by the client extension tests: scripted requests, a fake sleep,
// clock and random, a recording logger, paged leaves, a sender over `fetch`.
import assert from "node:assert/strict";
import type { CallOptions, ClientExtension, ClientRequest, Send } from "@ramify/api/client";
import type { HttpVerb, Tags } from "@ramify/api/tree/node";
import type { Logger } from "@ramify/api/http/extensions/logging";

// ---------------------------------------------------------------- helpers

export interface RequestParts {
  readonly method?: HttpVerb;
  readonly url?: string;
  readonly tags?: Tags;
  readonly headers?: HeadersInit;
  readonly body?: string;
  readonly signal?: AbortSignal;
  readonly options?: CallOptions;
}

/** A request as the client would build it; the signal defaults to the caller's. */
export function makeRequest(init: RequestParts = {}): ClientRequest {
  const method = init.method ?? "GET";
  const options = init.options ?? {};
  return {
    operation: {
      method,
      path: "/books",
      steps: [{ kind: "child", name: "books" }],
      tags: init.tags ?? {},
    },
    method,
    url: init.url ?? "http://api.test/books",
    headers: new Headers(init.headers),
    body: init.body,
    signal: init.signal ?? options.signal,
    options,
  };
}

export const READ_ONLY: Tags = { readOnly: true, idempotent: true };

export type Outcome = Response | Error | ((request: ClientRequest) => Response | Promise<Response>);

/** A sender playing `outcomes` in order (the last one repeats), recording each request. */
export function scripted(...outcomes: Outcome[]): { send: Send; calls: ClientRequest[] } {
  const calls: ClientRequest[] = [];
  const send: Send = async (request) => {
    const outcome = outcomes[Math.min(calls.length, outcomes.length - 1)];
    calls.push(request);
    if (outcome instanceof Response) return outcome;
    if (outcome instanceof Error) throw outcome;
    return await outcome(request);
  };
  return { send, calls };
}

/** A sleep that returns at once, recording the delays asked for. */
export function fakeSleep(): {
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  delays: number[];
} {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms);
      return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    },
  };
}

/** A sender that never answers, and rejects with the signal's reason when it aborts. */
export const untilAborted: Send = (request) =>
  new Promise((_, reject) => {
    const signal = request.signal;
    assert.ok(signal, "the request must carry a signal");
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

export function chain(extensions: readonly ClientExtension[], send: Send): Send {
  return extensions.reduceRight<Send>((next, extension) => extension.wrap(next), send);
}

/** A response whose body records being cancelled. */
export function trackedResponse(status: number, headers?: HeadersInit): {
  response: Response;
  cancelled: () => boolean;
} {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { status, headers }), cancelled: () => cancelled };
}

export function isNamed(name: string): (error: unknown) => boolean {
  return (error) => error instanceof DOMException && error.name === name;
}

/** The real sender: `fetch`. */
export const fetchSend: Send = (request) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
  });

export type Line = [level: string, message: string, details: Record<string, unknown>];

export function recordingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, details: Record<string, unknown>) =>
    void lines.push([level, message, details]);
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/** A clock answering 100, 112, 124, ... */
export function fakeClock(): () => number {
  let time = 88;
  return () => (time += 12);
}

export interface Book {
  readonly id: number;
}

export const BOOKS: readonly Book[] = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));

export interface CursorInput {
  readonly shelf: string;
  readonly cursor?: string;
  readonly after?: string;
}

export interface CursorPage {
  readonly books: readonly Book[];
  readonly next: string | null;
}

/** A cursor-paged listing of BOOKS, 3 per page, the cursor being the next index. */
export function cursorLeaf(param: "cursor" | "after" = "cursor") {
  const inputs: CursorInput[] = [];
  const calls: (CallOptions | undefined)[] = [];
  const leaf = (input: CursorInput, options?: CallOptions): Promise<CursorPage> => {
    inputs.push(input);
    calls.push(options);
    const start = Number(input[param] ?? 0);
    const end = start + 3;
    return Promise.resolve({
      books: BOOKS.slice(start, end),
      next: end < BOOKS.length ? String(end) : null,
    });
  };
  return { leaf, inputs, calls };
}

export interface OffsetInput {
  readonly offset?: number;
  readonly limit?: number;
  readonly skip?: number;
  readonly take?: number;
}

export interface OffsetPage {
  readonly data: readonly Book[];
  readonly total: number;
}

export function offsetLeaf(items: readonly Book[] = BOOKS) {
  const inputs: OffsetInput[] = [];
  const leaf = (input: OffsetInput): Promise<OffsetPage> => {
    inputs.push(input);
    const offset = input.offset ?? input.skip ?? 0;
    const limit = input.limit ?? input.take ?? 10;
    return Promise.resolve({ data: items.slice(offset, offset + limit), total: items.length });
  };
  return { leaf, inputs };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

export const cursorStyle = {
  style: "cursor",
  items: (page: CursorPage) => page.books,
  next: (page: CursorPage) => page.next,
} as const;
