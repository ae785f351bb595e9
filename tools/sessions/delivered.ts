// What follows an answer: a session's exchange, or a resource feed held for a
// listen stream, ends when the SSE stream carrying it is delivered or
// abandoned, not when the handler returns it.
//
// Used by the sessions (legacy.ts) and by the MCP server's listen streams
// (tools/server/_resource_side.ts). The answer it makes names its headers in
// lower case, as the MCP server sends every answer: made so here, where a new
// response is made anyway, the server need not copy it again.

/** The responses made here, their header names lower case. */
const lowerCased = new WeakSet<Response>();

/**
 * Whether the response was made by `lowerCaseResponse` (as `untilDelivered`
 * makes its own), its header names in lower case.
 *
 * @example
 * ```ts
 * import { lowerCaseResponse, namesLowerCase } from "./delivered.ts";
 *
 * console.log(namesLowerCase(new Response("hi"))); // false
 * console.log(namesLowerCase(lowerCaseResponse("hi", 200, new Headers()))); // true
 * ```
 */
export function namesLowerCase(response: Response): boolean {
  return lowerCased.has(response);
}

/**
 * A response whose header names are lower case: `headers`' own (iterating a
 * Headers gives them so, each Set-Cookie on its own), or names given so.
 *
 * @example
 * ```ts
 * import { lowerCaseResponse } from "./delivered.ts";
 *
 * const response = lowerCaseResponse("{}", 200, new Headers({ "Content-Type": "application/json" }));
 * console.log(response.headers.get("content-type")); // "application/json"
 * ```
 */
export function lowerCaseResponse(
  body: BodyInit | null,
  status: number,
  headers: Headers | readonly [string, string][],
): Response {
  const response = new Response(body, {
    status,
    headers: headers instanceof Headers ? [...headers] : headers as [string, string][],
  });
  lowerCased.add(response);
  return response;
}

/**
 * The response, whose stream (an SSE answer) calls `end` when it is delivered
 * or abandoned; any other answer calls it at once.
 *
 * @example
 * ```ts
 * import { untilDelivered } from "./delivered.ts";
 *
 * const sse = new Response("data: {}\n\n", { headers: { "Content-Type": "text/event-stream" } });
 * const held = untilDelivered(sse, () => console.log("delivered"));
 * await held.text(); // delivered
 * ```
 */
export function untilDelivered(response: Response, end: () => void): Response {
  if (response.body === null || !response.headers.get("content-type")?.includes("event-stream")) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason).catch(() => {});
    },
  });
  return lowerCaseResponse(body, response.status, response.headers);
}
