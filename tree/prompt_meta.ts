/**
 * What marks a leaf as a prompt (`meta.prompt`): part of the authoring
 * vocabulary of `Meta`, so it stays beside the node types (tree/ imports no
 * surface), while the `prompt()` constructor that writes it, and everything
 * that reads it, live with the MCP surface (`@ramify/api/tools`). Exported by
 * `@ramify/api/tree/node`, as `Meta` is.
 *
 * @module
 */

/**
 * What marks a leaf as a prompt (`meta.prompt`): its MCP name and title in
 * place of derived ones, and a completer for its arguments.
 *
 * @example
 * ```ts
 * import type { PromptMeta } from "@ramify/api/tree/node";
 *
 * const meta: PromptMeta = { name: "review", title: "Review a book", complete: { title: "books/titles" } };
 * ```
 */
export interface PromptMeta {
  /** The prompt's name (`[A-Za-z0-9._-]`), in place of the joined path. */
  readonly name?: string;
  /** The prompt's display title. */
  readonly title?: string;
  /**
   * Completers of arguments, by argument name: the label of a leaf
   * (`"books/titles"`, as `leavesOf` labels it) called with
   * `{ value, arguments }` that returns the candidate strings.
   */
  readonly complete?: { readonly [argument: string]: string };
}
