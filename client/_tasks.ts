// The answers of long-running leaves on the client (see `TaskHandle`): a
// `202` with a `Location` becomes a handle, or, by default, the result, read
// by polling `{Location}/result` with backoff (the same decoding as any call:
// a value, or a `ClientError` of the problem). A caller's abort while it
// awaits cancels the task, as a caller leaving a call aborts its handler.
// The handle answers the task's question at `{Location}/input`.

import { pollTask } from "./task_poll.ts";
import type { TaskHandle, TaskState } from "./client_types.ts";

/** The first and the longest pause between polls, in milliseconds. */

/** What the call lends a task's requests: its transport, and its decoding. */
export interface TaskIo {
  /**
   * Sends a GET, a DELETE or (with a JSON `body`) a POST to `url` with the
   * call's headers and extensions.
   */
  send(method: "GET" | "DELETE" | "POST", url: string, body?: string): Promise<Response>;
  /** Decodes a response as the call's answer (rejects with a `ClientError` when not OK). */
  decode(response: Response, url: string): Promise<unknown>;
  /** Reads a status document (rejects with a `ClientError` when not OK). */
  state(response: Response, url: string): Promise<TaskState>;
}

/**
 * The answer of a call of a long-running leaf (or one asked `async`): a
 * handle when asked, else the result.
 */
export async function taskAnswer(
  response: Response,
  callUrl: string,
  async: boolean,
  signal: AbortSignal | undefined,
  io: TaskIo,
): Promise<unknown> {
  const location = response.headers.get("location");
  if (response.status !== 202 || location === null) {
    if (!async) return await io.decode(response, callUrl);
    return settledHandle(io.decode(response, callUrl));
  }
  const url = new URL(location, callUrl).href;
  const first = await io.state(response, url);
  const handle = taskHandle(first.id, url, io);
  if (async) return handle;
  const stop = () => void io.send("DELETE", url).then((gone) => gone.body?.cancel(), () => {});
  signal?.addEventListener("abort", stop, { once: true });
  try {
    return await poll(url, io, signal);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

function taskHandle(
  id: string | undefined,
  url: string,
  io: TaskIo,
): TaskHandle<unknown, unknown> {
  return {
    id,
    location: url,
    status: async () => io.state(await io.send("GET", url), url),
    result: () => poll(url, io, undefined),
    cancel: async () => io.state(await io.send("DELETE", url), url),
    answer: async (answer, key) => {
      const input = `${url}/input`;
      const body = JSON.stringify(key === undefined ? { answer } : { answer, key });
      return io.state(await io.send("POST", input, body), input);
    },
  };
}

/** Polls the result resource until it is no longer `202`, then decodes it as the call's answer. */
async function poll(url: string, io: TaskIo, signal: AbortSignal | undefined): Promise<unknown> {
  const resultUrl = `${url}/result`;
  return await pollTask(async () => {
    const response = await io.send("GET", resultUrl);
    if (response.status !== 202) return { value: await io.decode(response, resultUrl) };
    await response.body?.cancel();
    return undefined;
  }, signal);
}

/** A handle of a call the server answered at once: nothing to poll or cancel. */
function settledHandle(answer: Promise<unknown>): TaskHandle<unknown, unknown> {
  // Read when asked: a failure nobody asks for must not go unhandled.
  answer.catch(() => {});
  const state = (): Promise<TaskState> =>
    answer.then(
      (): TaskState => ({ status: "completed", logs: [] }),
      (): TaskState => ({ status: "failed", logs: [] }),
    );
  return {
    id: undefined,
    location: undefined,
    status: state,
    result: () => answer,
    cancel: state,
    answer: () => Promise.reject(new Error("The server answered the call at once: no task asks")),
  };
}
