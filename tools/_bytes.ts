// A bytes result (tree/bytes.ts decides which results are bytes) as one MCP
// content block: `image` or `audio` for those media types, which clients show
// or play, and otherwise an embedded resource holding the bytes as a base64
// `blob`. MCP has no binary framing: every block is base64 in the JSON-RPC
// message, so the whole body is read first (no limit beyond the transport's).

import { byteChunks, type Bytes } from "../tree/bytes.ts";
import { Cancelled } from "../tree/failure.ts";

/** The content block MCP gives bytes. */
export type BytesContent =
  | { readonly type: "image" | "audio"; readonly data: string; readonly mimeType: string }
  | {
    readonly type: "resource";
    readonly resource: { readonly uri: string; readonly mimeType: string; readonly blob: string };
  };

/**
 * The block for a tool's bytes. The resource's URI names the tool and, for a
 * `File`, its name: `ramify://<tool>/result`, `ramify://<tool>/result/<name>`.
 */
export async function bytesContent(
  bytes: Bytes,
  tool: string,
  signal: AbortSignal | undefined,
): Promise<BytesContent> {
  const data = base64(await readAll(bytes.body, signal));
  const kind = bytes.type.split("/")[0].toLowerCase();
  if (kind === "image" || kind === "audio") return { type: kind, data, mimeType: bytes.type };
  const name = bytes.name === undefined ? "" : `/${encodeURIComponent(bytes.name)}`;
  return {
    type: "resource",
    resource: { uri: `ramify://${tool}/result${name}`, mimeType: bytes.type, blob: data },
  };
}

/** The whole body; a cancelled call stops pulling a stream (leaving the loop cancels it). */
async function readAll(
  body: Blob | ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  const chunks: Uint8Array[] = [];
  for await (const chunk of byteChunks(body)) {
    if (signal?.aborted === true) throw new Cancelled(signal.reason);
    chunks.push(chunk);
  }
  const all = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** Chunked, so that a multi-megabyte body never spreads into one call's arguments. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}
