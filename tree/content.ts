/**
 * Content: a result made of several parts, text and bytes, as a tool result
 * of MCP shows it (a line of text, an image, an embedded document). A handler
 * returns `await content(...)`; the MCP server sends its blocks as the tool's
 * content, and HTTP and GraphQL answer their JSON: the same list of blocks,
 * bytes in base64, so every surface gives the same value.
 *
 * A part is a string (a `text` block) or a `Blob`: `image/*` and
 * `audio/*` bytes are `image` and `audio` blocks, anything else an embedded
 * `resource`, its `text` for a text media type, else its base64 `blob`. A
 * `File` whose name is an absolute URI (`test://report`) is always an embedded
 * resource with that URI, whatever its type: that is how a handler names the
 * resource it embeds. Other bytes that become a resource need such a name in
 * a `content()` value (the MCP server names a whole bytes result itself).
 *
 * A value every surface serves, so it stays in tree/ (exported by `./tree`),
 * and with it the rule that turns its parts into blocks (`bytesBlock`,
 * `resourceBlock`, `isUriName`, `base64`): `content()` is built by that rule,
 * and the MCP server renders a whole bytes result by the same one rather than
 * a copy of it.
 *
 * @example
 * ```ts
 * import { api, content, op } from "@ramify/api/tree";
 *
 * const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
 * const tree = api({
 *   report: op(async () =>
 *     await content(
 *       "The chart, and the data behind it:",
 *       png,
 *       new File(['{"sales":3}'], "reports://2024/sales.json", { type: "application/json" }),
 *     ), { tags: { readOnly: true } }),
 * });
 * ```
 *
 * @module
 */

import { bytesOf, isTextType } from "./bytes.ts";
import { mediaTypeEssence } from "./media_type.ts";

/**
 * One block of content, as MCP writes it.
 *
 * @example
 * ```ts
 * import type { ContentBlock } from "@ramify/api/tree";
 *
 * const block: ContentBlock = { type: "text", text: "hello" };
 * ```
 */
export type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image" | "audio"; readonly data: string; readonly mimeType: string }
  | {
    readonly type: "resource";
    readonly resource:
      | { readonly uri: string; readonly mimeType: string; readonly text: string }
      | { readonly uri: string; readonly mimeType: string; readonly blob: string };
  };

/**
 * A part of {@linkcode content}: text, or bytes as a `Blob` (a `File` names
 * the resource it is by its URI; a bare buffer has no media type to say
 * what it is, so it is no part).
 *
 * @example
 * ```ts
 * import type { ContentPart } from "@ramify/api/tree";
 *
 * const parts: ContentPart[] = ["caption", new Blob(["x"], { type: "image/png" })];
 * ```
 */
export type ContentPart = string | Blob;

/**
 * A result of several blocks, read into memory: what {@linkcode content}
 * resolves to. Its JSON is its list of blocks.
 *
 * @example
 * ```ts
 * import { content } from "@ramify/api/tree";
 *
 * const value = await content("one", "two");
 * console.log(JSON.stringify(value)); // [{"type":"text","text":"one"},{"type":"text","text":"two"}]
 * ```
 */
export class Content {
  /** The blocks, in order. */
  readonly blocks: readonly ContentBlock[];

  /** Use {@linkcode content}, which reads the bytes. */
  constructor(blocks: readonly ContentBlock[]) {
    this.blocks = Object.freeze([...blocks]);
  }

  /** The blocks: what HTTP and GraphQL answer. */
  toJSON(): readonly ContentBlock[] {
    return this.blocks;
  }
}

/**
 * A result of several parts, text and bytes, read now (MCP carries every
 * block in base64 in one message). Bytes that are neither an image nor audio
 * must be a `File` named with an absolute URI, the embedded resource's URI.
 *
 * @example
 * ```ts
 * import { content } from "@ramify/api/tree";
 *
 * const value = await content(
 *   "Here is the note:",
 *   new File(["remember the milk"], "notes://today", { type: "text/plain" }),
 * );
 * console.log(value.blocks[1]);
 * // { type: "resource", resource: { uri: "notes://today", mimeType: "text/plain", text: "remember the milk" } }
 * ```
 *
 * @throws {TypeError} for a part that is neither a string nor bytes, or bytes
 * that become a resource without a URI for a name.
 */
export async function content(...parts: readonly ContentPart[]): Promise<Content> {
  const blocks: ContentBlock[] = [];
  for (const [at, part] of parts.entries()) {
    if (typeof part === "string") {
      blocks.push({ type: "text", text: part });
      continue;
    }
    if (!(part instanceof Blob)) {
      throw new TypeError(`content(): part ${at} is neither a string nor a Blob`);
    }
    const { type, name } = bytesOf(part);
    const uri = isUriName(name) ? name : undefined;
    const block = bytesBlock(new Uint8Array(await part.arrayBuffer()), type, uri);
    if (block === undefined) {
      throw new TypeError(
        `content(): part ${at} (${type}) is an embedded resource: give it as a File named with its URI`,
      );
    }
    blocks.push(block);
  }
  return new Content(blocks);
}

/**
 * Whether a `File`'s name is an absolute URI (`scheme://...`), naming the
 * embedded resource it is. Internal: the MCP server reads a bytes result's
 * name through it.
 *
 * @example
 * ```ts
 * import { isUriName } from "./content.ts";
 *
 * console.log(isUriName("test://embedded"), isUriName("report.pdf")); // true false
 * ```
 */
export function isUriName(name: string | undefined): name is string {
  return name !== undefined && /^[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(name);
}

/**
 * Bytes as one block: the resource `uri` names when it is given, else an
 * image or audio block for those media types, else `undefined` (a resource
 * needs a URI). Internal: the MCP server renders a bytes result with it.
 *
 * @example
 * ```ts
 * import { bytesBlock } from "./content.ts";
 *
 * console.log(bytesBlock(new Uint8Array([1]), "image/png", undefined)?.type); // "image"
 * console.log(bytesBlock(new Uint8Array([1]), "application/pdf", undefined)); // undefined
 * ```
 */
export function bytesBlock(
  data: Uint8Array,
  type: string,
  uri: string | undefined,
): ContentBlock | undefined {
  if (uri !== undefined) return resourceBlock(data, type, uri);
  const kind = mediaTypeEssence(type).split("/")[0];
  return kind === "image" || kind === "audio"
    ? { type: kind, data: base64(data), mimeType: type }
    : undefined;
}

/**
 * Bytes as an embedded resource: its `text` for a text media type, any other
 * its base64 `blob`. Internal: the MCP server names a bytes result's
 * resource itself.
 *
 * @example
 * ```ts
 * import { resourceBlock } from "./content.ts";
 *
 * console.log(resourceBlock(new TextEncoder().encode("hi"), "text/plain", "a://b"));
 * // { type: "resource", resource: { uri: "a://b", mimeType: "text/plain", text: "hi" } }
 * ```
 */
export function resourceBlock(
  data: Uint8Array,
  type: string,
  uri: string,
): Extract<ContentBlock, { type: "resource" }> {
  return {
    type: "resource",
    resource: isTextType(type)
      ? { uri, mimeType: type, text: new TextDecoder().decode(data) }
      : { uri, mimeType: type, blob: base64(data) },
  };
}

/**
 * Base64 of the bytes, chunked so that a multi-megabyte body never spreads
 * into one call's arguments. Internal: the MCP server's content uses it.
 *
 * @example
 * ```ts
 * import { base64 } from "./content.ts";
 *
 * console.log(base64(new Uint8Array([104, 105]))); // "aGk="
 * ```
 */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}
