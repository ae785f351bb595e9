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
 * Whether `untilDelivered` made the response, its header names in lower case.
 *
 * @example
 * ```ts
 * import { namesLowerCase } from "./delivered.ts";
 *
 * console.log(namesLowerCase(new Response("hi"))); // false
 * ```
 */
export function namesLowerCase(response: Response): boolean {
  return lowerCased.has(response);
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
  // Iterating a Headers gives lower-case names (each Set-Cookie on its own).
  const delivered = new Response(body, { status: response.status, headers: [...response.headers] });
  lowerCased.add(delivered);
  return delivered;
}
