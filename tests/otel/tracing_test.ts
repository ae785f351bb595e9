// Tracing agrees across surfaces: one traced tree served on every surface, the
// same calls (a success, a declared error, a 404, a fault) made over REST,
// GraphQL (HTTP and WebSocket), MCP and the command line, and the spans the
// SDK's in-memory exporter collected compared: the same name and attributes
// for the same call, but for `ramify.surface`. Then the parent: an incoming
// `traceparent` (header, MCP `_meta`), the active span in process, and the
// typed clients sending theirs.
import assert from "node:assert/strict";
import { context } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  // deno-lint-ignore no-import-prefix
} from "npm:@opentelemetry/sdk-trace-base@^2.0.0";
// deno-lint-ignore no-import-prefix
import { AsyncLocalStorageContextManager } from "npm:@opentelemetry/context-async-hooks@^2.0.0";
import {
  AggregationTemporality,
  type HistogramMetricData,
  MeterProvider,
  MetricReader,
  // deno-lint-ignore no-import-prefix
} from "npm:@opentelemetry/sdk-metrics@^2.0.0";
import { api, HttpError, LeafError, op, use, useAll } from "@ramify/api/tree";
import { createClient, createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createGraphQLClient } from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { runCli } from "@ramify/api/cli";
import { traced, tracedFetch, tracing } from "@ramify/api/otel";
import { memoryIo } from "../support/cli_io.ts";
import { serveEverySurface } from "../support/every_surface.ts";

/** A reader the test collects from on demand. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const tracer = tracerProvider.getTracer("test");

const tree = traced(
  api({
    books: api({
      list: op(() => ["Dune"], http.get),
      add: op(
        () => {
          throw new LeafError("DUPLICATE");
        },
        http.post,
        {
          tags: { destructive: true },
          errors: { DUPLICATE: { status: 409, message: "Already there" } },
        },
      ),
    }),
    missing: op(() => {
      throw new HttpError(404, "No such thing");
    }, http.get),
    crash: op(() => {
      throw new Error("boom");
    }, http.get),
  }),
  { tracerProvider, meterProvider },
);

/** Each call, as every surface makes it. */
const CALLS = [
  {
    leaf: "books/list",
    rest: ["GET", "/books/list"],
    graphql: "{ books { list } }",
    words: ["books", "list"],
  },
  {
    leaf: "books/add",
    rest: ["POST", "/books/add"],
    graphql: "mutation { booksAdd }",
    words: ["books", "add"],
  },
  { leaf: "missing", rest: ["GET", "/missing"], graphql: "{ missing }", words: ["missing"] },
  { leaf: "crash", rest: ["GET", "/crash"], graphql: "{ crash }", words: ["crash"] },
] as const;

/** The one span the exporter holds, taken out of it. */
function takeSpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  exporter.reset();
  assert.equal(spans.length, 1, `one span per call, got ${spans.map((s) => s.name)}`);
  return spans[0];
}

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT_ID = "b7ad6b7169203331";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

function assertChildOfTraceparent(span: ReadableSpan): void {
  assert.equal(span.spanContext().traceId, TRACE_ID);
  assert.equal(span.parentSpanContext?.spanId, PARENT_ID);
  assert.equal(span.parentSpanContext?.isRemote, true);
}

