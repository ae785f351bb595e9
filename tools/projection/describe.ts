/**
 * The tool-description projection: one descriptor per leaf, as MCP's
 * `tools/list` (and most model APIs' function calling) expects it.
 *
 * - Names: the child names on the leaf's path joined with `.`
 *   (`books.list`); a fallback adds no name, its capture is a required
 *   string argument (`books.read` takes `bookId`). Inside a child name,
 *   characters outside `[A-Za-z0-9_-]` are written `_x` plus two uppercase
 *   hex digits per UTF-8 byte (`a.b` is `a_x2Eb`), and a `_` that would read
 *   as such is `_x5F`: the joining is injective. Names are at most 128 characters. `meta.tools.name`
 *   overrides; two leaves with one name fail, naming both. A leaf at the root
 *   is `root`.
 * - Annotations from the leaf's own tags only (never an ancestor's), with the
 *   standard implications (`readOnly` implies `idempotent`): `readOnlyHint`,
 *   `idempotentHint`, `destructiveHint`, `openWorldHint`. A tag authored
 *   `false` is written `false`, since MCP assumes destructive and open-world
 *   when a hint is missing; a tag not authored is left out. A leaf that says
 *   neither `readOnly: true` nor `destructive` is named in a warning, once
 *   (`warnMissingHints: false` silences it).
 * - `meta.tools: false` keeps a leaf off; `meta.tools.title` and
 *   `.description` override the derived title and `meta.description`. A leaf
 *   whose input takes files (`z.file()`) is left off: tool arguments are JSON.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { api, op } from "@ramify/api/tree";
 * import { toTools } from "@ramify/api/tools";
 *
 * const tree = api({
 *   books: api({
 *     list: op(() => [], { tags: { readOnly: true } }),
 *   }, {
 *     fallback: {
 *       name: "bookId",
 *       subtree: api({ remove: op(() => undefined, { tags: { destructive: true } }) }),
 *     },
 *   }),
 * });
 * const [list, remove] = toTools(tree);
 * console.log(list.name, list.annotations); // books.list { readOnlyHint: true, idempotentHint: true }
 * console.log(remove.name, remove.inputSchema.required); // books.remove [ "bookId" ]
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { collectTools, type ToolDescriptor } from "./tools.ts";

export type { ToolAnnotations, ToolDescriptor, ToolSecurityScheme } from "./tools.ts";

/**
 * Options of {@linkcode toTools}, and of the MCP server.
 *
 * @example
 * ```ts
 * import type { ToolsOptions } from "@ramify/api/tools";
 *
 * const quiet: ToolsOptions = { warnMissingHints: false };
 * ```
 */
export interface ToolsOptions {
  /**
   * Warn (`console.warn`, once per tool list or server built) naming the
   * tools whose leaf says neither `readOnly: true` nor `destructive`: MCP
   * clients take a missing `destructiveHint` as destructive. `false` silences
   * it. Default `true`.
   */
  readonly warnMissingHints?: boolean;
}

/**
 * The tool descriptors of a tree, in tree order. Warns once about the tools
 * MCP clients will take as destructive unasked (see
 * {@linkcode ToolsOptions.warnMissingHints}).
 *
 * @throws {Error} when two leaves get one name, a name breaks MCP's rule, or
 * a schema has no JSON Schema form (each naming the leaf)
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toTools } from "@ramify/api/tools";
 *
 * const [ping] = toTools(
 *   api({ ping: op(() => "pong", { description: "Answers pong", tags: { readOnly: true } }) }),
 * );
 * console.log(ping.description); // "Answers pong"
 * ```
 */
export function toTools(tree: Node, opts: ToolsOptions = {}): ToolDescriptor[] {
  return collectTools(tree, "toTools", opts.warnMissingHints).map((entry) => entry.descriptor);
}
