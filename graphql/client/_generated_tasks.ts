// What a generated client module holds for long-running fields (leaves tagged
// `longRunning`), and only when the tree has one: an import of the package's
// task code (`longRunningCall`, the typed client's polling and handle, not a
// copy of it) and of its `TaskHandle` type, the call's options and overloaded
// type, and the function its calls go through. A module without a
// long-running field stays free of imports.

/** Where the generated module finds the task code, and the handle's type. */
export const TASK_IMPORTS = `import { longRunningCall } from "@ramify/api/graphql/client";
import type { TaskHandle } from "@ramify/api/client";
export type { TaskHandle };`;

/** The names this part of the runtime takes (a schema type of one of them would clash). */
export const TASK_RUNTIME_TYPES: ReadonlySet<string> = new Set([
  "TaskCall",
  "TaskCallOptions",
  "TaskHandle",
]);

/** The runtime's task part; it follows the runtime, whose `GraphQLCall` and error it uses. */
export const TASK_RUNTIME = `/** The options of a long-running operation's call. */
export type TaskCallOptions = {
  /** Stops the wait for the result, and cancels the task. */
  readonly signal?: AbortSignal;
  /** \`true\` resolves at once with the task's handle instead of its result. */
  readonly async?: boolean;
};

/**
 * A long-running operation's call (its leaf runs as a task): its result once
 * the task ends, or the error of its failure; with \`{ async: true }\` the
 * task's handle at once (\`id\`, \`status()\`, \`result()\`, \`cancel()\`).
 */
export interface TaskCall<A extends unknown[], T, E = Record<never, never>> {
  (...args: [...A, options: TaskCallOptions & { readonly async: true }]): Promise<TaskHandle<T, E>>;
  (...args: [...A, options?: TaskCallOptions]): GraphQLCall<T, E>;
}

function task<T, E = Record<never, never>>(
  transport: Transport,
  operation: Operation,
  path: readonly string[],
  voidResult: boolean,
  errors: readonly string[],
  options: TaskCallOptions = {},
): GraphQLCall<T, E> {
  return longRunningCall({
    transport,
    operation,
    path,
    voidResult,
    errors,
    // The module's own class, so that its safeGraphQL and instanceof know the error.
    error: (list, data, declared) => new GraphQLClientError(list, data, declared),
  }, options) as GraphQLCall<T, E>;
}`;
