// Runs a compiled plan (`_plan.ts`) the way graphql-js 17's `execute` runs
// the document: the same resolvers with the same arguments and context, each
// value completed by its type (lists, non-null, leaves through their output
// coercion, unions through their `resolveType`), a failing field nulled up to
// its nearest nullable ancestor with one error located at the field's nodes
// and path, and errors under a nulled position dropped. The order of work,
// promises included, mirrors graphql-js's, so errors come in its order.
// Results are ordinary objects built in field order.

import {
  type ExecutionResult,
  getArgumentValues,
  GraphQLError,
  GraphQLObjectType,
  type GraphQLOutputType,
  locatedError,
} from "graphql";
import {
  type Completion,
  fieldError,
  type FieldPlan,
  isPromiseLike,
  type Path,
  pathToArray,
  type RootPlan,
  Run,
  type VariableValues,
} from "./_run.ts";
import { completeList } from "./_lists.ts";

/** Runs the root plan: the response, or a promise of it. */
export function executePlan(
  plan: RootPlan,
  context: unknown,
  variables: VariableValues | undefined,
): ExecutionResult | Promise<ExecutionResult> {
  const run = new Run(context, variables);
  let data: unknown;
  try {
    data = plan.serial
      ? executeSerially(run, plan.fields, undefined)
      : executeFields(run, plan.fields, undefined, undefined);
  } catch (error) {
    run.add(asGraphQLError(error), undefined);
    return response(run, null);
  }
  if (data instanceof Promise) {
    return data.then((value) => response(run, value), (error) => {
      run.add(asGraphQLError(error), undefined);
      return response(run, null);
    });
  }
  return response(run, data);
}

function response(run: Run, data: unknown): ExecutionResult {
  return (run.errors.length > 0 ? { errors: run.errors, data } : { data }) as ExecutionResult;
}

function asGraphQLError(error: unknown): GraphQLError {
  return error instanceof GraphQLError ? error : locatedError(error, undefined, undefined);
}

function executeSerially(run: Run, fields: readonly FieldPlan[], path: Path | undefined): unknown {
  const results: Record<string, unknown> = {};
  let index = 0;
  const next = (): unknown => {
    while (index < fields.length) {
      const field = fields[index++];
      const value = executeField(run, field, undefined, path);
      if (value instanceof Promise) {
        return value.then((resolved) => {
          results[field.key] = resolved;
          return next();
        });
      }
      results[field.key] = value;
    }
    return results;
  };
  return next();
}

export function executeFields(
  run: Run,
  fields: readonly FieldPlan[],
  source: unknown,
  path: Path | undefined,
): unknown {
  const results: Record<string, unknown> = {};
  let pending = false;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const value = executeField(run, field, source, path);
    results[field.key] = value;
    if (value instanceof Promise) pending = true;
  }
  return pending ? settleFields(Object.keys(results), Object.values(results)) : results;
}

/** The response object of fields some of whose values are promises, once all have settled. */
export function settleFields(
  keys: readonly string[],
  values: readonly unknown[],
): Promise<Record<string, unknown>> {
  return Promise.all(values).then((settled) => {
    const resolved: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) resolved[keys[i]] = settled[i];
    return resolved;
  });
}

/** Runs one field under `parent`; its own path is made only when something needs it. */
export function executeField(
  run: Run,
  field: FieldPlan,
  source: unknown,
  parent: Path | undefined,
): unknown {
  let result: unknown;
  try {
    if (field.typename) result = field.parent.name;
    else {
      const args = field.args ?? argumentsOf(field, run.variables);
      result = field.resolve === undefined
        ? readProperty(source, field, args, run.context, parent)
        : field.resolve(source, args, run.context, undefined as never);
    }
  } catch (error) {
    fieldError(run, error, field.type, field.nodes, { prev: parent, key: field.key });
    return null;
  }
  return completeField(run, field, result, parent);
}

/** A field's arguments given by variables, as graphql-js's `getArgumentValues` gives them. */
function argumentsOf(field: FieldPlan, variables: VariableValues | undefined): Args {
  const pairs = field.argVariables;
  if (pairs === undefined || variables === undefined) {
    return getArgumentValues(field.def, field.nodes[0], variables);
  }
  const args: Args = Object.create(null);
  for (let i = 0; i < pairs.length; i++) args[pairs[i][0]] = variables.coerced[pairs[i][1]];
  return args;
}

type Args = Record<string, unknown>;

/**
 * A default-resolved field whose property (`value`, read once from the
 * object `source`) a generated runner (`_generated.ts`) did not complete at
 * once: what `executeField` does from there, the property called when it is
 * a function (read again, as graphql-js's default resolver reads it).
 */
export function completeProperty(
  run: Run,
  field: FieldPlan,
  source: unknown,
  value: unknown,
  parent: Path | undefined,
): unknown {
  if (typeof value === "function") {
    try {
      const args = field.args ?? getArgumentValues(field.def, field.nodes[0], run.variables);
      value = callProperty(source as Record<string, unknown>, field, args, run.context, parent);
    } catch (error) {
      fieldError(run, error, field.type, field.nodes, { prev: parent, key: field.key });
      return null;
    }
  }
  return completeField(run, field, value, parent);
}

