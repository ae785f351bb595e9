/**
 * A handler's result as a response, by its kind (`resultKindOf`, the rule
 * every surface follows): a value is 200 JSON, `undefined` is 204, a
 * `Response` passes through, bytes are bytes (`bytes.ts`), and a stream (or
 * any result of a streaming operation) is Server-Sent Events; a `reply()` sets
 * its status, headers and cookies, and HEAD gets GET's head alone. Errors
 * become problem+json.
 *
 * Internal: not a public subpath. Used by the HTTP server (createRouter,
 * createFetch), GraphQL over HTTP and the WebSocket upgrade.
 *
 * @module
 */

import type { EdgeSurface } from "./edge.ts";
import { failureResponse, HttpError } from "./problem.ts";
import { classify } from "../tree/failure.ts";
import { bytesOf } from "../tree/bytes.ts";
import { resultKindOf } from "../tree/result_kind.ts";
import { bytesResponse } from "./bytes.ts";
import type { ResponseKind } from "../route/route.ts";
import { eventStream, type EventStreamOptions } from "./sse.ts";
import type { Cookie, Reply } from "../tree/reply.ts";

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
 * REST behind the edge (`applyPolicies`): a policy's refusal is problem+json.
 *
 * @example
 * ```ts
 * import { restEdge } from "./respond.ts";
 *
 * const refused = restEdge.refuse({ status: 429, code: "TOO_MANY_REQUESTS", message: "Slow down" });
 * console.log(refused.status, refused.headers.get("content-type")); // 429 "application/problem+json"
 * ```
 */
export const restEdge: EdgeSurface = {
  name: "http",
  refuse: ({ status, message, headers }) => problem(status, message, headers),
};

/** How a result that is not a plain value is answered: a stream's settings, and bytes'. */
export interface ResultOptions extends EventStreamOptions {
  /** The request: its method and `Range` header. */
  readonly request: Request;
  /** The success status (the leaf's declared one, else 200). */
  readonly status: number;
  /** The one media type the output schema names for bytes without their own. */
  readonly mediaType: string | undefined;
}

/**
 * The response for a successful result: bytes are their bytes (see
 * `bytes.ts`), a stream becomes Server-Sent Events (see `sse.ts`); either
 * rejects with what its source threw before the first chunk or item, for the
 * caller to classify and answer.
 */
export function resultResponse(
  result: unknown,
  kind: ResponseKind,
  opts: ResultOptions,
): Response | Promise<Response> {
  switch (resultKindOf(result)) {
    case "response":
      return result as Response;
    case "bytes":
      return bytesResponse(bytesOf(result, opts.mediaType), opts);
    case "stream":
      return eventStream(result as AsyncIterable<unknown>, opts);
    case "reply":
      return replied(result as Reply<unknown>, opts);
  }
  if (kind === "event-stream") {
    return eventStream(
      (async function* () {
        yield result;
      })(),
      opts,
    );
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
  return withReply(valueResponse(answer.value, answer.status ?? declared), answer);
}

/** A `reply()`: bytes as bytes, any other value as `replyResponse` answers it. */
function replied(answer: Reply<unknown>, opts: ResultOptions): Response | Promise<Response> {
  if (resultKindOf(answer.value) !== "bytes") return replyResponse(answer, opts.status);
  return bytesResponse(bytesOf(answer.value, opts.mediaType), {
    ...opts,
    status: answer.status ?? opts.status,
  }).then((response) => response.ok ? withReply(response, answer) : response);
}

/** A `reply()`'s headers (over the response's own) and cookies on a response. */
function withReply(response: Response, answer: Reply<unknown>): Response {
  for (const [name, value] of answer.headers) response.headers.set(name, value);
  for (const cookie of answer.cookies) {
    response.headers.append("set-cookie", setCookieValue(cookie));
  }
  return response;
}

/**
 * A checked cookie (a `reply()`'s, checked when the reply was made) as a
 * `Set-Cookie` header value.
 *
 * @example
 * ```ts
 * import { setCookieValue } from "@ramify/api/http";
 *
 * console.log(setCookieValue({ name: "sid", value: "a b", httpOnly: true })); // "sid=a%20b; HttpOnly"
 * ```
 */
export function setCookieValue(cookie: Cookie): string {
  const parts = [`${cookie.name}=${encodeURIComponent(cookie.value)}`];
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`);
  if (cookie.expires !== undefined) parts.push(`Expires=${cookie.expires.toUTCString()}`);
  if (cookie.domain !== undefined) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path !== undefined) parts.push(`Path=${cookie.path}`);
  if (cookie.secure === true) parts.push("Secure");
  if (cookie.httpOnly === true) parts.push("HttpOnly");
  if (cookie.sameSite !== undefined) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join("; ");
}

/**
 * The answer to HEAD: GET's status and headers without the body, and the
 * body's length as `Content-Length` where it has one: a length already known
 * is kept, a JSON or text body is counted, and a stream (events, bytes of
 * unknown length) is not read at all.
 */
export async function headOf(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  const type = response.headers.get("content-type") ?? "";
  if (!headers.has("content-length") && COUNTED.test(type)) {
    headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  } else {
    await response.body?.cancel();
  }
  return new Response(null, { status: response.status, headers });
}

// Bodies made whole in memory, cheap to count: JSON, problems and text (not events).
const COUNTED = /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream))/i;
