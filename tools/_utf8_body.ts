// An MCP POST's body read as every surface reads a client's bytes (tree/utf8.ts)
// before the SDK sees it: the SDK decodes leniently, so bytes that are not UTF-8
// would reach a tool as U+FFFD where HTTP and GraphQL refuse them.

import { readBodyBytes } from "../http/web/body.ts";
import { utf8Text } from "../tree/utf8.ts";

/** The largest body an MCP POST may carry: the SDK's own bound (4 MiB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A JSON-RPC error answered over HTTP, for no request in particular (`id: null`). */
export function jsonRpcRefusal(
  status: number,
  code: number,
  message: string,
  headers?: HeadersInit,
): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, {
    status,
    headers,
  });
}

/**
 * Why a POST's body is refused before the SDK reads it, or `undefined` to pass
 * the request on as it is: 413 past the SDK's size bound, 400 with a JSON-RPC
 * parse error for bytes that are not UTF-8 or a body that failed to arrive.
 * The body is read from a clone: the request the SDK gets keeps its own body
 * and signal (the per-request protocol closes a call when its signal aborts).
 */
export async function bodyRefusal(request: Request): Promise<Response | undefined> {
  if (request.method !== "POST") return undefined;
  const read = await readBodyBytes(request.clone(), MAX_BODY_BYTES);
  if (!read.ok) {
    await request.body?.cancel().catch(() => {});
    return read.reason === "too-large"
      ? jsonRpcRefusal(
        413,
        -32000,
        `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`,
      )
      : jsonRpcRefusal(400, -32700, "Parse error: the body could not be read");
  }
  if (utf8Text(read.bytes) !== undefined) return undefined;
  await request.body?.cancel().catch(() => {});
  return jsonRpcRefusal(400, -32700, "Parse error: the body is not valid UTF-8");
}
