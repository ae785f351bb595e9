/**
 * What tracing costs per call: one request through `createFetch` in process (a
 * fresh `Request`, the body read in full), on the same tree untraced, traced
 * with no SDK registered (the API's no-op tracer and meter: what a library
 * user pays who never sets OpenTelemetry up), and traced into an SDK tracer
 * provider (a `SimpleSpanProcessor` into an exporter that drops the spans) and
 * an SDK meter provider; beside a pass-through middleware, the share of any
 * middleware. And the call path alone (`createCall`), the same ways.
 *
 * Run with `deno task bench` or
 * `deno bench --allow-read --allow-env bench/otel/overhead.bench.ts`.
 *
 * @module
 */

import { api, createFetch, http, op } from "@ramify/api";
import { type Middleware, useAll } from "@ramify/api/tree";
import { createCall } from "@ramify/api/tree/catalogue";
import { traced } from "@ramify/api/otel";
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  // deno-lint-ignore no-import-prefix
} from "npm:@opentelemetry/sdk-trace-base@^2.0.0";
// deno-lint-ignore no-import-prefix
import { MeterProvider } from "npm:@opentelemetry/sdk-metrics@^2.0.0";

/** An exporter that keeps nothing: the cost measured is the span's, not a backend's. */
const dropping: SpanExporter = {
  export(_spans: ReadableSpan[], done) {
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};

const passThrough: Middleware = (_call, next) => next();
const tree = api({ hello: op(() => ({ hello: "world" }), http.get) });
const sdk = {
  tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] }),
  meterProvider: new MeterProvider(),
};
const trees = {
  untraced: tree,
  // What any middleware costs, to tell the chain's share from tracing's.
  "a pass-through middleware": useAll(tree, passThrough),
  "traced, no SDK": traced(tree),
  "traced into the SDK": traced(tree, sdk),
};

for (const [name, variant] of Object.entries(trees)) {
  const handle = createFetch(variant, { openapi: false });
  const answer = await (await handle(new Request("http://localhost/hello"))).text();
  // Every variant must answer alike, or the comparison means nothing.
  if (answer !== '{"hello":"world"}') throw new Error(`${name}: ${answer}`);
  Deno.bench(
    { name: `createFetch, ${name}`, group: "createFetch", baseline: name === "untraced" },
    async () => {
      await (await handle(new Request("http://localhost/hello"))).text();
    },
  );
  const call = createCall(variant.children.hello);
  const context = { surface: "http" as const };
  Deno.bench(
    { name: `createCall, ${name}`, group: "createCall", baseline: name === "untraced" },
    async () => {
      await call({}, context);
    },
  );
}
