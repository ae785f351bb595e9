/**
 * A task runtime's resources over HTTP (tag `longRunning`, see docs/tasks.md):
 * the router of a tree with a long-running leaf gets them from the runtime it
 * is given (`TaskRuntime.http`), so a REST bundle without one holds none of
 * this, nor the runtime. A long-running leaf's route starts a task and answers
 * `202 Accepted` with `Location` of its status resource, `{prefix}/{id}`:
 *
 * - `GET {prefix}/{id}`: the task's status document (status, progress, log
 *   lines, its question, the result or the problem);
 * - `GET {prefix}/{id}/result`: the answer the route would have given (the
 *   result as JSON, a failure as problem+json with its status), `202` with
 *   the status document while it runs;
 * - `DELETE {prefix}/{id}`: cancels it (its handler's signal aborts);
 * - `POST {prefix}/{id}/input`: answers the question its handler asked
 *   (`{ "answer": ..., "key"?: ... }`), as `answerTask` does for every surface.
 *
 * `Prefer` (RFC 7240): `respond-async` asks for the handle at once, as does no
 * preference; `wait=N` waits up to N seconds (at most 60) for the answer: a
 * call done by then is answered as a normal call is. Both are marked in
 * `Preference-Applied`. The router lends its web kit (`HttpTaskOptions`):
 * how it reads a body and writes a value or a failure.
 *
 * @example
 * ```ts
 * import { createTasks } from "@ramify/api/tasks";
 *
 * const routes = createTasks().http({
 *   prefix: "/.tasks",
 *   taskOwner: undefined,
 *   context: undefined,
 *   report: console.error,
 *   statuses: new Map(),
 *   leaves: new Map(),
 *   read: async (request) => await request.json(),
 *   failure: (failure) => Response.json({ title: failure.title }, { status: failure.status }),
 *   problem: (failure) => ({ status: failure.status, title: failure.title }),
 *   value: (value, status) => Response.json(value, { status }),
 * });
 * const response = await routes.answer(new Request("http://localhost/.tasks/nope"), "nope");
 * console.log(response.status); // 404
 * ```
 *
 * @module
 */

import { taskCaller } from "./owner.ts";
import { principalOf } from "../tree/principal.ts";
import { contextOf } from "../engine/engine.ts";
import { RequestContext } from "../engine/request_context.ts";
import type { LeafCall } from "../tree/call.ts";
import { classify, type Failure } from "../tree/failure.ts";
import { HttpError } from "../tree/http_error.ts";
import { mediaTypeEssence } from "../tree/media_type.ts";
import { answerTask, taskQuestions } from "./answer.ts";
import type { HttpTaskOptions, HttpTaskRoutes, TaskLeaf, TaskRuntime } from "./types.ts";
import { isTerminal, type TaskRecord } from "./store.ts";

/** The longest `Prefer: wait` honoured, in seconds: a longer one waits this long. */
const MAX_WAIT_S = 60;
/** The seconds a client is asked to wait before it polls again (`Retry-After`). */
const POLL_S = 1;

/**
 * The task resources of one router over `runtime`: what `TaskRuntime.http` gives.
 *
 * @example
 * ```ts
 * import { createTasks } from "@ramify/api/tasks";
 *
 * const tasks = createTasks();
 * console.log(typeof tasks.http); // "function": a router calls it with its kit
 * ```
 */
