// Lists completed as graphql-js completes them (`_execute.ts` for the rest):
// each item at its own path, a failing item nulled (or its error passed up
// when the item type is non-null), promises awaited together; an async
// iterable read item by item. A list of objects that a generated runner
// completes (`_generated.ts`) takes a shorter loop with the same outcome.

import { GraphQLError, type GraphQLOutputType, locatedError } from "graphql";
import {
  type Completion,
  fieldError,
  type FieldPlan,
  isPromiseLike,
  type ObjectRunner,
  type Path,
  pathToArray,
  type Run,
} from "./_run.ts";

/** `_execute.ts`'s completion of one value, and of a promised one. */
export interface Completer {
  complete(run: Run, field: FieldPlan, completion: Completion, path: Path, value: unknown): unknown;
  completePromised(
    run: Run,
    field: FieldPlan,
    completion: Completion,
    type: GraphQLOutputType,
    path: Path,
    result: PromiseLike<unknown>,
  ): Promise<unknown>;
}

type ListCompletion = Extract<Completion, { kind: "list" }>;

/** The runner of a list's items when they are objects (non-null or not) with one. */
function objectRunner(item: Completion): ObjectRunner | undefined {
  const inner = item.kind === "nonNull" ? item.of : item;
  return inner.kind === "object" ? inner.runner : undefined;
}

/**
 * `completeItem` over an array of objects, an item that is an ordinary object
 * handed to the runner at once: what `complete` does with it after the checks
 * it passes (not a promise, not an error, not null). Any other item takes
 * `completeItem`.
 */
function completeObjects(
  run: Run,
  field: FieldPlan,
  completion: ListCompletion,
  path: Path,
  items: readonly unknown[],
  runner: ObjectRunner,
  completer: Completer,
): unknown {
  const results: unknown[] = [];
  let pending = false;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const itemPath: Path = { prev: path, key: index };
    if (
      typeof item !== "object" || item === null ||
      typeof (item as { then?: unknown }).then === "function" || item instanceof Error
    ) {
      if (completeItem(run, field, completion, itemPath, item, results, completer)) pending = true;
      continue;
    }
    let completed: unknown;
    try {
      completed = runner(run, item, itemPath);
    } catch (error) {
      fieldError(run, error, completion.type, field.nodes, itemPath);
      results.push(null);
      continue;
    }
    if (completed instanceof Promise) {
      pending = true;
      results.push(completed.then(undefined, (error) => {
        fieldError(run, error, completion.type, field.nodes, itemPath);
        return null;
      }));
    } else results.push(completed);
  }
  return pending ? Promise.all(results) : results;
}

export function completeList(
  run: Run,
  field: FieldPlan,
  completion: ListCompletion,
  path: Path,
  value: unknown,
  completer: Completer,
): unknown {
  if (typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function") {
    return completeAsyncList(
      run,
      field,
      completion,
      path,
      value as AsyncIterable<unknown>,
      completer,
    );
  }
  if (
    typeof value !== "object" ||
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== "function"
  ) {
    throw new GraphQLError(
      `Expected Iterable, but did not find one for field "${field.parent.name}.${field.name}".`,
    );
  }
  if (Array.isArray(value)) {
    const runner = objectRunner(completion.of);
    if (runner !== undefined) {
      return completeObjects(run, field, completion, path, value, runner, completer);
    }
  }
  const results: unknown[] = [];
  let pending = false;
  let index = 0;
  for (const item of value as Iterable<unknown>) {
    const itemPath: Path = { prev: path, key: index++ };
    if (completeItem(run, field, completion, itemPath, item, results, completer)) pending = true;
  }
  return pending ? Promise.all(results) : results;
}

/** Completes one item into `results`; whether it is a promise. */
function completeItem(
  run: Run,
  field: FieldPlan,
  completion: ListCompletion,
  path: Path,
  item: unknown,
  results: unknown[],
  completer: Completer,
): boolean {
  if (isPromiseLike(item)) {
    results.push(
      completer.completePromised(run, field, completion.of, completion.type, path, item),
    );
    return true;
  }
  try {
    const completed = completer.complete(run, field, completion.of, path, item);
    if (completed instanceof Promise) {
      results.push(completed.then(undefined, (error) => {
        fieldError(run, error, completion.type, field.nodes, path);
        return null;
      }));
      return true;
    }
    results.push(completed);
  } catch (error) {
    fieldError(run, error, completion.type, field.nodes, path);
    results.push(null);
  }
  return false;
}

async function completeAsyncList(
  run: Run,
  field: FieldPlan,
  completion: ListCompletion,
  path: Path,
  items: AsyncIterable<unknown>,
  completer: Completer,
): Promise<unknown> {
  const results: unknown[] = [];
  let pending = false;
  const iterator = items[Symbol.asyncIterator]();
  for (let index = 0;; index++) {
    let step: IteratorResult<unknown>;
    try {
      step = await iterator.next();
    } catch (error) {
      throw locatedError(error, field.nodes, pathToArray(path));
    }
    if (step.done) break;
    const itemPath: Path = { prev: path, key: index };
    if (completeItem(run, field, completion, itemPath, step.value, results, completer)) {
      pending = true;
    }
  }
  return pending ? Promise.all(results) : results;
}
