/**
 * A handler's result as a response: a value is 200 JSON, `undefined` is 204, a
 * `Response` passes through, and a streaming operation (or any async iterable
 * result) is Server-Sent Events; a `reply()` sets its status, headers and
 * cookies, and HEAD gets GET's head alone. Errors become problem+json.
 *
 * Internal: not a public subpath. Used by the HTTP server (createRouter,
 * createFetch), GraphQL over HTTP and the WebSocket upgrade.
 *
 * @module
 */

import { failureResponse, HttpError } from "./problem.ts";
import { classify } from "../../tree/failure.ts";
import { isAsyncIterable } from "../../tree/plain_data.ts";
import type { ResponseKind } from "../route/route.ts";
import { eventStream, type EventStreamOptions } from "./sse.ts";
import { type Reply, setCookieValue } from "../../tree/reply.ts";

/** The problem+json response for an {@linkcode HttpError}: its failure, rendered as any other. */
export function errorResponse(error: HttpError): Response {
  return failureResponse(classify(error));
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
 * (see `sse.ts`), which rejects with what its source threw before the first
 * item, for the caller to classify and answer.
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
    return eventStream(source, stream);
  }
  if (result === undefined) return new Response(null, { status: 204 });
  // The runtime's own JSON response: several times cheaper than building the
  // bytes and headers here (it throws a TypeError for a value with no JSON form).
  return Response.json(result);
}

// Named here so that it goes out in lower case, as every other header: given
// an init, Deno's Response.json adds it as "Content-Type".
const JSON_TYPE = { "content-type": "application/json" } as const;

/** A value with a declared success status: no body when there is no value. */
export function valueResponse(value: unknown, status: number): Response {
  return value === undefined
    ? new Response(null, { status: status === 200 ? 204 : status })
    : Response.json(value, { status, headers: JSON_TYPE });
}

/** A `reply()`: its status (else the declared one), headers and cookies around its value. */
export function replyResponse(answer: Reply<unknown>, declared: number): Response {
  const response = valueResponse(answer.value, answer.status ?? declared);
  for (const [name, value] of answer.headers) response.headers.set(name, value);
  for (const cookie of answer.cookies) {
    response.headers.append("set-cookie", setCookieValue(cookie));
  }
  return response;
}

/**
 * The answer to HEAD: GET's status and headers without the body, and the
 * body's length as `Content-Length` where it has one (not a stream).
 */
export async function headOf(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.headers.get("content-type")?.startsWith("text/event-stream") !== false) {
    await response.body?.cancel();
  } else {
    headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  }
  return new Response(null, { status: response.status, headers });
}
