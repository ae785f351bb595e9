/**
 * How a leaf appears on the MCP surface (`meta.tools`), decided once for
 * every tool surface (`toTools`, the MCP server): part of the authoring
 * vocabulary of `Meta`, so it stays beside the node types (tree/ imports no
 * surface), while what reads it lives in tools/. Exported by
 * `@ramify/api/tree/node`, as `Meta` is.
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";

/**
 * A question a long-running leaf's handler asks, named so that it can be
 * asked before its task is made (`askFirst`): `ask()`'s `Question`, its key
 * required. (Spelt out here: tree/interaction.ts imports the node types.)
 *
 * @example
 * ```ts
 * import type { FirstQuestion } from "@ramify/api/tree/node";
 *
 * const name: FirstQuestion = {
 *   key: "user_name",
 *   message: "What is your name?",
 *   schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 * };
 * ```
 */
export interface FirstQuestion {
  /** The question's name, the one the handler's `ask()` gives it. */
  readonly key: string;
  /** What the person is asked. */
  readonly message: string;
  /** The answer's form: a flat JSON Schema object, or a Standard Schema. */
  readonly schema: StandardSchemaV1 | {
    readonly type: "object";
    readonly properties: { readonly [name: string]: unknown };
    readonly required?: readonly string[];
    readonly [keyword: string]: unknown;
  };
}

/**
 * How a leaf appears on the tool surface (`toTools`, the MCP server): its tool
 * name and title in place of the ones derived from the tree, its description
 * there, and whether it is a tool, a resource, or both.
 *
 * - Every leaf is a tool unless `tool: false`.
 * - A `readOnly` leaf that is not streaming, not `openWorld`, takes no file
 *   and takes no input but its captures (its input schema names nothing
 *   else, or it has none) is also a resource (no captures) or a resource
 *   template (captures), unless `resource: false`. `resource: true` admits a
 *   leaf whose other inputs are all optional, or an `openWorld` one; on a leaf
 *   that cannot be one it is an error when the server is built.
 * - `meta.tools: false` keeps the leaf off the surface: neither tool nor
 *   resource.
 *
 * A resource's clients may subscribe to it: `updates` names a streaming
 * leaf (by its place, `books/{bookId}/changes`) whose every item means "this
 * resource changed"; it is called through the one call path with the
 * resource's captures it binds. A template's captures are completed from an
 * `enum` in the input schema, or by the leaf `complete` names for that
 * capture: it takes `{ value, arguments }` (the text typed so far, the other
 * captures already chosen) and returns the candidate strings.
 *
 * @example
 * ```ts
 * import type { ToolsMeta } from "@ramify/api/tree/node";
 *
 * const tools: ToolsMeta = { name: "search_books", title: "Search the catalogue" };
 * const book: ToolsMeta = {
 *   tool: false,
 *   updates: "books/{bookId}/changes",
 *   complete: { bookId: "books/ids" },
 * };
 * ```
 */
export interface ToolsMeta {
  /** The tool name (`[A-Za-z0-9._-]`, at most 128 characters) in place of the joined path. */
  readonly name?: string;
  /** The tool's (and resource's) display title. */
  readonly title?: string;
  /** The tool's (and resource's) description, in place of `meta.description`. */
  readonly description?: string;
  /** `false`: not a tool (it may still be a resource). Default `true`. */
  readonly tool?: boolean;
  /** `false`: not a resource; `true`: must be one. Default: whether it qualifies. */
  readonly resource?: boolean;
  /** The resource's media type, in place of the one its output schema gives. */
  readonly mimeType?: string;
  /** The place of a streaming leaf whose items say the resource changed. */
  readonly updates?: string;
  /** For each capture, the place of the leaf that completes it (no captures of its own). */
  readonly complete?: { readonly [capture: string]: string };
  /**
   * A long-running leaf's tasks over MCP (the tasks extension): `"required"`
   * refuses a 2026-era call whose client did not declare the extension
   * (`-32021`) rather than holding it open until the handler returns; with
   * `"optional"`, the default, that call waits for the result as any other.
   */
  readonly task?: "optional" | "required";
  /**
   * A long-running leaf's questions asked before its task is made, over MCP:
   * a 2026-era client taking a task is asked them in an input round of the
   * call (`input_required`), and the task then starts with its answers, which
   * the handler's `ask()` of the same `key` gets at once. Every other caller
   * is asked them when the handler asks, as any question. Each needs its own
   * `key`, and the handler asks it with the same one.
   */
  readonly askFirst?: readonly FirstQuestion[];
}
