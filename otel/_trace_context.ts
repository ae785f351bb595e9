// W3C Trace Context (`traceparent`, `tracestate`) read from a call and written
// on a request, by hand rather than through the global propagator: a span must
// be the child of an incoming `traceparent` whether or not the application
// registered a propagator, and a client must send one the same way.

import { createTraceState, type SpanContext, trace, TraceFlags } from "@opentelemetry/api";
import type { HandlerContext } from "../tree/node.ts";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The remote span context a call carries: MCP's `_meta.traceparent` (which
 * stdio has no headers for) before the request's `traceparent` header.
 */
export function carriedSpanContext(context: HandlerContext): SpanContext | undefined {
  const meta = context.mcpMeta;
  if (typeof meta === "object" && meta !== null) {
    const { traceparent, tracestate } = meta as Record<string, unknown>;
    if (typeof traceparent === "string") {
      return parsed(traceparent, typeof tracestate === "string" ? tracestate : undefined);
    }
  }
  const headers = context.request?.headers;
  const traceparent = headers?.get("traceparent");
  if (traceparent === null || traceparent === undefined) return undefined;
  return parsed(traceparent, headers?.get("tracestate") ?? undefined);
}

/** A `traceparent` value as a remote span context; a malformed one is ignored, as the spec asks. */
export function parsed(traceparent: string, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is forbidden; version 00 has nothing after the flags.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(tracestate === undefined ? {} : { traceState: createTraceState(tracestate) }),
  };
  return trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/** The `traceparent` value naming `span` as the parent. */
export function traceparentOf(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${span.traceFlags.toString(16).padStart(2, "0")}`;
}
