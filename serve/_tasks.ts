// The task runtime a handler makes for its tree, when the caller gave none:
// only a tree with a long-running leaf (tag `longRunning`) needs one, and only
// then is its code loaded.

import type { Node } from "../tree/node.ts";
import { catalogueOf } from "../tree/catalogue.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";

/** A runtime in memory for a tree with a long-running leaf; `undefined` for any other. */
export async function tasksOf(tree: Node): Promise<TaskRuntime | undefined> {
  if (!catalogueOf(tree).entries.some((entry) => entry.longRunning)) return undefined;
  const { createTasks } = await import("../tasks/runtime.ts");
  return createTasks();
}