Deno.test("tracing: the same call makes the same span on every surface, and spans have parents", async (t) => {
  const served = await serveEverySurface(tree);
  const surfaces: Record<string, (call: typeof CALLS[number]) => Promise<unknown>> = {
    http: async (call) => {
      const [method, path] = call.rest;
      const response = await fetch(`${served.base}${path}`, {
        method,
        ...(method === "POST"
          ? { body: "{}", headers: { "content-type": "application/json" } }
          : {}),
      });
      await response.body?.cancel();
    },
    "graphql over HTTP": async (call) => {
      const response = await fetch(`${served.base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: call.graphql }),
      });
      await response.body?.cancel();
    },
    "graphql over WebSocket": async (call) => {
      for await (const _ of served.socket.iterate({ query: call.graphql })) break;
    },
    mcp: (call) => served.mcpClient.callTool({ name: call.words.join("."), arguments: {} }),
    cli: (call) => runCli(tree, [...call.words, "--yes"], { io: memoryIo() }),
  };
  try {
    await t.step("one span per call, alike but for the surface", async () => {
      for (const call of CALLS) {
        const spans: Record<string, ReadableSpan> = {};
        for (const [surface, make] of Object.entries(surfaces)) {
          await make(call);
          spans[surface] = takeSpan();
        }
        const [first, ...rest] = Object.entries(spans).map(([surface, span]) => {
          const { "ramify.surface": on, ...attributes } = span.attributes;
          assert.equal(on, surface.split(" ")[0], `${call.leaf} over ${surface}`);
          return { name: span.name, attributes, status: span.status.code, kind: span.kind };
        });
        for (const other of rest) assert.deepEqual(other, first, call.leaf);
      }
    });

    await t.step("the attributes say the leaf, its tags and how it ended", async () => {
      const expected = {
        "books/list": { "ramify.tags": ["idempotent", "readOnly"], "ramify.outcome": "ok" },
        "books/add": {
          "ramify.tags": ["destructive"],
          "ramify.outcome": "declared",
          "ramify.status": 409,
          "error.type": "DUPLICATE",
        },
        missing: {
          "ramify.tags": ["idempotent", "readOnly"],
          "ramify.outcome": "declared",
          "ramify.status": 404,
          "error.type": "NOT_FOUND",
        },
        crash: {
          "ramify.tags": ["idempotent", "readOnly"],
          "ramify.outcome": "fault",
          "ramify.status": 500,
          "error.type": "INTERNAL_SERVER_ERROR",
        },
      };
      for (const call of CALLS) {
        await surfaces.http(call);
        const span = takeSpan();
        assert.equal(span.name, `ramify ${call.leaf}`);
        assert.deepEqual(span.attributes, {
          "ramify.leaf": call.leaf,
          "ramify.surface": "http",
          ...expected[call.leaf],
        });
        // Only the server's own failure marks the span as an error, with the exception recorded.
        assert.equal(span.status.code, call.leaf === "crash" ? 2 : 0);
        assert.equal(
          span.events.some((event) => event.name === "exception"),
          call.leaf === "crash",
        );
      }
    });

    await t.step("an HTTP traceparent header is the parent, on REST and GraphQL", async () => {
      const rest = await fetch(`${served.base}/books/list`, {
        headers: { traceparent: TRACEPARENT },
      });
      await rest.body?.cancel();
      assertChildOfTraceparent(takeSpan());
      const graphql = await fetch(`${served.base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: TRACEPARENT },
        body: JSON.stringify({ query: "{ books { list } }" }),
      });
      await graphql.body?.cancel();
      assertChildOfTraceparent(takeSpan());
    });

    await t.step("a malformed traceparent is ignored: the span starts its own trace", async () => {
      const rest = await fetch(`${served.base}/books/list`, {
        headers: { traceparent: `00-${"0".repeat(32)}-${PARENT_ID}-01` },
      });
      await rest.body?.cancel();
      const span = takeSpan();
      assert.equal(span.parentSpanContext, undefined);
      assert.notEqual(span.spanContext().traceId, "0".repeat(32));
    });

    await t.step("MCP's _meta.traceparent is the parent", async () => {
      await served.mcpClient.callTool({
        name: "books.list",
        arguments: {},
        _meta: { traceparent: TRACEPARENT },
      });
      assertChildOfTraceparent(takeSpan());
    });

    await t.step("in process, the active span is the parent (the command line)", async () => {
      await tracer.startActiveSpan("outer", async (outer) => {
        await runCli(tree, ["books", "list"], { io: memoryIo() });
        outer.end();
      });
      const [span, outer] = exporter.getFinishedSpans();
      exporter.reset();
      assert.equal(span.name, "ramify books/list");
      assert.equal(span.parentSpanContext?.spanId, outer.spanContext().spanId);
      assert.equal(span.spanContext().traceId, outer.spanContext().traceId);
    });

    await t.step("the typed clients send the active span as traceparent", async () => {
      const client = createClient(tree, { baseUrl: served.base, fetch: tracedFetch() });
      const graphql = createGraphQLClient(tree, {
        transport: httpTransport({ url: `${served.base}/graphql`, fetch: tracedFetch() }),
      });
      for (const call of [() => client.books.list(), () => graphql.books.list()]) {
        await tracer.startActiveSpan("caller", async (caller) => {
          assert.deepEqual(await call(), ["Dune"]);
          caller.end();
        });
        const [span, caller] = exporter.getFinishedSpans();
        exporter.reset();
        assert.equal(span.spanContext().traceId, caller.spanContext().traceId);
        assert.equal(span.parentSpanContext?.spanId, caller.spanContext().spanId);
      }
      // Outside any span the request goes as it is: a trace of its own.
      await client.books.list();
      assert.equal(takeSpan().parentSpanContext, undefined);
    });

    await t.step(
      "the duration histogram counts each leaf's calls by surface and outcome",
      async () => {
        const { resourceMetrics } = await reader.collect();
        const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
          .find((entry) => entry.descriptor.name === "ramify.call.duration") as HistogramMetricData;
        assert.equal(metric.descriptor.unit, "s");
        const count = (attributes: Record<string, unknown>) =>
          metric.dataPoints.filter((point) =>
            Object.entries(attributes).every(([key, value]) => point.attributes[key] === value)
          ).reduce((sum, point) => sum + point.value.count, 0);
        assert.equal(count({ "ramify.leaf": "crash", "ramify.surface": "mcp" }), 1);
        assert.equal(count({ "ramify.leaf": "books/add", "error.type": "DUPLICATE" }), 6);
        assert.equal(count({ "ramify.leaf": "crash", "ramify.outcome": "fault" }), 6);
      },
    );
  } finally {
    await served.close();
  }
});

