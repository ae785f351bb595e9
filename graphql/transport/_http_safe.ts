// Which queries may run over GET: only those whose every leaf field belongs to
// a leaf tagged `readOnly: true`, the same leaves the HTTP surface serves with
// GET. A field that is a Query only by its read-like name (`getStats`) may still
// have side effects, so a cross-site GET must never reach it.

import {
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { tagsOf } from "../../tree/tags.ts";
import type { ProjectGraphQLResult } from "../schema/projection.ts";

/** Tells whether an operation of a prepared document may run over GET; decided once per document. */
export function getSafety(
  projection: ProjectGraphQLResult,
  schema: GraphQLSchema,
): (document: DocumentNode, operation: OperationDefinitionNode) => boolean {
  const unsafe = new Set(
    projection.fields
      .filter((field) => field.kind === "query" && tagsOf(field.node).readOnly !== true)
      .map((field) => `${field.parent}.${field.name}`),
  );
  const known = new WeakMap<OperationDefinitionNode, boolean>();
  return (document, operation) => {
    if (unsafe.size === 0) return true;
    let safe = known.get(operation);
    if (safe === undefined) {
      safe = reaches(document, operation, schema, unsafe) === false;
      known.set(operation, safe);
    }
    return safe;
  };
}

/** Whether the operation selects one of the fields, through fragments too. */
function reaches(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  fields: ReadonlySet<string>,
): boolean {
  const fragments = new Map(
    document.definitions.flatMap((d) => d.kind === "FragmentDefinition" ? [[d.name.value, d]] : []),
  );
  const typeInfo = new TypeInfo(schema);
  let found = false;
  const seen = new Set<string>();
  const walk = (node: Parameters<typeof visit>[0]) => {
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        Field(field) {
          const parent = typeInfo.getParentType();
          if (parent && fields.has(`${parent.name}.${field.name.value}`)) found = true;
        },
        FragmentSpread(spread) {
          const name = spread.name.value;
          const fragment = fragments.get(name);
          if (fragment === undefined || seen.has(name)) return;
          seen.add(name);
          walk(fragment);
        },
      }),
    );
  };
  walk(operation);
  return found;
}
