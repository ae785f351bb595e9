/**
 * The one rule for what kind of result a value is. Every surface answers a
 * handler's result by its kind, and asks this function rather than testing
 * classes itself, so that HTTP, GraphQL, MCP and the command line cannot
 * disagree on, say, whether a `ReadableStream` is bytes or a stream (bytes:
 * it is asked first) or whether an object literal with `[Symbol.asyncIterator]`
 * is a stream (it is).
 *
 * @example
 * ```ts
 * import { reply } from "@ramify/api/tree";
 * import { resultKindOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(resultKindOf({ id: 1 }), resultKindOf(new Blob(["a"]))); // "value" "bytes"
 * console.log(resultKindOf(reply(1, { status: 201 })), resultKindOf(undefined)); // "reply" "none"
 * ```
 *
 * @module
 */

import { Reply } from "./reply.ts";
import { isBytes } from "./bytes.ts";
import { isAsyncIterable } from "./plain_data.ts";

/**
 * What kind of result a value is:
 *
 * - `value`: a JSON value (a `content()` value too: its blocks are JSON to
 *   every surface but MCP, whose word it is);
 * - `none`: `undefined`, no value (HTTP answers 204);
 * - `bytes`: a `Blob` or `File`, an `ArrayBuffer`, a typed array or
 *   `DataView`, or a `ReadableStream`;
 * - `stream`: any other async iterable, items one by one;
 * - `reply`: a `reply()` around a value of its own kind (HTTP sets its status,
 *   headers and cookies; the other surfaces never see one);
 * - `response`: a web `Response`, which HTTP sends as it is.
 *
 * @example
 * ```ts
 * import type { ResultKind } from "@ramify/api/tree/catalogue";
 *
 * const sendsJson = (kind: ResultKind) => kind === "value" || kind === "none";
 * ```
 */
export type ResultKind = "value" | "none" | "bytes" | "stream" | "reply" | "response";

/**
 * The kind of a handler's result (settled: not a promise).
 *
 * @example
 * ```ts
 * import { resultKindOf } from "@ramify/api/tree/catalogue";
 *
 * async function* ticks() {
 *   yield 1;
 * }
 * console.log(resultKindOf(ticks()), resultKindOf(new ReadableStream())); // "stream" "bytes"
 * console.log(resultKindOf(new Response("hi")), resultKindOf([1, 2])); // "response" "value"
 * ```
 */
export function resultKindOf(value: unknown): ResultKind {
  if (typeof value !== "object" || value === null) return value === undefined ? "none" : "value";
  // The common result, a plain object or array, is told apart at once: only
  // an object literal with `[Symbol.asyncIterator]` is anything but a value.
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) return "value";
  if (prototype === Object.prototype) return isAsyncIterable(value) ? "stream" : "value";
  if (value instanceof Reply) return "reply";
  if (typeof Response === "function" && value instanceof Response) return "response";
  // Before streams: a `ReadableStream` is async iterable too, and is bytes.
  if (isBytes(value)) return "bytes";
  return isAsyncIterable(value) ? "stream" : "value";
}
