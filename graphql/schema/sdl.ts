/**
 * `toSDL(node, opts?)`: the GraphQL schema of a tree as SDL text: the root
 * types, the namespace types and every named type from the schemas;
 * `toGraphQL(registry)`: the named types of a registry alone.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toSDL } from "@ramify/api/graphql";
 *
 * console.log(toSDL(api({ ping: op(() => "pong", { tags: { readOnly: true } }) })));
 * // type Query {
 * //   ping: JSON
 * // }
 * // ...
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { fieldDefinition, projectGraphQL, type ProjectGraphQLOptions } from "./projection.ts";
import type { ProjectGraphQLResult } from "./projection.ts";
import { type FieldDefinition, GraphQLTypeRegistry, type NamedTypeDefinition } from "./types.ts";
import { printDefinitions } from "./_print.ts";

/**
 * The SDL of a tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toSDL } from "@ramify/api/graphql";
 * import { buildSchema } from "graphql";
 *
 * const sdl = toSDL(api({ books: api({ add: op(() => ({})) }) }));
 * console.log(buildSchema(sdl).getMutationType()?.name); // "Mutation"
 * ```
 */
export function toSDL(node: Node, opts?: ProjectGraphQLOptions): string {
  return printProjection(projectGraphQL(node, opts));
}

/**
 * The SDL of every named type in a registry, in first-use order, with
 * descriptions as block strings. The same registry gives the same text.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, toGraphQL } from "@ramify/api/graphql";
 *
 * const registry = new GraphQLTypeRegistry();
 * registry.define({ kind: "enum", name: "Status", values: ["OPEN", "CLOSED"], description: "State" });
 * console.log(toGraphQL(registry));
 * // """State"""
 * // enum Status {
 * //   OPEN
 * //   CLOSED
 * // }
 * ```
 */
export function toGraphQL(registry: GraphQLTypeRegistry): string {
  return printDefinitions(registry.definitions);
}

/** The SDL of a projection: root types first, then the named types in first-use order. */
export function printProjection(projection: ProjectGraphQLResult): string {
  const rootFields = (parent: string): FieldDefinition[] => [
    ...projection.namespaces.filter((n) => n.parent === parent).map((n) => ({
      name: n.name,
      type: `${n.type}!`,
    })),
    ...projection.fields.filter((f) => f.parent === parent).map(fieldDefinition),
    ...projection.tasks.filter((f) => f.parent === parent).map(({ parent: _, ...field }) => field),
  ];
  const query = rootFields("Query");
  const roots: NamedTypeDefinition[] = [{
    kind: "object",
    name: "Query",
    fields: query.length > 0 ? query : [{
      name: "_empty",
      type: "Boolean",
      description: "The tree has no query; GraphQL needs one field here.",
    }],
  }];
  for (const name of ["Mutation", "Subscription"]) {
    const fields = rootFields(name);
    if (fields.length > 0) roots.push({ kind: "object", name, fields });
  }
  // The projection checked its fields and types. Only a type of its own named like a root type
  // goes through a registry with the roots, for its verdict (an error, or nothing when equal).
  if (!projection.types.definitions.some((definition) => ROOT_TYPES.has(definition.name))) {
    return printDefinitions([...roots, ...projection.types.definitions]);
  }
  const printing = new GraphQLTypeRegistry();
  for (const root of roots) printing.define(root);
  const named = projection.types.definitions.filter((definition) => {
    if (!ROOT_TYPES.has(definition.name)) return true;
    printing.define(definition);
    return false;
  });
  return printDefinitions([...printing.definitions, ...named]);
}

const ROOT_TYPES: ReadonlySet<string> = new Set(["Query", "Mutation", "Subscription"]);
