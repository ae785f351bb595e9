// A 2026-07-28 `tools/call` is answered by the SDK as an SSE stream from the
// start (`responseMode: "sse"`): Deno learns of a client gone only once the
// response has begun, and a call running on must see its client leave. A call
// that answers at once needs no stream: its one message goes back as JSON, as
// the SDK's own default answers it, which a client reads for less (no event
// parsing). What the call sends within a moment decides: its answer alone is
// JSON; progress before it, or nothing yet, is the stream, begun then.

import { lowerCaseResponse } from "../sessions/delivered.ts";

/** How long a call may take and still be answered as JSON: past it, the stream begins. */
const JSON_WITHIN_MS = 5;

const MESSAGE = "event: message\ndata: ";
const decoder = new TextDecoder();

/**
 * The SDK's SSE answer to a call as JSON when the call's answer is all it
 * holds within `withinMs`; else the same stream, begun at once.
 *
 * @example
 * ```ts
 * import { answeredSoon } from "./_call_answer.ts";
 *
 * const sse = new Response('event: message\ndata: {"id":1}\n\n', {
 *   headers: { "content-type": "text/event-stream" },
 * });
 * const answer = await answeredSoon(sse, 5);
 * console.log(answer.headers.get("content-type"), await answer.text()); // application/json {"id":1}
 * ```
 */
export async function answeredSoon(
  response: Response,
  withinMs: number = JSON_WITHIN_MS,
): Promise<Response> {
  const body = response.body;
  if (body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return response;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(resolve, withinMs, "late"));
  try {
    for (;;) {
      const read = reader.read();
      const step = await Promise.race([read, late]);
      if (step === "late") return streamed(response, chunks, read, reader);
      if (step.done) break;
      chunks.push(step.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const json = chunks.length === 1 ? messageOf(chunks[0]) : undefined;
  return json === undefined
    ? lowerCaseResponse(
      new Blob(chunks as Uint8Array<ArrayBuffer>[]),
      response.status,
      response.headers,
    )
    : lowerCaseResponse(json, statusOf(json), [["content-type", "application/json"]]);
}

/**
 * A handler's error goes back in-band, 200, but for `-32021`: the 2026
 * revision sets 400 on that error itself, as the SDK's JSON answers do (one
 * past the stream's start keeps the stream's 200).
 */
function statusOf(json: string): number {
  if (!json.includes('"code":-32021')) return 200;
  try {
    return JSON.parse(json)?.error?.code === -32021 ? 400 : 200;
  } catch {
    return 200;
  }
}

/** The one message an SSE frame carries, or undefined for any other frame. */
function messageOf(chunk: Uint8Array): string | undefined {
  const frame = decoder.decode(chunk);
  if (!frame.startsWith(MESSAGE) || !frame.endsWith("\n\n")) return undefined;
  const data = frame.slice(MESSAGE.length, -2);
  return data.includes("\n") ? undefined : data;
}

/** The stream as the SDK began it: what was read, the read under way, then the rest. */
function streamed(
  response: Response,
  chunks: Uint8Array[],
  pending: Promise<ReadableStreamReadResult<Uint8Array>>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Response {
  let next: Promise<ReadableStreamReadResult<Uint8Array>> | undefined = pending;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const read = next ?? reader.read();
      next = undefined;
      try {
        const { done, value } = await read;
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason).catch(() => {});
    },
  });
  return lowerCaseResponse(body, response.status, response.headers);
}