Deno.test("tracing: a deadline that passed is a timeout on the span, however the handler ended", async () => {
  const late = traced(
    api({
      // Gives up when its signal aborts, as a handler should.
      waits: op(
        (_input, ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal?.addEventListener("abort", () => reject(ctx.signal?.reason))
          ),
        http.get,
      ),
      // Ignores its signal and answers late: the caller has had its 503 already.
      stubborn: op(() => new Promise((resolve) => setTimeout(() => resolve("late"), 60)), http.get),
    }),
    { tracerProvider, metrics: false },
  );
  const handler = createFetch(late, { timeoutMs: 20 });
  for (const leaf of ["waits", "stubborn"]) {
    const response = await handler(new Request(`http://localhost/${leaf}`));
    await response.body?.cancel();
    assert.equal(response.status, 503);
    // The span ends when the handler does.
    await new Promise((resolve) => setTimeout(resolve, 80));
    const span = takeSpan();
    assert.equal(span.attributes["ramify.outcome"], "timeout", leaf);
    assert.equal(span.attributes["ramify.status"], 503);
    assert.equal(span.attributes["error.type"], "TIMEOUT");
    assert.equal(span.status.code, 2);
  }
});

Deno.test("tracing: in process, the active span is the parent; a client replaces a stale traceparent", async () => {
  const handler = createFetch(tree);
  await tracer.startActiveSpan("outer", async (outer) => {
    await (await handler(new Request("http://localhost/books/list"))).body?.cancel();
    // tracedFetch over the in-process handler: the header is the active span's, not the stale one.
    const seen: (string | null)[] = [];
    const send = tracedFetch((request) => {
      seen.push(request.headers.get("traceparent"), request.headers.get("tracestate"));
      return handler(request);
    });
    const stale = new Request("http://localhost/books/list", {
      headers: { traceparent: TRACEPARENT, tracestate: "vendor=stale" },
    });
    await (await send(stale)).body?.cancel();
    const { traceId, spanId } = outer.spanContext();
    assert.deepEqual(seen, [`00-${traceId}-${spanId}-01`, null]);
    outer.end();
  });
  const [first, second, outer] = exporter.getFinishedSpans();
  exporter.reset();
  for (const span of [first, second]) {
    assert.equal(span.parentSpanContext?.spanId, outer.spanContext().spanId);
    assert.equal(span.spanContext().traceId, outer.spanContext().traceId);
  }
});

Deno.test("tracing: useAll(tree, tracing()) places it on each leaf, named by its place; use() alone is refused", async () => {
  const placed = useAll(
    api({ books: api({ list: op(() => ["Dune"], http.get) }) }),
    tracing({ tracerProvider, metrics: false }),
  );
  exporter.reset();
  const response = await createFetch(placed)(new Request("http://local/books/list"));
  assert.equal(response.status, 200);
  const span = takeSpan();
  assert.equal(span.name, "ramify books/list");
  assert.equal(span.attributes["ramify.leaf"], "books/list");

  const errors: unknown[] = [];
  const unplaced = api({ one: op(() => 1, http.get, use(tracing({ tracerProvider }))) });
  const refused = await createFetch(unplaced, { onError: (error) => errors.push(error) })(
    new Request("http://local/one"),
  );
  assert.equal(refused.status, 500);
  assert.match(String(errors[0]), /only useAll\(tree, tracing\(\)\) tells it/);
});
