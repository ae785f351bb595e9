// An MCP POST's body read before the SDK sees it, under the rules every surface
// keeps: UTF-8 as tree/utf8.ts reads it (the SDK decodes leniently, so bytes
// that are not UTF-8 would reach a tool as U+FFFD where HTTP and GraphQL refuse
// them), a size bound (`maxBodyBytes`, as REST's and GraphQL's) and a
// deadline; and the JSON-RPC errors that refuse it. The body is parsed here,
// once, and every later step (the era's routing, the SDK, the param headers'
// check, a listen's URIs) reads that value.

import { MAX_BODY_BYTES, readBodyBytes } from "../../web/body.ts";
import { utf8Text } from "../../tree/utf8.ts";
import { jsonRpcRefusal } from "../sessions/refusal.ts";

/**
 * The body bound of `createMcpHandler` (`maxBodyBytes`), checked when the
 * handler is made: a positive integer, by default `MAX_BODY_BYTES` (1 MiB, as
 * on REST and GraphQL: web/body.ts).
 *
 * @example
 * ```ts
 * import { bodyLimitOf } from "./_request_body.ts";
 *
 * console.log(bodyLimitOf(undefined), bodyLimitOf(4096)); // 1048576 4096
 * ```
 *
 * @throws {RangeError} for anything but a positive integer.
 */
export function bodyLimitOf(maxBodyBytes: number | undefined): number {
  if (maxBodyBytes === undefined) return MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new RangeError(`MCP: maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  }
  return maxBodyBytes;
}

/**
 * A request whose body passed the checks: `parsed` is the body's JSON, read
 * once here and handed to the SDK as it is (a body that is not JSON, or a
 * request without one, has none: the SDK answers for it from the request).
 *
 * @example
 * ```ts
 * import type { CheckedRequest } from "./_request_body.ts";
 *
 * const get: CheckedRequest = { request: new Request("http://localhost/mcp") };
 * ```
 */
export interface CheckedRequest {
  readonly request: Request;
  readonly parsed?: unknown;
}

/**
 * The request with its body checked and parsed, or why it is refused before
 * the SDK sees it: 413 past `maxBytes` (declared or counted as it arrives),
 * 408 for a body slower than `timeoutMs`, 400 with a JSON-RPC parse error for
 * bytes that are not UTF-8 or a body that failed to arrive. A POST is read
 * here, once: its JSON goes on beside the request (whose body is then used),
 * and only a body that is not JSON is handed on in a new request holding the
 * same bytes and following the first one's signal (the per-request protocol
 * closes a call when it aborts), for the SDK's own answer to it. Other methods
 * pass as they are. Not read from a clone: a clone's body is a tee, whose
 * branches cannot be cancelled one without the other.
 *
 * @example
 * ```ts
 * import { checkedRequest } from "./_request_body.ts";
 *
 * const post = new Request("http://localhost/mcp", { method: "POST", body: "x".repeat(2048) });
 * console.log(((await checkedRequest(post, 1024, 30_000)) as Response).status); // 413
 * const ping = new Request("http://localhost/mcp", { method: "POST", body: '{"id":1}' });
 * console.log(((await checkedRequest(ping, 1024, 30_000)) as { parsed: unknown }).parsed); // { id: 1 }
 * ```
 */
export async function checkedRequest(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<CheckedRequest | Response> {
  if (request.method !== "POST") return { request };
  const read = await readBodyBytes(request, maxBytes, timeoutMs);
  if (!read.ok) {
    switch (read.reason) {
      case "too-large":
        return jsonRpcRefusal(
          413,
          -32000,
          `Payload Too Large: Request body must not exceed ${maxBytes} bytes`,
        );
      case "too-slow":
        return jsonRpcRefusal(
          408,
          -32000,
          `Request Timeout: the body did not arrive within ${timeoutMs} ms`,
        );
      case "unreadable":
        return jsonRpcRefusal(400, -32700, "Parse error: the body could not be read");
    }
  }
  const text = utf8Text(read.bytes);
  if (text === undefined) {
    return jsonRpcRefusal(400, -32700, "Parse error: the body is not valid UTF-8");
  }
  try {
    // Read now, while it can be: Deno's server forgets a request's URL once it is answered, and
    // the request goes on to the tools' context and `onError`, which may read it later.
    void request.url;
    // An empty body is no JSON to the SDK either.
    if (text !== "") return { request, parsed: JSON.parse(text) };
  } catch {
    // The SDK answers it, as for any request: from the bytes.
  }
  return {
    request: new Request(request.url, {
      method: "POST",
      headers: request.headers,
      body: read.bytes as Uint8Array<ArrayBuffer>,
      signal: request.signal,
    }),
  };
}
