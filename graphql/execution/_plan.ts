// A document compiled once into plans: for each operation, the root fields
// collected as graphql-js collects them (fragments inline and named, `@skip`
// and `@include`, each response key once, in first-seen order), and for each
// field what completes its value: its resolver, its arguments when they are
// constant, and the sub-plan of every object type the value may take. The
// executor (`_execute.ts`) walks these plans; it never looks at the document.
// What the plans do not cover, `compileDocument` refuses with `undefined`:
// graphql-js `execute` runs those documents.

import {
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  type GraphQLField,
  GraphQLIncludeDirective,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  isAbstractType,
  isLeafType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from "graphql";
import { runnerOf } from "./_generated.ts";
import type { Completion, FieldPlan, OperationPlan, RootPlan, VariableValues } from "./_run.ts";

/** How many condition outcomes one operation keeps plans for. */
const MAX_VARIANTS = 16;
const NO_ARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The plan of the operation `operationName` chooses, or `undefined` when the
 * compiler does not cover the document: no single operation to choose,
 * subscriptions, introspection, operation directives, fragment variables, a
 * `__proto__` response key, an object type with `isTypeOf` or an abstract type
 * without `resolveType`.
 */
export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
): OperationPlan | undefined {
  let operation: OperationDefinitionNode | undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      if (operationName === undefined) {
        if (operation !== undefined) return undefined;
        operation = definition;
      } else if (definition.name?.value === operationName) operation = definition;
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      if ((definition.variableDefinitions?.length ?? 0) > 0) return undefined;
      fragments.set(definition.name.value, definition);
    }
  }
  if (operation === undefined || operation.operation === "subscription") return undefined;
  if ((operation.directives?.length ?? 0) > 0) return undefined;
  const type = schema.getRootType(operation.operation);
  if (type === undefined || type === null) return undefined;
  const conditions = conditionVariables(operation.selectionSet, fragments);
  const nonNull = new Set(
    (operation.variableDefinitions ?? []).flatMap((d) =>
      d.type.kind === Kind.NON_NULL_TYPE ? [d.variable.name.value] : []
    ),
  );
  const variants = new Map<string, RootPlan | null>();
  const op = operation;
  const compile = (variables: VariableValues | undefined): RootPlan | null => {
    try {
      const fields = collect(
        { schema, fragments, variables, nonNull },
        type,
        [op.selectionSet],
      );
      return fields === undefined ? null : { type, fields, serial: op.operation === "mutation" };
    } catch {
      // A condition graphql-js would refuse, or a type it would report: let it.
      return null;
    }
  };
  const fixed = conditions.length === 0 ? compile(undefined) : undefined;
  if (fixed === null) return undefined;
  return {
    operation,
    variables: operation.variableDefinitions ?? [],
    conditions,
    rootFor(variables) {
      if (fixed !== undefined) return fixed;
      let key = "";
      for (const name of conditions) {
        const value = variables?.coerced[name];
        if (value !== true && value !== false) return undefined;
        key += value ? "1" : "0";
      }
      let plan = variants.get(key);
      if (plan === undefined) {
        plan = compile(variables);
        if (variants.size < MAX_VARIANTS) variants.set(key, plan);
      }
      return plan ?? undefined;
    },
  };
}

interface Scope {
  readonly schema: GraphQLSchema;
  /** The operation's variables of a non-null type: once coerced, each holds a value. */
  readonly nonNull: ReadonlySet<string>;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: VariableValues | undefined;
}

/** The variables named in `@skip`/`@include` anywhere the operation reaches. */
function conditionVariables(
  root: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): string[] {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      for (const directive of selection.directives ?? []) {
        for (const arg of directive.arguments ?? []) {
          if (arg.value.kind === Kind.VARIABLE) names.add(arg.value.name.value);
        }
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment !== undefined && !seen.has(fragment.name.value)) {
          seen.add(fragment.name.value);
          visit(fragment.selectionSet);
        }
      } else if (selection.selectionSet !== undefined) visit(selection.selectionSet);
    }
  };
  visit(root);
  return [...names];
}

/**
 * graphql-js's `collectFields`/`collectSubfields` done at compile time: the
 * field nodes of each response key, fragments visited once per collection.
 */
