// Long-running leaves over HTTP (tag `longRunning`, see docs/tasks.md). Their
// route starts a task and answers `202 Accepted` with `Location` of its status
// resource, `{base}/.tasks/{id}` (a first segment that starts with a dot, which
// `createRouter` refuses from a tree, so the two never meet):
//
// - `GET {base}/.tasks/{id}`: the task's status document (status, progress,
//   log lines, its question, the result or the problem);
// - `GET {base}/.tasks/{id}/result`: the answer the route would have given
//   (the result as JSON, a failure as problem+json with its status), `202`
//   with the status document while it runs;
// - `DELETE {base}/.tasks/{id}`: cancels it (its handler's signal aborts);
// - `POST {base}/.tasks/{id}/input`: answers the question its handler asked
//   (`{ "answer": ..., "key"?: ... }`), as `answerTask` (tasks/answer.ts)
//   does for every surface.
//
// `Prefer` (RFC 7240): `respond-async` asks for the handle at once, as does no
// preference; `wait=N` waits up to N seconds (at most MAX_WAIT_S) for the
// answer: a call done by then is answered as a normal call is. Both are marked
// in `Preference-Applied`. This module is loaded only by a router whose tree
// has a long-running leaf.

import { taskCaller, type TaskOwner } from "../../tasks/owner.ts";
import type { Node } from "../../tree/node.ts";
import { principalOf } from "../../tree/principal.ts";
import type { ContextFunction, RequestContextSource } from "../../tree/context.ts";
import { contextOf } from "../../engine/engine.ts";
import { RequestContext } from "../../engine/request_context.ts";
import type { LeafCall } from "../../tree/call.ts";
import type { Failure } from "../../tree/failure.ts";
import { HttpError } from "../../tree/http_error.ts";
import { answerTask, taskQuestions } from "../../tasks/answer.ts";
import { createTasks, type TaskLeaf, type TaskRuntime } from "../../tasks/runtime.ts";
import { isTerminal, type TaskRecord } from "../../tasks/store.ts";
import { mediaType } from "../../web/body.ts";
import { type BodyLimits, readBody } from "../../web/request.ts";
import { failureResponse, problemOf } from "../../web/problem.ts";
import { errorResponse, problem, valueResponse } from "../../web/respond.ts";
import { TASKS_SEGMENT } from "./_compiled.ts";

/** The longest `Prefer: wait` honoured, in seconds: a longer one waits this long. */
const MAX_WAIT_S = 60;
/** The seconds a client is asked to wait before it polls again (`Retry-After`). */
const POLL_S = 1;

/** What the router gives this module. */
export interface TaskRoutesOptions {
  readonly tasks: TaskRuntime | undefined;
  readonly taskOwner: TaskOwner | undefined;
  readonly context: ContextFunction<RequestContextSource> | undefined;
  readonly basePath: string;
  readonly report: (error: unknown, request: Request) => void;
  /** The success status of each long-running leaf, by label (200 where not declared). */
  readonly statuses: ReadonlyMap<string, number>;
  /** Each long-running leaf, by label: a status resource runs its guards for the caller. */
  readonly leaves: ReadonlyMap<string, Node>;
  /** What an answer's body may be: the router's own limits. */
  readonly limits: BodyLimits;
}

/** The router's long-running leaves and status resources. */
export interface TaskRoutes {
  /** The call a long-running leaf's route runs: a task started, its handle or answer. */
  starter(leaf: TaskLeaf, status: number): LeafCall;
  /** Answers a request to `{base}/.tasks/...`; `rest` is the path after the segment. */
  answer(request: Request, rest: string): Promise<Response>;
}

/**
 * The task routes of one router.
 *
 * @example
 * ```ts
 * import { taskRoutes } from "./_tasks.ts";
 *
 * const routes = taskRoutes({
 *   tasks: undefined,
 *   taskOwner: undefined,
 *   context: undefined,
 *   basePath: "",
 *   report: console.error,
 *   statuses: new Map(),
 *   leaves: new Map(),
 *   limits: { maxBytes: 1024 * 1024, maxDepth: 64, maxKeys: 256, timeoutMs: 30_000 },
 * });
 * ```
 */
