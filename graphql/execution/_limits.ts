// What one document may ask, checked once when it is prepared: depth,
// aliases, selections (fragments expanded), introspection, and an estimate of
// the work it asks for. The estimate counts each field once per object it is
// selected on; a list multiplies what is selected inside it by its size: the
// literal `first`, `last`, `limit`, `pageSize`, `take` or `count` argument
// when there is one, else `listSize`. A friends-of-friends query fourteen
// levels deep is refused here instead of running for seconds.

import {
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  GraphQLError,
  type GraphQLField,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/** The limits with their defaults applied. */
export interface Limits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxFields: number;
  readonly maxTokens: number;
  readonly maxCost: number;
  readonly listSize: number;
}

const SIZE_ARGUMENTS = new Set(["first", "last", "limit", "pageSize", "take", "count"]);

function refusal(message: string, node: OperationDefinitionNode): GraphQLError {
  return new GraphQLError(message, {
    nodes: node,
    extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
  });
}

/** Why the document asks too much, one error per limit an operation breaks. */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: Limits,
  introspection: boolean,
): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const errors: GraphQLError[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    let fields = 0;
    let aliases = 0;
    let deepest = 0;
    let introspects = false;
    const visit = (set: SelectionSetNode, depth: number) => {
      deepest = Math.max(deepest, depth);
      if (depth > limits.maxDepth || fields > limits.maxFields) return;
      for (const selection of set.selections) {
        // Every selection counts, spreads too: fragments that only spread each
        // other must not expand without bound.
        fields++;
        if (selection.kind === Kind.FIELD) {
          if (selection.alias !== undefined) aliases++;
          const name = selection.name.value;
          if (name === "__schema" || name === "__type") introspects = true;
          if (selection.selectionSet) visit(selection.selectionSet, depth + 1);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          visit(selection.selectionSet, depth);
        } else {
          const fragment = fragments.get(selection.name.value);
          if (fragment !== undefined) visit(fragment.selectionSet, depth);
        }
      }
    };
    visit(definition.selectionSet, 1);
    const name = definition.name?.value ?? "the operation";
    if (deepest > limits.maxDepth) {
      errors.push(refusal(`${name} nests deeper than ${limits.maxDepth} levels`, definition));
    }
    if (aliases > limits.maxAliases) {
      errors.push(refusal(`${name} has more than ${limits.maxAliases} aliases`, definition));
    }
    if (fields > limits.maxFields) {
      errors.push(refusal(`${name} makes more than ${limits.maxFields} selections`, definition));
    }
    if (introspects && !introspection) {
      errors.push(refusal("Introspection is disabled", definition));
    }
    if (errors.length > 0) continue;
    const cost = operationCost(schema, definition, fragments, limits);
    if (cost > limits.maxCost) {
      errors.push(
        refusal(
          `${name} may cost more than ${limits.maxCost} (its estimate: ${
            Number.isFinite(cost) ? cost : "unbounded"
          }; each list counts as ${limits.listSize} items unless a first/limit argument says)`,
          definition,
        ),
      );
    }
  }
  return errors;
}

/** The estimated number of fields an operation resolves. */
function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  limits: Limits,
): number {
  const root = operation.operation === "query"
    ? schema.getQueryType()
    : operation.operation === "mutation"
    ? schema.getMutationType()
    : schema.getSubscriptionType();
  let total = 0;
  const visit = (set: SelectionSetNode, parent: unknown, times: number) => {
    for (const selection of set.selections) {
      if (total > limits.maxCost) return;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith("__")) continue;
        total += times;
        const field = fieldOf(parent, selection.name.value);
        if (field === undefined || selection.selectionSet === undefined) continue;
        const size = sizeArgument(selection.arguments ?? []) ?? limits.listSize;
        visit(
          selection.selectionSet,
          getNamedType(field.type),
          times * size ** listDepth(field.type),
        );
      } else {
        const condition = selection.kind === Kind.INLINE_FRAGMENT
          ? selection.typeCondition
          : fragments.get(selection.name.value)?.typeCondition;
        const set = selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : fragments.get(selection.name.value)?.selectionSet;
        if (set === undefined) continue;
        visit(set, condition === undefined ? parent : schema.getType(condition.name.value), times);
      }
    }
  };
  if (root !== null && root !== undefined) visit(operation.selectionSet, root, 1);
  return total;
}

function fieldOf(parent: unknown, name: string): GraphQLField<unknown, unknown> | undefined {
  return parent instanceof GraphQLObjectType || parent instanceof GraphQLInterfaceType
    ? parent.getFields()[name]
    : undefined;
}

/** How many lists a type nests (`[[T]]` is 2). */
function listDepth(type: GraphQLOutputType): number {
  let depth = 0;
  let current: unknown = type;
  while (current instanceof GraphQLNonNull || current instanceof GraphQLList) {
    if (current instanceof GraphQLList) depth++;
    current = current.ofType;
  }
  return depth;
}

function sizeArgument(args: readonly ArgumentNode[]): number | undefined {
  for (const arg of args) {
    if (SIZE_ARGUMENTS.has(arg.name.value) && arg.value.kind === Kind.INT) {
      const size = Number(arg.value.value);
      if (Number.isSafeInteger(size) && size >= 0) return size;
    }
  }
  return undefined;
}
