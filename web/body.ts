/**
 * A request body as bytes within a size limit: the declared Content-Length is
 * checked first (nothing is read when it is over), then the stream is counted
 * as it arrives, since a chunked body declares nothing. And the one reading of
 * a body's media type. Shared by the HTTP
 * surface and the GraphQL server, each turning a refusal into its own error.
 *
 * Internal: not a public subpath. Used by the HTTP server's request reading and
 * GraphQL over HTTP.
 *
 * @module
 */

import { arm, Deadline, disarm, watchDeadline } from "../tree/deadline.ts";
import { mediaTypeEssence } from "../tree/media_type.ts";

/** The media type of a Content-Type by its essence; the common exact spelling costs nothing. */
export function mediaType(contentType: string | null): string {
  if (contentType === "application/json" || contentType === null) return contentType ?? "";
  return mediaTypeEssence(contentType);
}

/** How long a body may take to arrive by default on every surface that reads one (`bodyTimeoutMs`). */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * The largest body every surface that reads one accepts by default, in bytes
 * (`maxBodyBytes`; `413` above it): 1 MiB on REST, GraphQL over HTTP and MCP.
 *
 * @example
 * ```ts
 * import { MAX_BODY_BYTES } from "./body.ts";
 *
 * console.log(MAX_BODY_BYTES); // 1048576
 * ```
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body's bytes, or why there are none. */
export type BodyBytes =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "too-large" | "unreadable" | "too-slow" };

/**
 * Reads a request's body (empty when it has none), refusing more than
 * `maxBytes`, and giving up when the whole body has not arrived within
 * `timeoutMs` (a client dribbling a byte a second holds nothing for long).
 * `declared` is its Content-Length, when the caller has read it already.
 */
export function readBodyBytes(
  request: Request,
  maxBytes: number,
  timeoutMs = Infinity,
  declared: string | null = request.headers.get("content-length"),
): Promise<BodyBytes> {
  // A declared length bounds the body (the connection's framing holds it to
  // it): the runtime's own reader is then several times faster than a loop.
  // `request.body` stays untouched here: reading it would cost that speed.
  const length = declaredLength(declared);
  if (length !== undefined) {
    if (length > maxBytes) {
      return (request.body?.cancel() ?? Promise.resolve()).then(TOO_LARGE, TOO_LARGE);
    }
    return readDeclared(request, timeoutMs);
  }
  const body = request.body;
  if (body === null) return Promise.resolve({ ok: true, bytes: new Uint8Array(0) });
  return readStream(body, maxBytes, timeoutMs);
}

const TOO_LARGE = (): BodyBytes => ({ ok: false, reason: "too-large" });

/** A Content-Length as a number, when it is one (digits only: no sign, space or exponent). */
export function declaredLength(contentLength: string | null): number | undefined {
  // A loop, not a regular expression: a tenth of a small POST's own cost less.
  if (contentLength === null || contentLength.length === 0) return undefined;
  for (let i = 0; i < contentLength.length; i++) {
    const code = contentLength.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  return Number(contentLength);
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  timeoutMs: number,
): Promise<BodyBytes> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let late = false;
  const forget = Number.isFinite(timeoutMs)
    ? watchDeadline(timeoutMs, () => {
      late = true;
      reader.cancel().catch(() => {});
    })
    : () => {};
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (late) return { ok: false, reason: "too-slow" };
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: late ? "too-slow" : "unreadable" };
  } finally {
    forget();
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

function readDeclared(request: Request, timeoutMs: number): Promise<BodyBytes> {
  return within(
    request.arrayBuffer(),
    timeoutMs,
    (buffer): BodyBytes => ({ ok: true, bytes: new Uint8Array(buffer) }),
    (): BodyBytes => ({ ok: false, reason: "unreadable" }),
    (): BodyBytes => ({ ok: false, reason: "too-slow" }),
  );
}

/**
 * A body read that gives up at its deadline: one promise, settled by
 * whichever comes first, with what `done`, `failed` or `late` return (or
 * rejected with what they throw); once it is late, `done` and `failed` are not
 * called at all. A read that never ends cannot be cancelled (the body is
 * locked by then), so the deadline does not wait for it.
 */
export function within<T, R>(
  reading: Promise<T>,
  timeoutMs: number,
  done: (value: T) => R | PromiseLike<R>,
  failed: (error: unknown) => R | PromiseLike<R>,
  late: () => R,
): Promise<R> {
  if (!Number.isFinite(timeoutMs)) return reading.then(done, failed);
  let race!: Race<T, R>;
  const raced = new Promise<R>((resolve, reject) => {
    race = new Race(resolve, reject, late);
  });
  arm(race, timeoutMs);
  reading.then(
    (value) => race.settle(done, value),
    (error) => race.settle(failed, error),
  );
  return raced;
}

/** The deadline entry of one `within`: it is its own list link, so a read costs one object. */
class Race<T, R> extends Deadline {
  settled = false;
  constructor(
    readonly resolve: (value: R | PromiseLike<R>) => void,
    readonly reject: (error: unknown) => void,
    readonly late: () => R,
  ) {
    super();
  }

  expire(): void {
    this.settle(this.late, undefined);
  }

  settle<V>(answer: (value: V) => R | PromiseLike<R>, value: V): void {
    if (this.settled) return;
    this.settled = true;
    disarm(this);
    try {
      this.resolve(answer(value));
    } catch (error) {
      this.reject(error);
    }
  }
}
