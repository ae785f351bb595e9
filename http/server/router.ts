/**
 * From an `HttpRoute` and a matcher strategy to a fetch handler: match the path,
 * pick the operation by method, build the one flat input (captures over body
 * over query, as sent for a leaf without an input schema, coerced by the
 * schema otherwise; a leaf that takes nothing gets its captures alone), run the
 * leaf's call through the engine (engine/engine.ts: its context, deadline and
 * validation) and encode its result. A failure is answered as
 * the tree classifies it (`failureOf`), as problem+json; only a fault reaches
 * `onError`. Everything that can be decided per route is decided once: what
 * can fail when the handler is built, the rest on the route's first request.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { toRouter } from "@ramify/api/http";
 *
 * const handle = toRouter(httpProjection(api({ ping: op(() => "pong", http.get) })));
 * const response = await handle(new Request("http://localhost/ping"));
 * console.log(await response.json()); // "pong"
 * ```
 *
 * @module
 */

import type { HandlerContext, Node } from "../../tree/node.ts";
import { MAX_INPUT_DEPTH, setOwn } from "../../tree/plain_data.ts";
import { resultKindOf } from "../../tree/result_kind.ts";
import { failureOf } from "../../tree/run.ts";
import type { ContextFunction, RequestContextSource } from "../../tree/context.ts";
import { contextOf, perform } from "../../engine/engine.ts";
import { RequestContext } from "../../engine/request_context.ts";
import { admit } from "../../engine/admission.ts";
import { principalOf } from "../../tree/principal.ts";
import type { ErrorObserver } from "../../tree/options.ts";
import type { HttpRoute } from "../../route/route.ts";
import type { MatcherStrategy, RouteDefinition } from "./matchers/types.ts";
import { failureResponse, problemOf } from "../../web/problem.ts";
import { applyPolicies, type Policy } from "../../web/edge.ts";
import { formGuard } from "../../web/csrf.ts";
import { encodeSegment } from "../../route/path.ts";
import {
  type Body,
  type BodyLimits,
  mergeInput,
  parseQuery,
  readBody,
  splitUrl,
  unreadBody,
} from "../../web/request.ts";
import { coerceStrings } from "../../web/coerce.ts";
import { BODY_TIMEOUT_MS, MAX_BODY_BYTES } from "../../web/body.ts";
import {
  headOf,
  problem,
  replyResponse,
  restEdge,
  resultResponse,
  valueResponse,
} from "../../web/respond.ts";
import type { Reply } from "../../tree/reply.ts";
import { type IdempotencyOptions, keyedRun } from "./idempotency.ts";
import {
  type Compiled,
  definitionsOf,
  LAST_EVENT_ID,
  type Slot,
  type Starter,
  TASKS_SEGMENT,
} from "./_compiled.ts";
import { logFault } from "../../tree/outage.ts";
import type { HttpTaskRoutes, TaskRuntime } from "../../tasks/types.ts";

/**
 * Options of the routers and of `createFetch`.
 *
 * @example
 * ```ts
 * import type { RouterOptions } from "@ramify/api/http";
 *
 * const opts: RouterOptions = {
 *   basePath: "/api",
 *   maxBodyBytes: 64 * 1024,
 *   timeoutMs: 5_000,
 *   context: ({ request }) => ({ tenant: request.headers.get("x-tenant") ?? "public" }),
 *   onError: (error) => console.error(error),
 * };
 * ```
 */
