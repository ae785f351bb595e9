// Server-Sent Events as the client reads them: events split on blank lines,
// `data:` lines joined, each event's data parsed as JSON. An `error` event (the
// server's way to fail mid-stream) rejects the iteration. Leaving the loop early
// cancels the body, so the server's generator is closed too.

/** One parsed event. */
export interface ServerEvent {
  readonly event: string;
  readonly data: string;
  /** The event's `id:`, when it has one. */
  readonly id?: string;
}

/** The events of an event-stream body, as they arrive. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  // The DOM types (unlike Deno's) do not accept a TextDecoderStream here.
  const reader = body.pipeThrough(new TextDecoderStream() as TransformStream<Uint8Array, string>)
    .getReader();
  let buffer = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let boundary: RegExpExecArray | null;
      while ((boundary = BLANK_LINE.exec(buffer)) !== null) {
        const block = buffer.slice(0, boundary.index);
        buffer = buffer.slice(boundary.index + boundary[0].length);
        const event = parseBlock(block);
        if (event !== undefined) yield event;
      }
    }
    const last = parseBlock(buffer);
    if (last !== undefined) yield last;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const BLANK_LINE = /\r\n\r\n|\n\n|\r\r/;

function parseBlock(block: string): ServerEvent | undefined {
  let event = "message";
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id") id = value;
  }
  if (data.length === 0) return undefined;
  return id === undefined ? { event, data: data.join("\n") } : { event, data: data.join("\n"), id };
}
