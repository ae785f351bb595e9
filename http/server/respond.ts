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
import { isAsyncIterable } from "../../tree/object.ts";
import type { ResponseKind } from "./route.ts";
import { eventStream, type EventStreamOptions } from "./sse.ts";

/** The problem+json response for an {@linkcode HttpError}. */
export function errorResponse(error: HttpError): Response {
  const headers = new Headers(error.headers);
  headers.set("content-type", "application/problem+json");
  return Response.json(error.problem, { status: error.status, headers });
}

/** A problem+json response for a status. */
export function problem(
  status: number,
  detail?: string,
  headers?: ConstructorParameters<typeof Headers>[0],
): Response {
  return errorResponse(new HttpError(status, detail, { headers }));
}

/**
 * The response for a successful result: a stream becomes Server-Sent Events
 * (see `sse.ts`), which may still answer with an `HttpError`'s status or reject
 * with a crash when its source fails before the first item.
 */
export function resultResponse(
  result: unknown,
  kind: ResponseKind,
  stream: EventStreamOptions,
): Response | Promise<Response> {
  if (result instanceof Response) return result;
  if (kind === "event-stream" || isAsyncIterable(result)) {
    const source: AsyncIterable<unknown> = isAsyncIterable(result) ? result : (async function* () {
      yield result;
    })();
    return eventStream(source, stream, errorResponse);
  }
  if (result === undefined) return new Response(null, { status: 204 });
  // The runtime's own JSON response: several times cheaper than building the
  // bytes and headers here (it throws a TypeError for a value with no JSON form).
  return Response.json(result);
}
