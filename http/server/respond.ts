/**
 * A handler's result as a response: a value is 200 JSON, `undefined` is 204, a
 * `Response` passes through, and a streaming operation (or any async iterable
 * result) is Server-Sent Events. Errors become problem+json.
 *
 * Internal: not a public subpath. Used by the HTTP server (dispatch,
 * createFetch), GraphQL over HTTP and the WebSocket upgrade.
 *
 * @module
 */

import { HttpError } from "./problem.ts";
import type { ResponseKind } from "./route.ts";

const JSON_HEADERS = { "content-type": "application/json" } as const;

/** The problem+json response for an {@linkcode HttpError}. */
export function errorResponse(error: HttpError): Response {
  const headers = new Headers(error.headers);
  headers.set("content-type", "application/problem+json");
  return jsonResponse(error.problem, error.status, headers);
}

/** A problem+json response for a status. */
export function problem(status: number, detail?: string, headers?: HeadersInit): Response {
  return errorResponse(new HttpError(status, detail, { headers }));
}

/** Whether a value can be iterated with `for await`. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

/**
 * The response for a successful result. `onStreamError` observes an error
 * thrown while a stream is already under way (its status is sent by then).
 */
export function resultResponse(
  result: unknown,
  kind: ResponseKind,
  onStreamError: (error: unknown) => void,
): Response {
  if (result instanceof Response) return result;
  if (kind === "event-stream" || isAsyncIterable(result)) {
    return eventStream(result, onStreamError);
  }
  if (result === undefined) return new Response(null, { status: 204 });
  return jsonResponse(result, 200, new Headers(JSON_HEADERS));
}

const encoder = new TextEncoder();

/**
 * A JSON body with an explicit Content-Length: a HEAD answer copies these
 * headers without the body, and without it would go out as `content-length: 0`.
 */
function jsonResponse(value: unknown, status: number, headers: Headers): Response {
  const bytes = encoder.encode(toJson(value));
  headers.set("content-length", String(bytes.byteLength));
  return new Response(bytes, { status, headers });
}

/** JSON text; a value JSON cannot hold (a function, a symbol) is a crash, not an empty 200. */
function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`A ${typeof value} result is not JSON`);
  return text;
}

/** One SSE event: the value as JSON on a `data:` line (JSON never holds a raw newline). */
function sseEvent(value: unknown, event?: string): Uint8Array {
  const head = event === undefined ? "" : `event: ${event}\n`;
  return encoder.encode(`${head}data: ${toJson(value ?? null)}\n\n`);
}

function eventStream(result: unknown, onStreamError: (error: unknown) => void): Response {
  const source: AsyncIterable<unknown> = isAsyncIterable(result) ? result : (async function* () {
    yield result;
  })();
  const iterator = source[Symbol.asyncIterator]();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let event: Uint8Array | undefined;
      let failed = false;
      try {
        const step = await iterator.next();
        if (!step.done) event = sseEvent(step.value);
      } catch (error) {
        onStreamError(error);
        failed = true;
        const problemBody = error instanceof HttpError
          ? error.problem
          : { type: "about:blank", title: "Internal Server Error", status: 500 };
        event = sseEvent(problemBody, "error");
      }
      // Cancelled while the iterator was busy: the stream is closed, and
      // enqueueing into it would throw.
      if (cancelled) return;
      if (event !== undefined) controller.enqueue(event);
      if (event === undefined || failed) controller.close();
    },
    // The client went away: close the generator so its `finally` runs.
    async cancel() {
      cancelled = true;
      try {
        await iterator.return?.();
      } catch (error) {
        onStreamError(error);
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