export interface RouterOptions extends IdempotencyOptions {
  /** A path prefix every route is served under, like `/api`. Default none. */
  readonly basePath?: string;
  /** The largest body accepted, in bytes (413 above it). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The deepest nesting a call's input may have (a JSON body, a form, the
   * query): deeper is a `400`. The same option as the GraphQL and MCP
   * servers'. Default 64.
   */
  readonly maxInputDepth?: number;
  /** The most query parameters or form fields a request may have (400 above). Default 256. */
  readonly maxParams?: number;
  /**
   * Observes a fault (a crash: anything but an input error, a declared error,
   * a cancellation or a timeout), before the bare 500 is sent, with the
   * request. Default: `console.error`.
   */
  readonly onError?: ErrorObserver;
  /**
   * Request policies in front of every route, the first listed running first
   * (`[cors(...), rateLimit(...)]`; see `Policy`). The same option as the
   * GraphQL and MCP servers' and `serve()`'s. Default none.
   */
  readonly policies?: readonly Policy[];
  /**
   * Milliseconds a Server-Sent Events stream may stay silent before a
   * heartbeat comment keeps the connection alive; 0 sends none. Default 15,000.
   */
  readonly heartbeatMs?: number;
  /** Milliseconds the whole body may take to arrive: `408` after. Default 30,000. */
  readonly bodyTimeoutMs?: number;
  /**
   * Milliseconds a leaf may take to give its result (a stream: to begin): then
   * the answer is `503` and the handler's `signal` aborts. The same option as
   * the GraphQL, MCP and command-line servers'. Default none.
   */
  readonly timeoutMs?: number;
  /** Origins besides its own whose pages may post forms (other sites' are `403`). Default none. */
  readonly trustedOrigins?: readonly string[];
  /**
   * Makes the values handlers and middleware see in their context, beside
   * `request` and `signal`, from each request: called with
   * `{ surface: "http", request }`. It may be asynchronous; an `HttpError` it
   * throws is the answer. The same option as the GraphQL, MCP and
   * command-line servers'.
   */
  readonly context?: ContextFunction<RequestContextSource>;
  /**
   * Where the tasks of long-running leaves (tag `longRunning`) run and are
   * kept: share one (`createTasks({ store: redisTasks(redis) })`) between the
   * instances of a service, and with its other surfaces. Required by a tree
   * with a long-running leaf (refused without it, so that a bundle of any
   * other tree holds no task code); `serve()` passes its own.
   */
  readonly tasks?: TaskRuntime;
  /**
   * Who a call speaks for, for its tasks (only the same identity reads or
   * cancels a task), from the context the leaf's guards made. Default
   * `principalOf`: the principal the guards established (their `user`).
   */
  readonly taskOwner?: (
    context: HandlerContext,
  ) => string | undefined | Promise<string | undefined>;
}

