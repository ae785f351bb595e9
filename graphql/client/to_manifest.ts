/**
 * `toGraphQLClientManifest(tree)`: a tree's GraphQL client manifest, made
 * where the tree is (the server, or a build step writing it to a module).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toGraphQLClientManifest } from "@ramify/api/graphql";
 *
 * const manifest = toGraphQLClientManifest(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * console.log(manifest.operations[0].query); // "query Ping {\n  ping\n}"
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { projectGraphQL, type ProjectGraphQLOptions } from "../schema/projection.ts";
import { buildDocument, type BuildDocumentOptions } from "./document.ts";
import type { GraphQLClientManifest, GraphQLManifestType } from "./manifest.ts";

/**
 * The GraphQL client manifest of a tree, projected as the server projects it
 * (give the same options).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toGraphQLClientManifest } from "@ramify/api/graphql";
 *
 * const manifest = toGraphQLClientManifest(api({ add: op(() => 1) }));
 * console.log(manifest.operations[0].kind); // "mutation"
 * ```
 */
export function toGraphQLClientManifest(
  tree: Node,
  opts: ProjectGraphQLOptions & BuildDocumentOptions = {},
): GraphQLClientManifest {
  const projection = projectGraphQL(tree, opts);
  const types: GraphQLManifestType[] = [];
  for (const definition of projection.types.definitions) {
    if (definition.kind === "union") types.push({ name: definition.name, kind: "union" });
    if (definition.kind === "object" || definition.kind === "input") {
      types.push({
        name: definition.name,
        kind: definition.kind,
        fields: definition.fields.map((field) => ({
          name: field.name,
          ...(field.key === undefined ? {} : { key: field.key }),
          type: field.type,
          ...(field.optional === undefined ? {} : { optional: field.optional }),
        })),
      });
    }
  }
  return {
    manifest: 1,
    operations: projection.fields.map((field) => {
      const document = buildDocument(projection, field, opts);
      const entry = field.entry;
      return {
        steps: field.steps.map((step) => ({ kind: step.kind, name: step.name })),
        kind: field.kind,
        query: document.query,
        operationName: document.operationName,
        path: [...document.path],
        args: field.args.map((arg) => ({
          name: arg.name,
          ...(arg.key === undefined ? {} : { key: arg.key }),
          type: arg.type,
          ...(arg.spread === true ? { spread: true } : {}),
        })),
        type: field.type,
        voidResult: field.voidResult,
        dates: entry.dates,
        errors: Object.keys(entry.errors),
        ...(entry.invalidates === undefined ? {} : { invalidates: entry.invalidates }),
        ...(field.longRunning === true ? { longRunning: true } : {}),
      };
    }),
    types,
  };
}
