/**
 * How a leaf appears on the MCP surface, decided once for every tool
 * surface (`toTools`, the MCP server).
 *
 * @module
 */

/**
 * How a leaf appears on the tool surface (`toTools`, the MCP server): its tool
 * name and title in place of the ones derived from the tree, and its
 * description there. `meta.tools: false` keeps the leaf off that surface.
 *
 * @example
 * ```ts
 * import type { ToolsMeta } from "@ramify/api/tree/node";
 *
 * const tools: ToolsMeta = { name: "search_books", title: "Search the catalogue" };
 * ```
 */
export interface ToolsMeta {
  /** The tool name (`[A-Za-z0-9._-]`, at most 128 characters) in place of the joined path. */
  readonly name?: string;
  /** The tool's display title. */
  readonly title?: string;
  /** The tool's description, in place of `meta.description`. */
  readonly description?: string;
}
