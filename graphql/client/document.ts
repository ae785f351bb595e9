/**
 * `buildDocument`: the operation document of one leaf, built from the same
 * projection the server uses, so that client and server cannot disagree. The
 * selection is the full output type, bounded in depth; a type met again on its
 * own path (a cycle) is cut to its scalar fields, and unions select
 * `__typename` and one inline fragment per member.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { buildDocument, projectGraphQL } from "@ramify/api/graphql";
 * import { z } from "zod";
 *
 * const projection = projectGraphQL(api({
 *   books: api({
 *     read: op(({ id }) => ({ id, title: "Dune" }), {
 *       tags: { readOnly: true },
 *       input: z.object({ id: z.string() }),
 *       output: z.object({ id: z.string(), title: z.string() }),
 *     }),
 *   }),
 * }));
 * const { query } = buildDocument(projection, projection.fields[0]);
 * console.log(query);
 * // query BooksRead($id: String!) { books { read(id: $id) { id title } } }
 * ```
 *
 * @module
 */

import type { GraphQLLeafField, ProjectGraphQLResult } from "../schema/projection.ts";
import type { NamedTypeDefinition } from "../schema/types.ts";

/**
 * Options of {@linkcode buildDocument}.
 *
 * @example
 * ```ts
 * import type { BuildDocumentOptions } from "@ramify/api/graphql";
 *
 * const opts: BuildDocumentOptions = { maxDepth: 4 };
 * ```
 */
export interface BuildDocumentOptions {
  /** How deep the selection of the result goes. Default 8. */
  readonly maxDepth?: number;
}

/**
 * A built operation.
 *
 * @example
 * ```ts
 * import type { BuiltDocument } from "@ramify/api/graphql";
 *
 * const built: BuiltDocument = {
 *   query: "mutation BooksAdd($title: String!) { booksAdd(title: $title) { id } }",
 *   operationName: "BooksAdd",
 *   kind: "mutation",
 *   path: ["booksAdd"],
 * };
 * ```
 */
export interface BuiltDocument {
  /** The document text. */
  readonly query: string;
  /** The operation's name, the leaf's path in PascalCase. */
  readonly operationName: string;
  /** `query`, `mutation` or `subscription`. */
  readonly kind: GraphQLLeafField["kind"];
  /** The response keys from `data` down to the leaf's result. */
  readonly path: readonly string[];
}

/**
 * The document of one leaf field of a projection. Each argument becomes a
 * variable of the same name.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { buildDocument, projectGraphQL } from "@ramify/api/graphql";
 *
 * const projection = projectGraphQL(api({
 *   books: api({}, { fallback: { name: "bookId", subtree: api({ remove: op(() => true) }) } }),
 * }));
 * console.log(buildDocument(projection, projection.fields[0]).query);
 * // mutation BooksRemove($bookId: ID!) { booksRemove(bookId: $bookId) }
 * ```
 */
export function buildDocument(
  projection: ProjectGraphQLResult,
  field: GraphQLLeafField,
  opts: BuildDocumentOptions = {},
): BuiltDocument {
  const types = new Map(projection.types.definitions.map((d) => [d.name, d]));
  const selection = selectionOf(field.type, types, opts.maxDepth ?? 8, []);
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(", ");
  const call = field.args.length === 0
    ? field.name
    : `${field.name}(${field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ")})`;
  let body = `${call}${selection}`;
  const path = [field.name];
  // Wrap the field in its namespaces, innermost first.
  let parent = field.parent;
  while (parent !== "Query" && parent !== "Mutation" && parent !== "Subscription") {
    const namespace = projection.namespaces.find((n) => n.type === parent);
    if (namespace === undefined) break;
    body = `${namespace.name} { ${body} }`;
    path.unshift(namespace.name);
    parent = namespace.parent;
  }
  // The path is GraphQL names already (a tree name like `list-all` is converted).
  const operationName = path.map((name) => name.charAt(0).toUpperCase() + name.slice(1)).join("");
  const head = variables === "" ? operationName : `${operationName}(${variables})`;
  return {
    query: `${field.kind} ${head} { ${body} }`,
    operationName,
    kind: field.kind,
    path,
  };
}

/** The selection set of a type reference (empty for scalars and enums). */
function selectionOf(
  typeRef: string,
  types: ReadonlyMap<string, NamedTypeDefinition>,
  depthLeft: number,
  seen: readonly string[],
): string {
  const definition = types.get(typeRef.replace(/[[\]!]/g, ""));
  if (definition?.kind === "union") {
    const members = definition.members.map((member) =>
      `... on ${member}${selectionOf(member, types, depthLeft, seen) || " { __typename }"}`
    );
    return ` { __typename ${members.join(" ")} }`;
  }
  if (definition?.kind !== "object") return "";
  const cut = depthLeft <= 1 || seen.includes(definition.name);
  const fields: string[] = [];
  for (const field of definition.fields) {
    if (field.args !== undefined && field.args.some((arg) => arg.type.endsWith("!"))) continue;
    const named = types.get(field.type.replace(/[[\]!]/g, ""));
    const leaf = named === undefined || named.kind === "scalar" || named.kind === "enum";
    if (leaf) fields.push(field.name);
    else if (!cut) {
      fields.push(
        `${field.name}${selectionOf(field.type, types, depthLeft - 1, [...seen, definition.name])}`,
      );
    }
  }
  return ` { ${fields.length === 0 ? "__typename" : fields.join(" ")} }`;
}
