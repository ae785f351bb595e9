// A call answered as an SSE stream when it runs on: Deno learns of a client
// gone only once the response has begun, and a call running on must see its
// client leave. A call that answers at once needs no stream: its one message
// goes back as JSON, which a client reads for less (no event parsing), and
// there is nothing to resume. What the call sends within a moment decides.
//
// A 2026-07-28 `tools/call` is the SDK's own answer when it comes within the
// moment (JSON, or the stream its progress began), else a stream begun then
// that carries it (streamedIfLate). A 2025-era session's call with resumable
// streams is the SDK's stream from the start (a priming event first, each
// message with its event id), read back as JSON when its answer is all it
// holds within the moment (answeredSoon).
//
// Used by the sessions (legacy.ts) and by the MCP server (tools/server/mcp.ts).

/** How long a call may take and still be answered as JSON: past it, the stream begins. */
const JSON_WITHIN_MS = 5;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The SDK's SSE answer to a call as JSON when the call's answer is all it
 * holds within `withinMs`; else the same stream, begun at once.
 *
 * @example
 * ```ts
 * import { answeredSoon } from "./call_answer.ts";
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
  if (body === null || !isStream(response)) return response;
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
  const json = answerOf(chunks);
  return json === undefined
    ? new Response(new Blob(chunks as Uint8Array<ArrayBuffer>[]), response)
    : new Response(json, {
      status: statusOf(json),
      headers: { "content-type": "application/json" },
    });
}

/**
 * The SDK's answer as it comes when it comes within `withinMs`; else an SSE
 * stream begun at once, which carries the answer (its stream as it is, or its
 * JSON as one `message` event) when it comes.
 *
 * @example
 * ```ts
 * import { streamedIfLate } from "./call_answer.ts";
 *
 * const late = new Promise<Response>((resolve) =>
 *   setTimeout(() => resolve(Response.json({ id: 1 })), 20)
 * );
 * const answer = await streamedIfLate(late, 5);
 * console.log(answer.headers.get("content-type"), await answer.text());
 * // text/event-stream event: message\ndata: {"id":1}\n\n
 * ```
 */
export async function streamedIfLate(
  answer: Promise<Response>,
  withinMs: number = JSON_WITHIN_MS,
): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) =>
    timer = setTimeout(resolve, withinMs, undefined)
  );
  const soon = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
  if (soon !== undefined) return soon;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void answer.then(async (response) => {
    if (response.body === null || isStream(response)) {
      return await (response.body?.pipeTo(writable) ?? writable.close());
    }
    const writer = writable.getWriter();
    await writer.write(encoder.encode(`event: message\ndata: ${await response.text()}\n\n`));
    await writer.close();
  }).catch((error) => writable.abort(error).catch(() => {}));
  return new Response(readable, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" },
  });
}

function isStream(response: Response): boolean {
  return response.headers.get("content-type")?.startsWith("text/event-stream") === true;
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

/**
 * The one message the frames carry, after a priming event if there is one
 * (`id`, perhaps `retry`, empty `data`); undefined for anything else.
 */
function answerOf(chunks: readonly Uint8Array[]): string | undefined {
  if (chunks.length === 0 || chunks.length > 2) return undefined;
  // Decoded as one text: a character split between the two chunks is whole again.
  const text = chunks.map((chunk, at) => decoder.decode(chunk, { stream: at < chunks.length - 1 }));
  const frames = text.join("").split("\n\n");
  // Each frame ends with a blank line: the text ends with one, which split leaves as "".
  if (frames.pop() !== "") return undefined;
  if (frames.length === 2 && !isPriming(frames[0])) return undefined;
  return frames.length === 1 || frames.length === 2 ? messageOf(frames.at(-1)!) : undefined;
}

/** A frame of `id:` (and `retry:`) with empty data, which carries no message. */
function isPriming(frame: string): boolean {
  return frame.split("\n").every((line) =>
    line.startsWith("id: ") || line.startsWith("retry: ") || line === "data: "
  );
}

/** The data of a `message` event of one data line, or undefined. */
function messageOf(frame: string): string | undefined {
  let message = false;
  let data: string | undefined;
  for (const line of frame.split("\n")) {
    if (line === "event: message") message = true;
    else if (line.startsWith("data: ") && data === undefined) data = line.slice(6);
    else if (!line.startsWith("id: ")) return undefined;
  }
  return message ? data : undefined;
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
  return new Response(body, response);
}
