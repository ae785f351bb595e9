/**
 * A bytes result (see `tree/bytes.ts`, which decides what bytes are) as a
 * response: its media type, its length where known, `Content-Disposition` for
 * a named `File`, and one `Range` of a `Blob` (RFC 9110 §14). A byte stream's
 * first chunk is read before the status is sent, so a failure before it is
 * the call's own failure; a later one errors the body, which closes the
 * connection, and is reported once.
 *
 * Internal: not a public subpath. Used by the HTTP server's responses.
 *
 * @module
 */

import { type Bytes, soleMediaType } from "../tree/bytes.ts";
import type { HttpOperation } from "../route/route.ts";
import type { HandlerContext } from "../tree/node.ts";
import { failureOf } from "../tree/run.ts";
import { failureResponse } from "./problem.ts";
import { HttpError } from "../tree/http_error.ts";
import { classify } from "../tree/failure.ts";

/** How one bytes result is answered. */
export interface BytesResponseOptions {
  /** The request: its method and `Range` header. */
  readonly request: Request;
  /** The success status (the leaf's declared one, else 200); ranges apply to 200 alone. */
  readonly status: number;
  /** The call's context: its signal tells a failure of a caller gone away. */
  readonly context: HandlerContext;
  /** Observes a fault of a stream under way. */
  readonly onError: (error: unknown) => void;
}

/** The one media type an operation's output schema names for bytes, if it names exactly one. */
export function mediaTypeOf(operation: HttpOperation): string | undefined {
  return operation.response === "bytes" ? soleMediaType(operation.entry.bytes) : undefined;
}

/** The response of bytes; rejects with what a stream threw before its first chunk. */
export async function bytesResponse(
  bytes: Bytes,
  opts: BytesResponseOptions,
): Promise<Response> {
  const headers = new Headers({ "content-type": bytes.type });
  if (bytes.name !== undefined) headers.set("content-disposition", contentDisposition(bytes.name));
  const { body } = bytes;
  if (!(body instanceof Blob)) {
    return new Response(await guardedStream(body, opts), { status: opts.status, headers });
  }
  const size = body.size;
  if (opts.status !== 200) {
    headers.set("content-length", String(size));
    return new Response(body, { status: opts.status, headers });
  }
  headers.set("accept-ranges", "bytes");
  const range = rangeOf(opts.request, size);
  if (range === "unsatisfiable") {
    const failure = classify(
      new HttpError(416, `The range is outside the ${size} bytes`, {
        headers: { "content-range": `bytes */${size}`, "accept-ranges": "bytes" },
      }),
    );
    return failureResponse(failure);
  }
  if (range === undefined) {
    headers.set("content-length", String(size));
    return new Response(body, { status: 200, headers });
  }
  const [start, end] = range;
  headers.set("content-range", `bytes ${start}-${end}/${size}`);
  headers.set("content-length", String(end - start + 1));
  return new Response(body.slice(start, end + 1), { status: 206, headers });
}

/**
 * `attachment` with the name: quoted ASCII for every client, and the exact
 * name in RFC 8187 (was 5987) encoding when it is not plain ASCII.
 */
export function contentDisposition(name: string): string {
  // Quotes, backslashes and control or non-ASCII characters cannot go in a quoted string.
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (ascii === name) return `attachment; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const SINGLE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/**
 * The one range to send, inclusive: `undefined` for the whole body (no
 * `Range`, a malformed one, several ranges, a GET with `If-Range`, which
 * names a validator this server never sends), or `"unsatisfiable"`.
 */
export function rangeOf(
  request: Request,
  size: number,
): readonly [number, number] | "unsatisfiable" | undefined {
  const header = request.headers.get("range");
  if (header === null || request.headers.has("if-range")) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const match = SINGLE_RANGE.exec(header);
  if (match === null) return undefined;
  const [, first, last] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return "unsatisfiable";
    return [Math.max(0, size - length), size - 1];
  }
  const start = Number(first);
  const end = last === "" ? Infinity : Number(last);
  if (end < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return [start, Math.min(end, size - 1)];
}

/**
 * The stream's bytes, its first chunk read already; a later failure errors
 * the body (the connection closes mid-transfer) and reports a fault once.
 * Pulled one chunk at a time, so a slow client holds back the source.
 */
async function guardedStream(
  source: ReadableStream<Uint8Array>,
  opts: BytesResponseOptions,
): Promise<ReadableStream<Uint8Array>> {
  const reader = source.getReader();
  const chunk = (step: ReadableStreamReadResult<Uint8Array>) => {
    if (!step.done && !(step.value instanceof Uint8Array)) {
      throw new TypeError("A byte stream must give Uint8Array chunks");
    }
    return step;
  };
  let pending: ReadableStreamReadResult<Uint8Array> | undefined;
  try {
    pending = chunk(await reader.read());
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const step = pending ?? chunk(await reader.read());
        pending = undefined;
        if (step.done) controller.close();
        else controller.enqueue(step.value);
      } catch (error) {
        if (failureOf(error, opts.context).kind === "fault") opts.onError(error);
        reader.cancel(error).catch(() => {});
        controller.error(error);
      }
    },
    // The client went away: the source's own `cancel` runs.
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
