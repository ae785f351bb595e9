// A bytes result (tree/bytes.ts decides which results are bytes) as one MCP
// content block, by the rule tree/content.ts writes for every part of
// content: `image` or `audio` for those media types, which clients show or
// play, otherwise an embedded resource, its `text` for a text media type and
// else a base64 `blob`. A `File` named with an absolute URI is that resource
// (`test://embedded-resource`); other bytes get `<scheme>://<tool>/result`
// (and `/<name>` for a `File`). MCP has no binary framing: every block is
// base64 in the JSON-RPC message, so the whole body is read first (no limit
// beyond the transport's).

import { byteChunks, type Bytes } from "../../tree/bytes.ts";
import { bytesBlock, type ContentBlock, isUriName, resourceBlock } from "../../tree/content.ts";
import { Cancelled } from "../../tree/failure.ts";

/** The block for a tool's bytes; `scheme` is the server's `resourceScheme`. */
export async function bytesContent(
  bytes: Bytes,
  tool: string,
  signal: AbortSignal | undefined,
  scheme = "ramify",
): Promise<ContentBlock> {
  const data = await readAll(bytes.body, signal);
  const named = isUriName(bytes.name) ? bytes.name : undefined;
  const suffix = bytes.name === undefined ? "" : `/${encodeURIComponent(bytes.name)}`;
  return bytesBlock(data, bytes.type, named) ??
    resourceBlock(data, bytes.type, `${scheme}://${tool}/result${suffix}`);
}

/** The whole body; a cancelled call stops pulling a stream (leaving the loop cancels it). */
export async function readAll(
  body: Blob | ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  const chunks: Uint8Array[] = [];
  for await (const chunk of byteChunks(body)) {
    if (signal?.aborted === true) throw new Cancelled(signal.reason);
    chunks.push(chunk);
  }
  return new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}