export function httpTaskRoutes(runtime: TaskRuntime, opts: HttpTaskOptions): HttpTaskRoutes {
  const ownerOf = opts.taskOwner ?? principalOf;
  const locationOf = (id: string) => `${opts.prefix}/${id}`;
  const problem = (status: number, detail: string, headers?: Record<string, string>) =>
    opts.failure(classify(new HttpError(status, detail, { headers })));
  const notFound = () => problem(404, "No such task");
  // The answer of a terminal task, as its route would have answered the call.
  const answerOf = (task: TaskRecord, status: number): Response =>
    task.status === "completed" ? opts.value(task.result, status) : opts.failure(failureOf(task));
  // A task's status document, as `GET {prefix}/{id}` answers it.
  const statusResponse = (record: TaskRecord, status: number, location: string): Response => {
    const headers = new Headers({ "content-type": "application/json", vary: "Prefer" });
    if (status === 202) headers.set("location", location);
    if (!isTerminal(record.status)) headers.set("retry-after", String(POLL_S));
    const document = documentOf(record, location, opts.problem);
    return new Response(JSON.stringify(document), { status, headers });
  };

  const starter = (leaf: TaskLeaf, status: number): LeafCall => async (input, context) => {
    const request = context.request as Request;
    const prefer = preferenceOf(request.headers.get("prefer"));
    // Decided once the guards let the call through, by whom they established.
    let owner: string | undefined;
    // A store out of reach is the runtime's 503; a call its guards or input schema
    // refuse throws what any call of the route would, for the router to answer.
    const record: TaskRecord = await runtime.start(leaf, input, context, {
      owner: async (guarded) => owner = await ownerOf(guarded),
      // Its questions are answered at `{location}/input`.
      answers: true,
      onError: (error) => opts.report(error, request),
    });
    if (prefer.wait !== undefined && !prefer.async) {
      const done = await runtime.settled(record.id, owner, prefer.wait * 1000).catch(() => record);
      if (done !== undefined && isTerminal(done.status)) {
        return applied(answerOf(done, status), `wait=${prefer.wait}`);
      }
    }
    const accepted = statusResponse(record, 202, locationOf(record.id));
    return prefer.async ? applied(accepted, "respond-async") : accepted;
  };

  const answer = async (request: Request, rest: string): Promise<Response> => {
    const [id, tail, extra] = rest.split("/");
    const result = tail === "result";
    const input = tail === "input";
    if (
      id === undefined || id === "" || extra !== undefined ||
      (tail !== undefined && !result && !input)
    ) {
      return problem(404, "No task resource at this path");
    }
    const allow = input ? "POST" : result ? "GET, HEAD" : "GET, HEAD, DELETE";
    const method = request.method === "HEAD" && !input ? "GET" : request.method;
    if (!allow.split(", ").includes(method)) {
      return problem(405, `${request.method} is not allowed here; allowed: ${allow}`, { allow });
    }
    try {
      const owner = taskCaller(
        (label) => opts.leaves.get(label),
        await contextOf(new RequestContext(request, "http"), opts.context),
        ownerOf,
      );
      const location = locationOf(id);
      if (input) {
        const { answer, key } = await answerBody(request, opts.read);
        const answered = await answerTask(runtime, id, owner, answer, key);
        return statusResponse(answered, 200, location);
      }
      if (method === "DELETE") {
        const before = await runtime.get(id, owner);
        if (before !== undefined && isTerminal(before.status)) {
          return problem(409, `The task has already ended (${before.status})`);
        }
        const cancelled = await runtime.cancel(id, owner);
        return cancelled === undefined ? notFound() : statusResponse(cancelled, 200, location);
      }
      const wait = result ? preferenceOf(request.headers.get("prefer")).wait : undefined;
      const record = wait === undefined
        ? await runtime.get(id, owner)
        : await runtime.settled(id, owner, wait * 1000);
      if (record === undefined) return notFound();
      if (!result) return statusResponse(record, 200, location);
      return isTerminal(record.status)
        ? answerOf(record, opts.statuses.get(record.leaf) ?? 200)
        : statusResponse(record, 202, location);
    } catch (error) {
      if (error instanceof HttpError) return opts.failure(classify(error));
      opts.report(error, request);
      // The store is out of reach: nothing was started, the client may try again.
      return problem(503, "Tasks are unavailable; try again", { "retry-after": "1" });
    }
  };

  // HEAD is GET's answer without its body.
  const answerHead = async (request: Request, rest: string): Promise<Response> => {
    const response = await answer(request, rest);
    if (request.method !== "HEAD") return response;
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  };

  return { starter, answer: answerHead };
}

/**
 * The body of `POST .../input`: JSON `{ "answer": ..., "key"?: "..." }`,
 * read by the router within its limits (413, 408, 400 as for any body).
 */
async function answerBody(
  request: Request,
  read: HttpTaskOptions["read"],
): Promise<{ answer: unknown; key: string | undefined }> {
  const type = mediaTypeEssence(request.headers.get("content-type"));
  if (type !== "application/json" && !(type.startsWith("application/") && type.endsWith("+json"))) {
    throw new HttpError(415, 'An answer is JSON: { "answer": ..., "key"?: "..." }', {
      headers: { "accept-post": "application/json" },
    });
  }
  const values = await read(request);
  if (values === undefined || !Object.hasOwn(values, "answer")) {
    throw new HttpError(400, 'The body needs "answer": the answer to the task\'s question');
  }
  const { answer, key } = values;
  if (key !== undefined && typeof key !== "string") {
    throw new HttpError(400, '"key" names the question answered: a string');
  }
  return { answer, key };
}

/** What `Prefer` asks for (RFC 7240): `respond-async`, and `wait` in seconds. */
function preferenceOf(header: string | null): { async: boolean; wait: number | undefined } {
  let async = false;
  let wait: number | undefined;
  for (const preference of (header ?? "").split(",")) {
    const [token = "", value] = preference.split(";")[0].split("=").map((part) => part.trim());
    const name = token.toLowerCase();
    if (name === "respond-async") async = true;
    else if (name === "wait" && value !== undefined) {
      const seconds = Number(value.replace(/^"|"$/g, ""));
      if (Number.isInteger(seconds) && seconds >= 0) wait = Math.min(seconds, MAX_WAIT_S);
    }
  }
  return { async, wait };
}

function failureOf(record: TaskRecord): Failure {
  const failure = record.failure!;
  return {
    ...failure,
    headers: new Headers(failure.headers?.map(([k, v]) => [k, v])),
    error: null,
  };
}

function documentOf(
  record: TaskRecord,
  location: string,
  problemOf: HttpTaskOptions["problem"],
): Record<string, unknown> {
  return {
    id: record.id,
    status: record.status,
    operation: record.leaf,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
    ...(record.progress === undefined ? {} : { progress: record.progress }),
    logs: record.logs.map((line) => ({ ...line, at: new Date(line.at).toISOString() })),
    ...questionsOf(record),
    ...(record.status === "completed" && record.result !== undefined
      ? { result: record.result }
      : {}),
    ...(record.failure === undefined ? {} : { error: problemOf(failureOf(record)) }),
    links: {
      self: location,
      result: `${location}/result`,
      ...(record.status === "input_required" ? { input: `${location}/input` } : {}),
    },
  };
}

/** The questions a task waits on: the first as `question`, each with its key. */
function questionsOf(record: TaskRecord): Record<string, unknown> {
  const questions = taskQuestions(record);
  return questions.length === 0 ? {} : { question: questions[0], questions };
}

function applied(response: Response, preference: string): Response {
  response.headers.set("preference-applied", preference);
  response.headers.append("vary", "Prefer");
  return response;
}
