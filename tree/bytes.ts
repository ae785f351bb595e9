/**
 * Values that are bytes, not JSON: which results are bytes, and how a surface
 * reads them, decided once for every surface. A handler may return a `Blob`
 * (a `File` keeps its name), a `Uint8Array` or any other view, an
 * `ArrayBuffer`, or a `ReadableStream` of bytes; no output schema is needed.
 * An output schema whose JSON Schema is `format: "binary"` (zod's `z.file()`,
 * `.mime()` naming its media types) declares a binary result, so documents and
 * projections know it before any call.
 *
 * A `ReadableStream` is async iterable too: every check for a stream of items
 * asks `isBytes` first, so bytes never become a stream of events.
 *
 * @example
 * ```ts
 * import { bytesOf, isBytes } from "@ramify/api/tree/catalogue";
 *
 * const png = new File([new Uint8Array([137, 80, 78, 71])], "dot.png", { type: "image/png" });
 * console.log(isBytes(png), isBytes({ id: 1 })); // true false
 * const { type, size, name } = bytesOf(png);
 * console.log(type, size, name); // "image/png" 4 "dot.png"
 * ```
 *
 * @module
 */

import type { JsonSchema } from "./schema.ts";
import { mediaTypeEssence } from "./media_type.ts";

/** The media type of bytes that say nothing of their kind. */
export const OCTET_STREAM = "application/octet-stream";

/**
 * Bytes as every surface reads them: a body (a `Blob`, whose size is known and
 * which can be sliced for a range, or a stream), its media type, its size when
 * known, and a `File`'s name.
 *
 * @example
 * ```ts
 * import type { Bytes } from "@ramify/api/tree";
 *
 * const empty: Bytes = { body: new Blob([]), type: "text/plain", size: 0, name: undefined };
 * ```
 */
export interface Bytes {
  /** The bytes: a `Blob` (buffers become one) or a `ReadableStream`. */
  readonly body: Blob | ReadableStream<Uint8Array>;
  /** The value's own media type, else the declared one, else `application/octet-stream`. */
  readonly type: string;
  /** The length in bytes when known (a `Blob`, a buffer); `undefined` for a stream. */
  readonly size: number | undefined;
  /** A `File`'s name, for `Content-Disposition` and the like. */
  readonly name: string | undefined;
}

/**
 * Whether a result is bytes: a `Blob` or `File`, an `ArrayBuffer`, a typed
 * array or `DataView`, or a `ReadableStream`.
 *
 * @example
 * ```ts
 * import { isBytes } from "@ramify/api/tree/catalogue";
 *
 * console.log(isBytes(new Uint8Array(2)), isBytes(new ReadableStream()), isBytes("text")); // true true false
 * ```
 */
export function isBytes(
  value: unknown,
): value is Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> {
  return typeof value === "object" && value !== null &&
    (value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value) ||
      value instanceof ReadableStream);
}

/**
 * Reads a bytes result: its body, media type (its own, else `declaredType`,
 * else `application/octet-stream`), size and name. Buffers are copied into a
 * `Blob`, so a handler may reuse its buffer once it has returned.
 *
 * @example
 * ```ts
 * import { bytesOf } from "@ramify/api/tree/catalogue";
 *
 * const bytes = bytesOf(new Uint8Array([1, 2, 3]), "image/png");
 * console.log(bytes.type, bytes.size); // "image/png" 3
 * ```
 *
 * @throws {TypeError} when the value is not bytes (see {@linkcode isBytes}).
 */
export function bytesOf(value: unknown, declaredType?: string): Bytes {
  if (value instanceof Blob) {
    return {
      body: value,
      type: value.type !== "" ? value.type : declaredType ?? OCTET_STREAM,
      size: value.size,
      name: value instanceof File && value.name !== "" ? value.name : undefined,
    };
  }
  if (value instanceof ReadableStream) {
    return { body: value, type: declaredType ?? OCTET_STREAM, size: undefined, name: undefined };
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const view = value instanceof ArrayBuffer
      ? new Uint8Array(value)
      : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    const type = declaredType ?? OCTET_STREAM;
    return {
      body: new Blob([view.slice()], { type }),
      type,
      size: view.byteLength,
      name: undefined,
    };
  }
  throw new TypeError("Not bytes: a Blob, File, ArrayBuffer, typed array or ReadableStream");
}

/**
 * A file as every schema reads one: a `Blob` becomes a `File` (no name) and a
 * file's media type is its essence (`text/plain;charset=utf-8` is
 * `text/plain`), so that zod's `z.file()` takes a `Blob` and `.mime()` takes
 * the type whatever parameters or case a runtime wrote. The same object when
 * it is one already; the bytes are not copied. Internal: files read from a
 * multipart body, and bytes an output schema checks, go through it.
 *
 * @example
 * ```ts
 * import { asFile } from "./bytes.ts";
 *
 * const file = asFile(new Blob(["hi"], { type: "text/plain;charset=utf-8" }));
 * console.log(file instanceof File, file.type, file.size); // true "text/plain" 2
 * ```
 */
export function asFile(blob: Blob): File {
  const type = mediaTypeEssence(blob.type);
  if (blob instanceof File && blob.type === type) return blob;
  return blob instanceof File
    ? new File([blob], blob.name, { type, lastModified: blob.lastModified })
    : new File([blob], "", { type });
}

