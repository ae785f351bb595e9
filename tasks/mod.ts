/**
 * Long-running work: a leaf tagged `longRunning` is called as a task with a
 * durable handle on every surface. This is the runtime they share
 * ({@linkcode createTasks}) and the store its records live in
 * ({@linkcode memoryTasks} here, `redisTasks` from `@ramify/api/redis` for
 * several instances). See docs/tasks.md.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch } from "@ramify/api/http";
 * import { createTasks } from "@ramify/api/tasks";
 *
 * const tree = api({ reindex: op(() => ({ indexed: 3 }), { tags: { longRunning: true } }) });
 * const tasks = createTasks({ ttlMs: 24 * 60 * 60_000 });
 * const handler = createFetch(tree, { tasks });
 * ```
 *
 * @module
 */

export { createTasks } from "./runtime.ts";
export { answerTask, taskQuestions } from "./answer.ts";
export type { TaskQuestion } from "./answer.ts";
export { taskCaller } from "./owner.ts";
export type { TaskCaller, TaskOwner } from "./owner.ts";
export type { StartOptions, TaskLeaf, TaskRuntime, TasksOptions } from "./runtime.ts";
export type { HttpTaskOptions, HttpTaskRoutes } from "./types.ts";
export { isTerminal, memoryTasks } from "./store.ts";
export type {
  MemoryTasksOptions,
  TaskFailure,
  TaskListener,
  TaskLog,
  TaskRecord,
  TaskSignal,
  TaskStatus,
  TaskStore,
} from "./store.ts";