/** Completes a field's resolved value (or its promise) as its type says. */
function completeField(
  run: Run,
  field: FieldPlan,
  result: unknown,
  parent: Path | undefined,
): unknown {
  // The common case: a scalar that coerces as it is. Anything else (null, an
  // error, a refusal) goes the whole way below, which coerces again.
  const leaf = field.leaf;
  if (leaf !== undefined && result !== null && typeof result !== "object") {
    try {
      const coerced = leaf(result);
      if (coerced !== null && coerced !== undefined) return coerced;
    } catch {
      // Reported below, where the error gets its path.
    }
  }
  const path: Path = { prev: parent, key: field.key };
  try {
    if (isPromiseLike(result)) {
      return completePromised(run, field, field.completion, field.type, path, result);
    }
    const completed = complete(run, field, field.completion, path, result);
    if (completed instanceof Promise) {
      return completed.then(undefined, (error) => {
        fieldError(run, error, field.type, field.nodes, path);
        return null;
      });
    }
    return completed;
  } catch (error) {
    fieldError(run, error, field.type, field.nodes, path);
    return null;
  }
}

/** graphql-js's default resolver: the property, called when it is a function. */
function readProperty(
  source: unknown,
  field: FieldPlan,
  args: Record<string, unknown>,
  context: unknown,
  parent: Path | undefined,
): unknown {
  if ((typeof source !== "object" || source === null) && typeof source !== "function") {
    return undefined;
  }
  const property = (source as Record<string, unknown>)[field.name];
  if (typeof property !== "function") return property;
  return callProperty(source as Record<string, unknown>, field, args, context, parent);
}

function callProperty(
  holder: Record<string, unknown>,
  field: FieldPlan,
  args: Record<string, unknown>,
  context: unknown,
  parent: Path | undefined,
): unknown {
  const info = {
    fieldName: field.name,
    fieldNodes: field.nodes,
    returnType: field.type,
    parentType: field.parent,
    path: { ...pathToArray({ prev: parent, key: field.key }) },
  };
  return (holder[field.name] as (...args: unknown[]) => unknown)(args, context, info);
}

export async function completePromised(
  run: Run,
  field: FieldPlan,
  completion: Completion,
  type: GraphQLOutputType,
  path: Path,
  result: PromiseLike<unknown>,
): Promise<unknown> {
  try {
    const resolved = await result;
    let completed = complete(run, field, completion, path, resolved);
    if (completed instanceof Promise) completed = await completed;
    return completed;
  } catch (error) {
    fieldError(run, error, type, field.nodes, path);
    return null;
  }
}

export function complete(
  run: Run,
  field: FieldPlan,
  completion: Completion,
  path: Path,
  value: unknown,
): unknown {
  if (value instanceof Error) throw value;
  if (completion.kind === "nonNull") {
    const completed = complete(run, field, completion.of, path, value);
    if (completed === null) {
      throw new Error(
        `Cannot return null for non-nullable field ${field.parent.name}.${field.name}.`,
      );
    }
    return completed;
  }
  if (value === null || value === undefined) return null;
  switch (completion.kind) {
    case "leaf": {
      const coerced = completion.coerce(value);
      if (coerced === null || coerced === undefined) {
        throw notCoerced(completion.name, value, coerced);
      }
      return coerced;
    }
    case "object":
      return completion.runner === undefined
        ? executeFields(run, completion.fields, value, path)
        : completion.runner(run, value, path);
    case "list":
      return completeList(run, field, completion, path, value, COMPLETER);
    case "abstract":
      return completeAbstract(run, field, completion, path, value);
  }
}

function notCoerced(name: string, value: unknown, coerced: unknown): Error {
  const show = (v: unknown) => typeof v === "string" ? JSON.stringify(v) : String(v);
  return new Error(
    `Expected \`${name}.coerceOutputValue(${
      show(value)
    })\` to return non-nullable value, returned: ${show(coerced)}`,
  );
}

function completeAbstract(
  run: Run,
  field: FieldPlan,
  completion: Extract<Completion, { kind: "abstract" }>,
  path: Path,
  value: unknown,
): unknown {
  const abstract = completion.type;
  const name = abstract.resolveType!(value, run.context, undefined as never, abstract);
  if (isPromiseLike(name)) {
    return Promise.resolve(name).then((resolved) =>
      executeFields(run, runtimeFields(field, completion, resolved, value), value, path)
    );
  }
  return executeFields(run, runtimeFields(field, completion, name, value), value, path);
}

/** graphql-js's `ensureValidRuntimeType`, with its messages. */
function runtimeFields(
  field: FieldPlan,
  completion: Extract<Completion, { kind: "abstract" }>,
  name: unknown,
  value: unknown,
): readonly FieldPlan[] {
  const abstract = completion.type;
  const where = `${field.parent.name}.${field.name}`;
  if (name === null || name === undefined) {
    throw new GraphQLError(
      `Abstract type "${abstract.name}" must resolve to an Object type at runtime for field "${where}". Either the "${abstract.name}" type should provide a "resolveType" function or each possible type should provide an "isTypeOf" function.`,
      { nodes: field.nodes },
    );
  }
  if (typeof name !== "string") {
    throw new GraphQLError(
      `Abstract type "${abstract.name}" must resolve to an Object type at runtime for field "${where}" with value ${
        String(value)
      }, received "${String(name)}", which is not a valid Object type name.`,
    );
  }
  const runtime = completion.byType.get(name);
  if (runtime !== undefined) return runtime.fields;
  const type = completion.schema.getType(name);
  throw new GraphQLError(
    type === undefined || type === null
      ? `Abstract type "${abstract.name}" was resolved to a type "${name}" that does not exist inside the schema.`
      : !(type instanceof GraphQLObjectType)
      ? `Abstract type "${abstract.name}" was resolved to a non-object type "${name}".`
      : `Runtime Object type "${name}" is not a possible type for "${abstract.name}".`,
    { nodes: field.nodes },
  );
}

/** What `_lists.ts` completes items with (given, so the two modules import one way). */
const COMPLETER = { complete, completePromised };