/**
 * An output check that reads bytes as {@linkcode asFile} does: a `Blob` (or a
 * file typed with parameters) is checked as that file, and when the check
 * passes it on unchanged the handler's own value goes on, its media type
 * whole. Any other value is checked as it is. Internal: the call path's
 * output check.
 *
 * @example
 * ```ts
 * import { checkingBytes } from "./bytes.ts";
 *
 * const onlyFiles = checkingBytes((value) => {
 *   if (!(value instanceof File)) throw new TypeError("not a file");
 *   return value;
 * });
 * const blob = new Blob(["hi"]);
 * console.log(onlyFiles(blob) === blob); // true
 * ```
 */
export function checkingBytes(check: (value: unknown) => unknown): (value: unknown) => unknown {
  return (value) => {
    if (!(value instanceof Blob)) return check(value);
    const file = asFile(value);
    const checked = check(file);
    return checked instanceof Promise
      ? checked.then((settled) => settled === file ? value : settled)
      : checked === file
      ? value
      : checked;
  };
}

/**
 * What an output schema declares of a binary result: `undefined` when its JSON
 * Schema is no binary string, else the media types it names (none: any).
 *
 * @example
 * ```ts
 * import { declaredBytes } from "@ramify/api/tree/catalogue";
 *
 * console.log(declaredBytes({ type: "string", format: "binary", contentMediaType: "image/png" }));
 * // { types: ["image/png"] }
 * console.log(declaredBytes({ type: "string" })); // undefined
 * ```
 */
export function declaredBytes(
  schema: JsonSchema | undefined,
): { readonly types: readonly string[] } | undefined {
  if (schema === undefined || schema.type !== "string" || schema.format !== "binary") {
    return undefined;
  }
  const types = new Set<string>();
  const own = schema.contentMediaType;
  if (typeof own === "string") types.add(own);
  for (const member of [schema.anyOf, schema.oneOf].flat()) {
    const type = (member as JsonSchema | undefined)?.contentMediaType;
    if (typeof type === "string") types.add(type);
  }
  return { types: [...types] };
}

/**
 * The media type a declaration gives bytes that carry none of their own (a
 * buffer, a stream): the one it names, or `undefined` when it names none or
 * several. Internal: the HTTP router and the MCP server read it.
 *
 * @example
 * ```ts
 * import { soleMediaType } from "./bytes.ts";
 *
 * console.log(soleMediaType({ types: ["image/png"] })); // "image/png"
 * console.log(soleMediaType({ types: ["image/png", "image/jpeg"] })); // undefined
 * ```
 */
export function soleMediaType(
  declared: { readonly types: readonly string[] } | undefined,
): string | undefined {
  return declared?.types.length === 1 ? declared.types[0] : undefined;
}

/**
 * A `Response` a handler returned, read as bytes where its media type is not
 * text (or is missing), else `undefined`: HTTP passes a `Response` on as it
 * is, and the surfaces that are not HTTP (MCP, the command line) treat it as a
 * `Blob` of that type would be. Text (`text/*`, JSON and XML, `+json` and
 * `+xml` included, JavaScript, form-urlencoded) is shown as it is. Internal:
 * the MCP server and the command line read a `Response` through it.
 *
 * @example
 * ```ts
 * import { responseBytes } from "./bytes.ts";
 *
 * const png = new Response(new Uint8Array([137]), { headers: { "content-type": "image/png" } });
 * console.log(responseBytes(png)?.type, responseBytes(new Response("words"))); // "image/png" undefined
 * ```
 */
export function responseBytes(response: Response, declaredType?: string): Bytes | undefined {
  const type = response.headers.get("content-type") ?? "";
  if (response.body === null || isTextType(type)) return undefined;
  return bytesOf(response.body, type === "" ? declaredType : type);
}

/**
 * Whether a media type is text a person or program reads as it is: `text/*`,
 * JSON and XML (`+json` and `+xml` included), JavaScript, form-urlencoded.
 * Internal: a `Response` and an embedded resource are read through it.
 *
 * @example
 * ```ts
 * import { isTextType } from "./bytes.ts";
 *
 * console.log(isTextType("application/ld+json"), isTextType("image/png")); // true false
 * ```
 */
export function isTextType(type: string): boolean {
  const essence = mediaTypeEssence(type);
  return essence.startsWith("text/") || /[/+](json|xml)$/.test(essence) ||
    essence === "application/javascript" || essence === "application/x-www-form-urlencoded";
}

/**
 * The chunks of bytes, read with a reader (not `for await` over the stream,
 * which the DOM library's types do not promise); leaving the loop early
 * cancels the stream. Internal: used by the MCP and command-line surfaces.
 *
 * @example
 * ```ts
 * import { byteChunks } from "./bytes.ts";
 *
 * for await (const chunk of byteChunks(new Blob(["hi"]))) console.log(chunk.length); // 2
 * ```
 */
export async function* byteChunks(
  body: Blob | ReadableStream<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const reader = (body instanceof Blob ? body.stream() : body).getReader();
  let done = false;
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done) {
        done = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (!done) await reader.cancel();
    reader.releaseLock();
  }
}
