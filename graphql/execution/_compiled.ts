// The compiled executor, the default behind the server's seam (`_executor.ts`):
// each document's operations compiled once (`_plan.ts`) and kept beside the
// document (a weak map: a plan lives as long as its document, whom the
// document cache bounds), run by `_execute.ts`. Whatever no plan covers, and
// every subscription, is left to graphql-js (the executor it is given),
// counted in `stats.fallback`.

import {
  type DocumentNode,
  getVariableValues,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  type GraphQLSchema,
  GraphQLString,
  type GraphQLType,
  Kind,
  typeFromAST,
  type VariableDefinitionNode,
} from "graphql";
import { compileOperation } from "./_plan.ts";
import type { OperationPlan, VariableValues } from "./_run.ts";
import { executePlan } from "./_execute.ts";
import type { Executor, ExecutorBase } from "./_executor.ts";

const NO_PLAN = null;

/**
 * The compiled executor of a schema, which `schemaOf` builds on first use;
 * what it does not cover runs on `fallback`.
 */
export function compiledExecutor(
  { schemaOf, cancelled, counts }: ExecutorBase,
  fallback: Executor,
): Executor {
  const plans = new WeakMap<DocumentNode, Map<string, OperationPlan | typeof NO_PLAN>>();
  const scalarVariables = new WeakMap<OperationPlan, readonly ScalarVariable[] | null>();
  const scalarsOf = (plan: OperationPlan) => {
    let found = scalarVariables.get(plan);
    if (found === undefined) {
      scalarVariables.set(plan, found = scalarsOnly(schemaOf(), plan.variables));
    }
    return found;
  };
  const planOf = (document: DocumentNode, operationName: string | undefined) => {
    let byName = plans.get(document);
    if (byName === undefined) plans.set(document, byName = new Map());
    const key = operationName ?? "";
    let plan = byName.get(key);
    if (plan === undefined) {
      plan = compileOperation(schemaOf(), document, operationName) ?? NO_PLAN;
      // Names a client makes up must not grow the map: only a found operation's plan is kept.
      if (plan !== NO_PLAN || byName.size === 0) byName.set(key, plan);
    }
    return plan;
  };
  return {
    execute(document, request, context) {
      const plan = planOf(document, request.operationName ?? undefined);
      if (plan === NO_PLAN) return fallback.execute(document, request, context);
      let variables: VariableValues | undefined;
      if (plan.variables.length > 0) {
        const scalars = scalarsOf(plan);
        variables = scalars === null ? undefined : coerceScalars(scalars, request.variables ?? {});
      }
      if (variables === undefined && plan.variables.length > 0) {
        const coerced = getVariableValues(schemaOf(), plan.variables, request.variables ?? {}, {
          maxErrors: 50,
        });
        if (coerced.errors !== undefined) {
          counts.compiled++;
          return { errors: coerced.errors };
        }
        variables = coerced.variableValues;
      }
      const root = plan.rootFor(variables);
      if (root === undefined) return fallback.execute(document, request, context);
      counts.compiled++;
      const result = executePlan(root, context, variables);
      if (!(result instanceof Promise)) return result;
      // Read only now: a request's signal costs microseconds to make, and a plan
      // that answered at once has nothing left to stop.
      const signal = context.signal;
      if (signal === undefined) return result;
      if (signal.aborted) return Promise.resolve(cancelled(signal.reason, context));
      // As graphql-js with an abort signal: a caller that goes away ends the wait at once.
      return new Promise((resolve, reject) => {
        const abort = () => resolve(cancelled(signal.reason, context));
        signal.addEventListener("abort", abort, { once: true });
        result.then((value) => {
          signal.removeEventListener("abort", abort);
          resolve(signal.aborted ? cancelled(signal.reason, context) : value);
        }, (error) => {
          signal.removeEventListener("abort", abort);
          reject(error);
        });
      });
    },
    subscribe: (document, request, context) => fallback.subscribe(document, request, context),
  };
}

/** A variable of a built-in scalar type without a default: most variables are. */
interface ScalarVariable {
  readonly name: string;
  readonly nonNull: boolean;
  /** Whether a value is its own coercion (graphql-js's `coerceInputValue` gives it back). */
  readonly check: (value: unknown) => boolean;
  /** graphql-js's `getVariableSignature` of it. */
  readonly signature: { name: string; type: GraphQLType; default: undefined };
}

const SCALAR_CHECKS = new Map<unknown, (value: unknown) => boolean>([
  [GraphQLString, (value) => typeof value === "string"],
  [GraphQLID, (value) => typeof value === "string"],
  [GraphQLBoolean, (value) => typeof value === "boolean"],
  [GraphQLInt, (value) => typeof value === "number" && (value | 0) === value],
  [GraphQLFloat, (value) => typeof value === "number" && Number.isFinite(value)],
]);

/** The variables as `ScalarVariable`s, or `null` when one is of another kind. */
function scalarsOnly(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
): ScalarVariable[] | null {
  const scalars: ScalarVariable[] = [];
  for (const definition of definitions) {
    if (definition.defaultValue !== undefined || (definition.directives?.length ?? 0) > 0) {
      return null;
    }
    const nonNull = definition.type.kind === Kind.NON_NULL_TYPE;
    const named = nonNull
      ? (definition.type as { type: typeof definition.type }).type
      : definition.type;
    if (named.kind !== Kind.NAMED_TYPE) return null;
    const check = SCALAR_CHECKS.get(schema.getType(named.name.value));
    const type = typeFromAST(schema, definition.type);
    if (check === undefined || type === undefined) return null;
    const name = definition.variable.name.value;
    scalars.push({ name, nonNull, check, signature: { name, type, default: undefined } });
  }
  return scalars;
}

/**
 * graphql-js's `getVariableValues` when every value is its own coercion (or a
 * nullable one is absent or null), the same `{ sources, coerced }`;
 * `undefined` for anything else, which `getVariableValues` then coerces or
 * refuses with its errors.
 */
function coerceScalars(
  scalars: readonly ScalarVariable[],
  inputs: Readonly<Record<string, unknown>>,
): VariableValues | undefined {
  const sources = Object.create(null);
  const coerced = Object.create(null);
  for (let i = 0; i < scalars.length; i++) {
    const { name, nonNull, check, signature } = scalars[i];
    const value = Object.hasOwn(inputs, name) ? inputs[name] : undefined;
    if (value === undefined || value === null) {
      if (nonNull) return undefined;
      if (value === undefined) {
        sources[name] = { signature };
        continue;
      }
    } else if (!check(value)) return undefined;
    sources[name] = { signature, value };
    coerced[name] = value;
  }
  return { sources, coerced };
}
