// Waiting on a task for a change: the one way `settled` (until it ends) and
// `answerTask` (until its answer is taken in) wait, each with a deadline.

import type { TaskCaller } from "./owner.ts";
import type { TaskRecord } from "./store.ts";

/** What waiting needs of the runtime: its watch. */
type Watching = {
  watch(
    id: string,
    caller: TaskCaller,
    listener: (record: TaskRecord) => void,
  ): Promise<(() => Promise<void>) | undefined>;
};

/**
 * Runs `body` with the task watched from the start (so that no change it
 * causes is missed); `body`'s `wait(ms)` resolves at the first change that
 * `done` accepts, or after `ms`. Undefined when the task cannot be watched
 * (unknown, or another identity's). The watch ends with `body`.
 */
export async function whileWatched<T>(
  runtime: Watching,
  id: string,
  caller: TaskCaller,
  done: (record: TaskRecord) => boolean,
  body: (wait: (ms: number) => Promise<void>) => Promise<T>,
): Promise<T | undefined> {
  let wake = () => {};
  const changed = new Promise<void>((resolve) => wake = resolve);
  const stop = await runtime.watch(id, caller, (record) => {
    if (done(record)) wake();
  });
  if (stop === undefined) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = (ms: number) =>
    Promise.race([changed, new Promise<void>((resolve) => timer = setTimeout(resolve, ms))]);
  try {
    return await body(wait);
  } finally {
    clearTimeout(timer);
    await stop();
  }
}
