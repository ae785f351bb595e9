/**
 * OpenTelemetry for a tree: `traced(tree)` puts a tracing middleware in front
 * of every leaf, so each leaf call makes one span, with the same name and
 * attributes whichever surface called it (HTTP, GraphQL over HTTP and
 * WebSocket, MCP, the command line), and records its duration in one
 * histogram. `tracedFetch()` makes a client send the active span as W3C
 * `traceparent`, so a call from one service to another stays in one trace.
 *
 * `@opentelemetry/api` is an optional peer: only this module loads it. With no
 * SDK registered its tracer and meter do nothing.
 *
 * The rules:
 *
 * - The span is named `ramify <leaf>`, the leaf's place as every surface's
 *   messages write it (`ramify books/{bookId}/read`), and has kind `INTERNAL`.
 * - Attributes: `ramify.leaf`, `ramify.surface`, `ramify.tags` (the leaf's
 *   tags, implications applied), `ramify.outcome` (`ok`, or the failure's
 *   kind: `input`, `declared`, `cancelled`, `timeout`, `fault`); on a failure
 *   also `ramify.status` (the status every surface reports) and `error.type`
 *   (the declared error's code, else the status's: `NOT_FOUND`).
 * - The span's status is `ERROR` for a fault or a timeout (the server's
 *   failures); a fault's error is recorded on the span as an exception, which
 *   only the tracing backend sees. The caller's failures (`input`,
 *   `declared`, `cancelled`) leave it unset, as OpenTelemetry's HTTP server
 *   conventions do for a 4xx.
 * - Parent: the W3C `traceparent` the call carries (MCP's
 *   `_meta.traceparent` first, then the request's `traceparent` header),
 *   unless the active span is already in that trace (an HTTP
 *   instrumentation's server span); without one, the active span (a call in
 *   process, the command line).
 * - The histogram `ramify.call.duration` (seconds) has one point per call
 *   with `ramify.leaf`, `ramify.surface`, `ramify.outcome` (and on a failure
 *   `ramify.status` and `error.type`):
 *   its count is the call count.
 * - The span covers the leaf's middleware and handler; a stream's span ends
 *   when the stream starts. A result that breaks the output schema is checked
 *   outside it, so its span says `ok`.
 *
 * @example
 * ```ts
 * import { api, createFetch, http, op } from "@ramify/api";
 * import { traced } from "@ramify/api/otel";
 *
 * const tree = traced(api({ ping: op(() => "pong", http.get) }));
 * const handler = createFetch(tree);
 * console.log(await (await handler(new Request("http://localhost/ping"))).json()); // "pong"
 * ```
 *
 * @module
 */

