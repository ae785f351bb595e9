// What a compiled plan is (`_plan.ts` makes one) and what running it needs
// (`_execute.ts`, `_lists.ts`, `_generated.ts`): the plan's types, the
// execution's state (its errors, the positions they nulled) and paths.

import {
  type FieldNode,
  type getArgumentValues,
  type GraphQLAbstractType,
  type GraphQLError,
  type GraphQLField,
  type GraphQLFieldResolver,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  locatedError,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from "graphql";

/** A generated `executeFields(run, fields, source, path)` for one plan's fields (`_generated.ts`). */
export type ObjectRunner = (run: Run, source: unknown, path: Path | undefined) => unknown;

/** Coerced variable values as graphql-js 17 keeps them. */
export type VariableValues = NonNullable<Parameters<typeof getArgumentValues>[2]>;

/** How a value of one output type is completed (see `_execute.ts`). */
export type Completion =
  | { readonly kind: "nonNull"; readonly of: Completion }
  | { readonly kind: "list"; readonly of: Completion; readonly type: GraphQLOutputType }
  | { readonly kind: "leaf"; readonly coerce: (value: unknown) => unknown; readonly name: string }
  | {
    readonly kind: "object";
    readonly fields: readonly FieldPlan[];
    /** `executeFields` over these fields, generated for them (`_generated.ts`), when it could be. */
    readonly runner: ObjectRunner | undefined;
  }
  | {
    readonly kind: "abstract";
    readonly type: GraphQLAbstractType;
    readonly schema: GraphQLSchema;
    readonly byType: ReadonlyMap<string, { type: GraphQLObjectType; fields: readonly FieldPlan[] }>;
  };

/** One response key of a selection: what runs and how its value is completed. */
export interface FieldPlan {
  readonly key: string;
  readonly name: string;
  readonly parent: GraphQLObjectType;
  readonly nodes: readonly FieldNode[];
  readonly def: GraphQLField<unknown, unknown>;
  readonly type: GraphQLOutputType;
  /** The field's resolver; `undefined` reads the property of the same name (graphql-js's default). */
  readonly resolve: GraphQLFieldResolver<unknown, unknown> | undefined;
  /** `__typename`: the parent type's name. */
  readonly typename: boolean;
  /** The arguments when no variable is in them; `undefined`: coerced per request. */
  readonly args: Record<string, unknown> | undefined;
  /**
   * When every argument is given as a non-null variable: `[argument, variable]`
   * pairs in the definition's order, whose coerced values are the arguments as
   * `getArgumentValues` would make them.
   */
  readonly argVariables: readonly (readonly [string, string])[] | undefined;
  readonly completion: Completion;
  /** A scalar or enum field's output coercion: its common values complete without a path. */
  readonly leaf: ((value: unknown) => unknown) | undefined;
}

/** The root fields of one operation for one set of `@skip`/`@include` outcomes. */
export interface RootPlan {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldPlan[];
  readonly serial: boolean;
}

/** One operation compiled: its variables, and its root plans by condition outcome. */
export interface OperationPlan {
  readonly operation: OperationDefinitionNode;
  readonly variables: readonly VariableDefinitionNode[];
  /** The variables `@skip`/`@include` read: each outcome gets its own root plan. */
  readonly conditions: readonly string[];
  /** The root plan for these coerced variables, or `undefined` when graphql-js must decide. */
  rootFor(variables: VariableValues | undefined): RootPlan | undefined;
}

export interface Path {
  readonly prev: Path | undefined;
  readonly key: string | number;
}

/** One execution: its context, variables and errors. */
export class Run {
  readonly errors: GraphQLError[] = [];
  /** Positions nulled by an error: errors beneath them are not reported (graphql-js drops them too). */
  nulled: Set<Path | undefined> | undefined;
  constructor(readonly context: unknown, readonly variables: VariableValues | undefined) {}

  add(error: GraphQLError, path: Path | undefined) {
    const nulled = this.nulled ??= new Set();
    for (let at = path; at !== undefined; at = at.prev) if (nulled.has(at)) return;
    if (nulled.has(undefined)) return;
    nulled.add(path);
    this.errors.push(error);
  }
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

export function pathToArray(path: Path | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at = path; at !== undefined; at = at.prev) keys.push(at.key);
  return keys.reverse();
}

export function fieldError(
  run: Run,
  raw: unknown,
  type: GraphQLOutputType,
  nodes: readonly FieldNode[],
  path: Path,
): void {
  const error = locatedError(raw, nodes, pathToArray(path));
  if (type instanceof GraphQLNonNull) throw error;
  run.add(error, path);
}