function collect(
  scope: Scope,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
): FieldPlan[] | undefined {
  if (type.isTypeOf !== undefined && type.isTypeOf !== null) return undefined;
  const grouped = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (!included(scope, selection.directives)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const nodes = grouped.get(key);
        if (nodes === undefined) grouped.set(key, [selection]);
        else nodes.push(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (matches(scope.schema, selection.typeCondition?.name.value, type)) {
          visit(selection.selectionSet);
        }
      } else {
        const name = selection.name.value;
        const fragment = scope.fragments.get(name);
        if (
          fragment === undefined || !matches(scope.schema, fragment.typeCondition.name.value, type)
        ) {
          continue;
        }
        if (visited.has(name)) continue;
        visited.add(name);
        visit(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  const plans: FieldPlan[] = [];
  for (const [key, nodes] of grouped) {
    const plan = fieldPlan(scope, type, key, nodes);
    if (plan === undefined) return undefined;
    plans.push(plan);
  }
  return plans;
}

function fieldPlan(
  scope: Scope,
  parent: GraphQLObjectType,
  key: string,
  nodes: FieldNode[],
): FieldPlan | undefined {
  const name = nodes[0].name.value;
  // An ordinary object holds the response: this key would set its prototype.
  if (key === "__proto__" || name === "__schema" || name === "__type") return undefined;
  const def = scope.schema.getField(parent, name);
  if (def === undefined) return undefined;
  const completion = completionOf(scope, def.type, nodes);
  if (completion === undefined) return undefined;
  return {
    key,
    name,
    parent,
    nodes,
    def,
    type: def.type,
    resolve: name === "__typename" ? undefined : def.resolve,
    typename: name === "__typename",
    args: constantArgs(def, nodes[0]),
    argVariables: variableArgs(scope, def, nodes[0]),
    completion,
    leaf: completion.kind === "leaf"
      ? completion.coerce
      : completion.kind === "nonNull" && completion.of.kind === "leaf"
      ? completion.of.coerce
      : undefined,
  };
}

/** The arguments, coerced once, when no variable is among them (else per request). */
function constantArgs(
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
): Record<string, unknown> | undefined {
  if (def.args.length === 0) return NO_ARGS;
  if (JSON.stringify(node.arguments ?? []).includes(`"${Kind.VARIABLE}"`)) return undefined;
  try {
    return getArgumentValues(def, node, undefined);
  } catch {
    // Coerced per request, so the field fails as graphql-js fails it.
    return undefined;
  }
}

/** The pairs of `FieldPlan.argVariables`, or `undefined`. */
function variableArgs(
  scope: Scope,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
): (readonly [string, string])[] | undefined {
  const given = node.arguments ?? [];
  if (def.args.length === 0 || given.length !== def.args.length) return undefined;
  const pairs: (readonly [string, string])[] = [];
  for (const arg of def.args) {
    const value = given.find((a) => a.name.value === arg.name)?.value;
    if (value?.kind !== Kind.VARIABLE || !scope.nonNull.has(value.name.value)) return undefined;
    pairs.push([arg.name, value.name.value]);
  }
  return pairs;
}

function completionOf(
  scope: Scope,
  type: GraphQLOutputType,
  nodes: readonly FieldNode[],
): Completion | undefined {
  if (type instanceof GraphQLNonNull) {
    const of = completionOf(scope, type.ofType, nodes);
    return of === undefined ? undefined : { kind: "nonNull", of };
  }
  if (type instanceof GraphQLList) {
    const of = completionOf(scope, type.ofType, nodes);
    return of === undefined ? undefined : { kind: "list", of, type: type.ofType };
  }
  if (isLeafType(type)) return { kind: "leaf", coerce: coercer(type), name: type.name };
  const sets = nodes.flatMap((node) => node.selectionSet === undefined ? [] : [node.selectionSet]);
  if (type instanceof GraphQLObjectType) {
    const fields = collect(scope, type, sets);
    return fields === undefined ? undefined : { kind: "object", fields, runner: runnerOf(fields) };
  }
  if (!isAbstractType(type) || typeof type.resolveType !== "function") return undefined;
  const byType = new Map<string, { type: GraphQLObjectType; fields: readonly FieldPlan[] }>();
  for (const possible of scope.schema.getPossibleTypes(type)) {
    const fields = collect(scope, possible, sets);
    if (fields === undefined) return undefined;
    byType.set(possible.name, { type: possible, fields });
  }
  return { kind: "abstract", type, schema: scope.schema, byType };
}

/** The output coercion of a leaf type, the built-in scalars' common values answered at once. */
function coercer(
  type: Parameters<typeof isLeafType>[0] & { name: string },
): (v: unknown) => unknown {
  const coerce = (type as unknown as { coerceOutputValue(value: unknown): unknown })
    .coerceOutputValue.bind(type);
  switch (type.name) {
    case "String":
    case "ID":
      return (value) => typeof value === "string" ? value : coerce(value);
    case "Boolean":
      return (value) => typeof value === "boolean" ? value : coerce(value);
    case "Int":
      return (value) =>
        (typeof value === "number" && (value | 0) === value) ? value : coerce(value);
    case "Float":
      return (value) =>
        (typeof value === "number" && Number.isFinite(value)) ? value : coerce(value);
    default:
      return coerce;
  }
}

/** graphql-js's `shouldIncludeNode`: `@skip(if: true)` or `@include(if: false)` leaves it out. */
function included(scope: Scope, directives: readonly DirectiveNode[] | undefined): boolean {
  if (directives === undefined || directives.length === 0) return true;
  const skip = directives.find((d) => d.name.value === GraphQLSkipDirective.name);
  if (
    skip !== undefined && getArgumentValues(GraphQLSkipDirective, skip, scope.variables).if === true
  ) {
    return false;
  }
  const include = directives.find((d) => d.name.value === GraphQLIncludeDirective.name);
  return include === undefined ||
    getArgumentValues(GraphQLIncludeDirective, include, scope.variables).if !== false;
}

/** graphql-js's `doesFragmentConditionMatch`. */
function matches(schema: GraphQLSchema, condition: string | undefined, type: GraphQLObjectType) {
  if (condition === undefined) return true;
  const conditional = typeFromAST(schema, {
    kind: Kind.NAMED_TYPE,
    name: { kind: Kind.NAME, value: condition },
  });
  if (conditional === type) return true;
  return isAbstractType(conditional) && schema.isSubType(conditional, type);
}
