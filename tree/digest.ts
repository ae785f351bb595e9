/**
 * SHA-256 as lower-case hex: how a credential, an identity or a document is
 * kept or named without keeping it (task owners, MCP sessions' owners,
 * idempotency keys, introspection's cache, trusted documents' ids).
 *
 * Internal: not a public subpath. Used by tasks/, tools/, http/server/,
 * auth/, redis/ and graphql/client/.
 *
 * @module
 */

/**
 * The SHA-256 of `data` (text as UTF-8), as 64 lower-case hex digits.
 *
 * @example
 * ```ts
 * import { sha256 } from "./digest.ts";
 *
 * console.log((await sha256("ann")).length); // 64
 * ```
 */
export async function sha256(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