export function taskRoutes(opts: TaskRoutesOptions): TaskRoutes {
  let made: TaskRuntime | undefined = opts.tasks;
  const runtime = () => made ??= createTasks();
  const ownerOf = opts.taskOwner ?? principalOf;
  const locationOf = (id: string) => `${opts.basePath}/${TASKS_SEGMENT}/${id}`;

  const starter = (leaf: TaskLeaf, status: number): LeafCall => async (input, context) => {
    const request = context.request as Request;
    const prefer = preferenceOf(request.headers.get("prefer"));
    // Decided once the guards let the call through, by whom they established.
    let owner: string | undefined;
    // A store out of reach is the runtime's 503; a call its guards or input schema
    // refuse throws what any call of the route would, for the router to answer.
    const record: TaskRecord = await runtime().start(leaf, input, context, {
      owner: async (guarded) => owner = await ownerOf(guarded),
      // Its questions are answered at `{location}/input`.
      answers: true,
      onError: (error) => opts.report(error, request),
    });
    if (prefer.wait !== undefined && !prefer.async) {
      const done = await runtime().settled(record.id, owner, prefer.wait * 1000).catch(() =>
        record
      );
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
        const { answer, key } = await answerBody(request, opts.limits);
        const answered = await answerTask(runtime(), id, owner, answer, key);
        return statusResponse(answered, 200, location);
      }
      if (method === "DELETE") {
        const before = await runtime().get(id, owner);
        if (before !== undefined && isTerminal(before.status)) {
          return problem(409, `The task has already ended (${before.status})`);
        }
        const cancelled = await runtime().cancel(id, owner);
        return cancelled === undefined ? notFound() : statusResponse(cancelled, 200, location);
      }
      const wait = result ? preferenceOf(request.headers.get("prefer")).wait : undefined;
      const record = wait === undefined
        ? await runtime().get(id, owner)
        : await runtime().settled(id, owner, wait * 1000);
      if (record === undefined) return notFound();
      if (!result) return statusResponse(record, 200, location);
      return isTerminal(record.status)
        ? answerOf(record, opts.statuses.get(record.leaf) ?? 200)
        : statusResponse(record, 202, location);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      opts.report(error, request);
      return unavailable();
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
 * read within the router's limits (413, 408, 400 as for any body).
 */
async function answerBody(
  request: Request,
  limits: BodyLimits,
): Promise<{ answer: unknown; key: string | undefined }> {
  const type = mediaType(request.headers.get("content-type"));
  if (type !== "application/json" && !(type.startsWith("application/") && type.endsWith("+json"))) {
    throw new HttpError(415, 'An answer is JSON: { "answer": ..., "key"?: "..." }', {
      headers: { "accept-post": "application/json" },
    });
  }
  const body = await readBody(request, limits);
  if (body === undefined || !Object.hasOwn(body.values, "answer")) {
    throw new HttpError(400, 'The body needs "answer": the answer to the task\'s question');
  }
  const { answer, key } = body.values;
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

/** The answer of a terminal task, as its route would have answered the call. */
function answerOf(record: TaskRecord, status: number): Response {
  if (record.status === "completed") return valueResponse(record.result, status);
  return failureResponse(failureOf(record));
}

function failureOf(record: TaskRecord): Failure {
  const failure = record.failure!;
  return {
    ...failure,
    headers: new Headers(failure.headers?.map(([k, v]) => [k, v])),
    error: null,
  };
}

/** A task's status document, as `GET {base}/.tasks/{id}` answers it. */
function statusResponse(record: TaskRecord, status: number, location: string): Response {
  const live = !isTerminal(record.status);
  const headers = new Headers({ "content-type": "application/json", vary: "Prefer" });
  if (status === 202) headers.set("location", location);
  if (live) headers.set("retry-after", String(POLL_S));
  return new Response(JSON.stringify(documentOf(record, location)), { status, headers });
}

function documentOf(record: TaskRecord, location: string): Record<string, unknown> {
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

function notFound(): Response {
  return problem(404, "No such task");
}

/** The store is out of reach: nothing was started, the client may try again. */
function unavailable(): Response {
  return problem(503, "Tasks are unavailable; try again", { "retry-after": "1" });
}