import {
  type Attributes,
  type Context,
  context as otelContext,
  type Histogram,
  type MeterProvider,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { atLeaf, type Middleware, useAll } from "../tree/middleware.ts";
import type { HandlerContext, Node } from "../tree/node.ts";
import { withImplications } from "../tree/tags.ts";
import { failureOf } from "../tree/run.ts";
import { declared, type ErrorDeclarations, LeafError } from "../tree/errors.ts";
import { classify, type Failure, TimedOut } from "../tree/failure.ts";
import { carriedSpanContext, traceparentOf } from "./_trace_context.ts";

/** The instrumentation scope the tracer and meter are named by. */
const SCOPE = "@ramify/api";

/**
 * Options of {@linkcode traced}.
 *
 * @example
 * ```ts
 * import type { TracedOptions } from "@ramify/api/otel";
 *
 * const opts: TracedOptions = { metrics: false };
 * ```
 */
export interface TracedOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`). */
  readonly tracerProvider?: TracerProvider;
  /** Where the duration histogram goes. Default: the global meter provider. */
  readonly meterProvider?: MeterProvider;
  /** `false` records no metrics. Default `true`. */
  readonly metrics?: boolean;
}

/**
 * The tracing middleware, for `useAll(tree, tracing())`: `useAll` places it
 * on every leaf, bound to the leaf's place (its span's name). Give it first,
 * so that the span covers the other middleware. Used on one leaf by `use()`
 * instead, where no place is known, each call fails naming `useAll`.
 *
 * @param opts where spans and metrics go
 * @returns the middleware `useAll` places on each leaf
 *
 * @example
 * ```ts
 * import { api, op, useAll } from "@ramify/api/tree";
 * import { tracing } from "@ramify/api/otel";
 *
 * const tree = useAll(api({ books: api({ list: op(() => []) }) }), tracing());
 * ```
 */
export function tracing(opts: TracedOptions = {}): Middleware {
  const tracer = (opts.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const histogram = opts.metrics === false ? undefined : (opts.meterProvider ??
    metrics.getMeterProvider()).getMeter(SCOPE).createHistogram("ramify.call.duration", {
      description: "How long a leaf call took, middleware and handler",
      unit: "s",
    });
  const unplaced: Middleware = () => {
    throw new TypeError(
      "tracing() names spans by the leaf's place, which only useAll(tree, tracing()) tells it",
    );
  };
  return Object.assign(unplaced, {
    [atLeaf]: (path: readonly string[], node: Node): Middleware =>
      leafTracing(tracer, histogram, path.length === 0 ? "(root)" : path.join("/"), node),
  });
}

/**
 * The tree with {@linkcode tracing} in front of every leaf's own middleware:
 * `useAll(tree, tracing(opts))`. Serve the result; it is traced on every
 * surface.
 *
 * @param tree the tree to trace
 * @param opts where spans and metrics go
 * @returns the same tree, its leaves traced
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { traced } from "@ramify/api/otel";
 *
 * const tree = traced(api({ books: api({ list: op(() => []) }) }));
 * console.log(tree.children?.books.children?.list.meta?.use?.length); // 1
 * ```
 */
export function traced<T extends Node>(tree: T, opts: TracedOptions = {}): T {
  return useAll(tree, tracing(opts));
}

/** The middleware that traces one leaf's calls. */
function leafTracing(
  tracer: Tracer,
  histogram: Histogram | undefined,
  leaf: string,
  node: Node,
): Middleware {
  const name = `ramify ${leaf}`;
  const tags = tagsOfLeaf(node);
  const errors = node.meta?.errors;
  return (call, next) => {
    const context = call.context;
    // Every server puts its surface on the context; a bare `createCall` has none.
    const surface = typeof context.surface === "string" ? context.surface : "unknown";
    const parent = parentOf(context);
    const span = tracer.startSpan(name, {
      kind: SpanKind.INTERNAL,
      attributes: { "ramify.leaf": leaf, "ramify.surface": surface, "ramify.tags": [...tags] },
    }, parent);
    const started = performance.now();
    const failed = (failure: Failure): Attributes => {
      if (failure.kind === "fault" || failure.kind === "timeout") {
        if (failure.kind === "fault") span.recordException(exceptionOf(failure.error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.title });
      }
      return {
        "ramify.outcome": failure.kind,
        "ramify.status": failure.status,
        "error.type": failure.code,
      };
    };
    const done = (outcome: Attributes) => {
      span.setAttributes(outcome);
      span.end();
      histogram?.record((performance.now() - started) / 1000, {
        "ramify.leaf": leaf,
        "ramify.surface": surface,
        ...outcome,
      });
    };
    // A span that records nothing and names no trace (no SDK, no parent) has nothing to pass on.
    const inert = !span.isRecording() && !trace.isSpanContextValid(span.spanContext());
    const run = inert ? next() : otelContext.with(trace.setSpan(parent, span), () => next());
    return run.then(
      (result) => {
        // The call path answers 503 however the handler ended after its deadline.
        done(pastDeadline(context) ? failed(TIMEOUT) : { "ramify.outcome": "ok" });
        return result;
      },
      async (error: unknown) => {
        const failure = pastDeadline(context)
          ? TIMEOUT
          : await failureOfLeaf(error, errors, context);
        done(failed(failure));
        throw error;
      },
    );
  };
}

/**
 * The failure every surface will report: a `LeafError` is matched with the
 * leaf's declarations first, as the call path does outside the middleware.
 */
async function failureOfLeaf(
  error: unknown,
  errors: ErrorDeclarations | undefined,
  context: HandlerContext,
): Promise<Failure> {
  if (!(error instanceof LeafError) || errors === undefined) return failureOf(error, context);
  try {
    return await declared(error, errors);
  } catch (matched) {
    return failureOf(matched, context);
  }
}

/** How every surface reports a deadline that passed. */
const TIMEOUT: Failure = classify(new TimedOut(0));

/**
 * Whether the leaf's deadline (`timeoutMs`) passed: `runCall` aborts the
 * handler's signal with a `TimeoutError` then, and answers `TimedOut` itself,
 * outside the middleware, whatever the handler does after.
 */
function pastDeadline(context: HandlerContext): boolean {
  const signal = context.signal;
  return signal?.aborted === true && signal.reason instanceof DOMException &&
    signal.reason.name === "TimeoutError";
}

/** The span's parent: the carried `traceparent`, unless the active span is already in its trace. */
function parentOf(context: HandlerContext): Context {
  const active = otelContext.active();
  const carried = carriedSpanContext(context);
  if (carried === undefined) return active;
  return trace.getSpanContext(active)?.traceId === carried.traceId
    ? active
    : trace.setSpanContext(active, carried);
}

/** The leaf's tags that hold, implications applied, in a stable order. */
function tagsOfLeaf(node: Node): readonly string[] {
  return Object.entries(withImplications(node.meta?.tags))
    .filter(([, on]) => on === true)
    .map(([tag]) => tag)
    .sort();
}

/** What `recordException` takes: an `Error`, or the thrown value as a message. */
function exceptionOf(error: unknown): Error | string {
  return error instanceof Error ? error : String(error);
}

/**
 * A fetch (`(request) => Promise<Response>`) that sends the active span as
 * W3C `traceparent` (and `tracestate`), for any client that takes one: the
 * typed HTTP client's `fetch` option, the GraphQL client's `httpTransport`.
 * Without an active span the request goes as it is. A `traceparent` the
 * request already has is replaced.
 *
 * @param fetch the fetch to send with. Default: the global `fetch`.
 * @returns the propagating fetch
 *
 * @example
 * ```ts
 * import { api, createClient, http, op } from "@ramify/api";
 * import { tracedFetch } from "@ramify/api/otel";
 *
 * const tree = api({ ping: op(() => "pong", http.get) });
 * const client = createClient(tree, { baseUrl: "http://localhost:8000", fetch: tracedFetch() });
 * ```
 */
export function tracedFetch(
  fetch: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request),
): (request: Request) => Promise<Response> {
  return (request) => {
    const span = trace.getSpanContext(otelContext.active());
    if (span === undefined || !trace.isSpanContextValid(span)) return fetch(request);
    const headers = new Headers(request.headers);
    headers.set("traceparent", traceparentOf(span));
    const state = span.traceState?.serialize();
    if (state) headers.set("tracestate", state);
    else headers.delete("tracestate");
    return fetch(new Request(request, { headers }));
  };
}
