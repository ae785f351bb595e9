/**
 * Whether an operation takes an `Idempotency-Key` header: the one reading of
 * `meta.http.idempotencyKey`, checked, for the router (which keeps the
 * answers), the OpenAPI document (which names the header) and the client
 * manifest (from which the `retry` extension sends a key and retries).
 *
 * A key makes retrying safe where the method is not: a leaf tagged
 * `idempotent` or `readOnly` (so `PUT`, `DELETE`, `GET`) is safe to repeat
 * already and needs none, and a stream's answer is not one to keep; both are
 * refused, as is any value but `"optional"` and `"required"`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection, idempotencyKeyOf } from "@ramify/api/http/dx";
 *
 * const route = httpProjection(api({
 *   pay: op(() => "paid", http.post, { http: { idempotencyKey: "required" } }),
 * }));
 * console.log(idempotencyKeyOf(route.children.pay.methods.POST!)); // "required"
 * ```
 *
 * @module
 */

import type { HttpOperation } from "./route.ts";

/**
 * Whether a leaf takes an `Idempotency-Key` header, and must have one
 * (`meta.http.idempotencyKey`).
 *
 * @example
 * ```ts
 * import type { IdempotencyKeyMode } from "@ramify/api/http/dx";
 *
 * const mode: IdempotencyKeyMode = "required";
 * ```
 */
export type IdempotencyKeyMode = "optional" | "required";

/**
 * How the operation takes an `Idempotency-Key` (`undefined`: it does not).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection, idempotencyKeyOf } from "@ramify/api/http/dx";
 *
 * const route = httpProjection(api({ ping: op(() => "pong", http.post) }));
 * console.log(idempotencyKeyOf(route.children.ping.methods.POST!)); // undefined
 * ```
 *
 * @throws {TypeError} when `meta.http.idempotencyKey` is neither `"optional"`
 * nor `"required"`, or the leaf is idempotent, read-only or streaming.
 */
export function idempotencyKeyOf(operation: HttpOperation): IdempotencyKeyMode | undefined {
  const mode = operation.node.meta?.http?.idempotencyKey;
  if (mode === undefined) return undefined;
  const where = `${operation.method} ${operation.path}: meta.http.idempotencyKey`;
  if (mode !== "optional" && mode !== "required") {
    throw new TypeError(`${where} must be "optional" or "required", got ${String(mode)}`);
  }
  const { tags } = operation;
  if (tags.idempotent === true || tags.readOnly === true || SAFE.has(operation.method)) {
    const why = tags.readOnly === true
      ? "tagged readOnly"
      : tags.idempotent === true
      ? "tagged idempotent"
      : operation.method;
    throw new TypeError(
      `${where}: the leaf is safe to repeat already (${why}), so a retry needs no key; take it off`,
    );
  }
  if (operation.response === "event-stream" || tags.streaming === true) {
    throw new TypeError(
      `${where}: a stream's answer cannot be kept and replayed; take the key off`,
    );
  }
  return mode;
}

/** Methods safe by definition, whatever the tags say. */
const SAFE: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