/**
 * A fetch handler: a standard `Request` in, a `Response` out.
 *
 * @example
 * ```ts
 * import type { FetchHandler } from "@ramify/api/http";
 *
 * const teapot: FetchHandler = () => Promise.resolve(new Response(null, { status: 418 }));
 * ```
 */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Builds a fetch handler from a route and a matcher strategy. The three
 * exported routers are this with their strategies.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { createRouter, trieMatcher } from "@ramify/api/http";
 *
 * const handle = createRouter(httpProjection(api({ add: op(() => 1) })), trieMatcher);
 * ```
 */
export function createRouter(
  route: HttpRoute,
  strategy: MatcherStrategy,
  opts: RouterOptions = {},
): FetchHandler {
  const basePath = normalizeBasePath(opts.basePath);
  const limits: BodyLimits = {
    maxBytes: opts.maxBodyBytes ?? MAX_BODY_BYTES,
    maxDepth: opts.maxInputDepth ?? MAX_INPUT_DEPTH,
    maxKeys: opts.maxParams ?? 256,
    timeoutMs: opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
    forms: formGuard(opts.trustedOrigins),
  };
  const timeoutMs = opts.timeoutMs;
  const makeContext = opts.context;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const report = (error: unknown, request: Request) => {
    try {
      (opts.onError ?? defaultOnError)(error, request);
    } catch {
      // An observer that throws must not turn a 500 into a crash.
    }
  };
  // Each long-running leaf's success status, by label: its result resource answers with it.
  const statuses = new Map<string, number>();
  // Each long-running leaf by label: its status resources run its guards for the caller.
  const leaves = new Map<string, Node>();
  // Made from the `tasks` value once the routes are read: a router whose tree has no
  // long-running leaf holds no task code (nor does its bundle).
  let tasks: HttpTaskRoutes | undefined;
  const starter: Starter = (leaf, status, node) => {
    statuses.set(leaf.label, status);
    leaves.set(leaf.label, node);
    return (input, context) => tasks!.starter(leaf, status)(input, context);
  };
  const definitions = definitionsOf(route, starter);
  if (leaves.size > 0) {
    // Refused without the value: it is the only way the task code reaches a bundle.
    const named = [...leaves.keys()].join(", ");
    if (opts.tasks === undefined) {
      throw new TypeError(
        `createRouter: a long-running leaf's calls run as tasks (${named}, tag longRunning): pass the runtime they run in, tasks: createTasks() from @ramify/api/tasks (serve() makes one)`,
      );
    }
    tasks = opts.tasks.http({
      prefix: `${basePath}/${TASKS_SEGMENT}`,
      taskOwner: opts.taskOwner,
      context: makeContext,
      report,
      statuses,
      leaves,
      read: async (request) => (await readBody(request, limits))?.values,
      failure: failureResponse,
      problem: problemOf,
      value: valueResponse,
    });
  }
  if (tasks !== undefined && definitions.some(({ segments: [first] }) => isTasksSegment(first))) {
    throw new TypeError(
      `createRouter: the path /${TASKS_SEGMENT}/ holds the status of tasks; no route may begin with it`,
    );
  }
  const matcher = strategy(definitions);

  const invoke = async (
    request: Request,
    compiled: Compiled,
    captures: readonly string[],
    rawParams: readonly string[],
    query: string,
  ): Promise<Response> => {
    const context = new RequestContext(request, "http");
    try {
      // Kept as three ways, with the last on its own: written as one `inputOf` call
      // and a two-way body, every request ran ~9.5k instructions more
      // (bench/serve/count.ts, BENCHMARKS.md): V8 optimized `invoke` less well.
      const body = compiled.readsBody
        ? await readBody(request, limits)
        : compiled.guardsForms
        ? unreadBody(request, limits)
        : undefined;
      const input = compiled.takesInput
        ? inputOf(body, compiled, captures, rawParams, query, limits)
        // A leaf that takes nothing: its captures alone; the body and query stay unread.
        : rawParams.length === 0
        ? {}
        : mergeInput(undefined, undefined, captures, rawParams);
      const firstId = compiled.resumable ? resumeFrom(request, input) : 1;
      // The request's context is its own: the values go straight onto it.
      // Not called without the option: even a call that returns at once costs ~900 instructions.
      if (makeContext !== undefined) await contextOf(context, makeContext);
      let result = perform(compiled.call, input, context, timeoutMs);
      // A value given at once (a synchronous handler and schema) waits for no tick.
      if (isThenable(result)) result = await result;
      // The common answer, a JSON value, needs none of the stream's settings.
      // Written with the reply branch here, not left to `resultResponse`: without
      // it V8 optimized `invoke` less well and every request ran ~9k instructions
      // more (bench/serve/count.ts).
      if (compiled.response === "json") {
        const kind = resultKindOf(result);
        if (kind === "reply") {
          const answer = result as Reply<unknown>;
          if (resultKindOf(answer.value) !== "bytes") return replyResponse(answer, compiled.status);
        } else if (kind === "value" || kind === "none") {
          if (compiled.status !== 200) return valueResponse(result, compiled.status);
          return result === undefined ? new Response(null, { status: 204 }) : Response.json(result);
        }
      }
      return await resultResponse(result, compiled.response, {
        request,
        status: compiled.status,
        mediaType: compiled.mediaType,
        firstId,
        heartbeatMs,
        context,
        onError: (error) => report(error, request),
      });
    } catch (error) {
      return failed(error, context, request);
    }
  };

  // A key is the principal's: the leaf's guards say whose, before the call.
  const keyed = keyedRun(opts, limits, invoke, async (request, compiled) => {
    const context = await contextOf(new RequestContext(request, "http"), makeContext);
    return principalOf(await admit(compiled.operation.node, context));
  });
  // Apart from `invoke`, whose every success pays for its size: with this body
  // inline, V8 optimized `invoke` less well and a GET ran 5k more instructions
  // (bench/serve/count.ts).
  const failed = (error: unknown, context: HandlerContext, request: Request): Response => {
    const failure = failureOf(error, context);
    if (failure.kind === "fault") report(error, request);
    return failureResponse(failure);
  };

  // Not `async`: the common answer is `invoke`'s own promise, with no
  // promise around it to wait on; HEAD adds a step only when in play.
  const answer = (request: Request): Promise<Response> => {
    const { path: fullPath, query } = splitUrl(request.url);
    const path = basePath === "" ? fullPath : stripBase(fullPath, basePath);
    const found = path === undefined ? undefined : matcher.match(path);
    if (found === undefined) {
      if (tasks !== undefined && path !== undefined && path.startsWith(TASKS_PREFIX)) {
        return tasks.answer(request, path.slice(TASKS_PREFIX.length));
      }
      return Promise.resolve(problem(404, "No route matches this path"));
    }
    const slot = found.value;
    const method = request.method;
    // The common methods by name: the runtime's method string is not interned,
    // and a lookup keyed by it leaves optimized code (~450 instructions).
    const { methods } = slot;
    let compiled = method === "GET"
      ? methods.GET
      : method === "POST"
      ? methods.POST
      : methods[method];
    let head = false;
    if (compiled === undefined) {
      compiled = method === "HEAD" ? slot.methods.GET : undefined;
      // A HEAD of a long-running GET would start a task whose handle no one reads.
      if (compiled === undefined || compiled.operation.entry.longRunning) {
        return Promise.resolve(unmatchedMethod(method, slot));
      }
      head = true;
    }
    const run = compiled.keyed === undefined ? invoke : keyed;
    const answered = run(request, compiled, slot.params, found.params, query);
    return head ? answered.then(headOf) : answered;
  };
  // Whatever goes wrong is a rejected promise, as from an `async` function.
  const dispatch = (request: Request): Promise<Response> => {
    try {
      return answer(request);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return applyPolicies(dispatch, restEdge, opts.policies);
}

const TASKS_PREFIX = `/${TASKS_SEGMENT}/`;

function isTasksSegment(segment: RouteDefinition<Slot>["segments"][number] | undefined): boolean {
  return segment?.kind === "static" && segment.value === TASKS_SEGMENT;
}

/**
 * The allowed methods for OPTIONS (what a CORS preflight reads), 405 for any
 * other method the path has no operation for.
 */
function unmatchedMethod(method: string, slot: Slot): Response {
  return method === "OPTIONS"
    ? new Response(null, { status: 204, headers: { allow: slot.allow } })
    : problem(405, `${method} is not allowed here; allowed: ${slot.allow}`, { allow: slot.allow });
}

/** A promise or any other thenable (a query builder, say), which the answer waits for. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise ||
    (typeof value === "object" && value !== null &&
      typeof (value as { then?: unknown }).then === "function");
}

/**
 * A resumed stream: the client's `Last-Event-ID` reaches the leaf as
 * `lastEventId` (unless the request names one itself), and the events go on
 * numbering from there.
 */
function resumeFrom(request: Request, input: Record<string, unknown>): number {
  const last = request.headers.get("last-event-id");
  if (last === null) return 1;
  if (!Object.hasOwn(input, LAST_EVENT_ID)) setOwn(input, LAST_EVENT_ID, last);
  const seen = Number(input[LAST_EVENT_ID]);
  return Number.isSafeInteger(seen) && seen >= 0 ? seen + 1 : 1;
}

/**
 * The one flat input of a leaf with an input schema: captures over body over
 * query, a form's and the query's strings coerced as the schema asks.
 */
function inputOf(
  body: Body | undefined,
  compiled: Compiled,
  captures: readonly string[],
  rawParams: readonly string[],
  query: string,
  limits: BodyLimits,
): Record<string, unknown> {
  const bodyValues = body !== undefined && body.fromForm && compiled.plan !== undefined
    ? coerceStrings(body.values, compiled.plan, limits.maxDepth)
    : body?.values;
  // Nothing to merge: a freshly parsed body holds only own keys already.
  if (query === "" && rawParams.length === 0) return bodyValues ?? {};
  let queryValues = query === "" ? undefined : parseQuery(query, limits.maxKeys);
  if (queryValues !== undefined && compiled.plan !== undefined) {
    queryValues = coerceStrings(queryValues, compiled.plan, limits.maxDepth);
  }
  return mergeInput(queryValues, bodyValues, captures, rawParams);
}

function defaultOnError(error: unknown, request: Request) {
  logFault(`ramify: ${request.method} ${request.url} crashed:`, error);
}

function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === "" || basePath === "/") return "";
  const trimmed = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath;
  if (!trimmed.startsWith("/")) {
    throw new TypeError(`basePath must start with "/", got "${basePath}"`);
  }
  return trimmed.split("/").map((part, i) => i === 0 ? part : encodeSegment(part)).join("/");
}

function stripBase(path: string, basePath: string): string | undefined {
  if (!path.startsWith(basePath)) return undefined;
  if (path.length === basePath.length) return "/";
  return path.charCodeAt(basePath.length) === 47 ? path.slice(basePath.length) : undefined;
}
