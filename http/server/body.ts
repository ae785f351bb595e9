/**
 * A request body as bytes within a size limit: the declared Content-Length is
 * checked first (nothing is read when it is over), then the stream is counted
 * as it arrives, since a chunked body declares nothing. Shared by the HTTP
 * surface and the GraphQL server, each turning a refusal into its own error.
 *
 * Internal: not a public subpath. Used by the HTTP server's request reading and
 * GraphQL over HTTP.
 *
 * @module
 */

/** The body's bytes, or why there are none. */
export type BodyBytes =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "too-large" | "unreadable" | "too-slow" };

/**
 * Reads a request's body (empty when it has none), refusing more than
 * `maxBytes`, and giving up when the whole body has not arrived within
 * `timeoutMs` (a client dribbling a byte a second holds nothing for long).
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  timeoutMs = Infinity,
): Promise<BodyBytes> {
  const body = request.body;
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await body.cancel().catch(() => {});
    return { ok: false, reason: "too-large" };
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let late = false;
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
      late = true;
      reader.cancel().catch(() => {});
    }, timeoutMs)
    : undefined;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (late) return { ok: false, reason: "too-slow" };
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: late ? "too-slow" : "unreadable" };
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
