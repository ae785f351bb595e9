// What follows an answer: a session's exchange, or a resource feed held for a
// listen stream, ends when the SSE stream carrying it is delivered or
// abandoned, not when the handler returns it.
//
// Used by the sessions (legacy.ts) and by the MCP server's listen streams
// (tools/server/_resource_side.ts).

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
  return new Response(body, { status: response.status, headers: response.headers });
}
