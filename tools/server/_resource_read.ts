// `resources/list`, `resources/templates/list` and `resources/read` on one
// SDK server. A read finds the resource its URI names (a listed URI, else the
// most specific template it fits), calls the leaf through the one call path
// with the captures as its input (the `context` option, middleware, schemas,
// `timeoutMs`, masking of faults: as `tools/call`), and returns its value: a
// string as `text/plain`, bytes as a base64 `blob` of their media type, any
// other value as JSON text. A failure is a JSON-RPC error: not found (404)
// the SDK's resource-not-found (-32602 on the wire, per 2026-07-28), refused
// input -32602, anything else -32603, each with the tree's line for it.

import { textOf } from "./_text.ts";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import type { ContextFunction, ContextSource } from "../../tree/context.ts";
import { call as performCall } from "../../engine/engine.ts";
import type { HandlerContext } from "../../tree/node.ts";
import type { LeafCall } from "../../tree/call.ts";
import { failureOf } from "../../tree/run.ts";
import { failureLine } from "../../tree/failure.ts";
import { bytesOf, responseBytes } from "../../tree/bytes.ts";
import { resultKindOf } from "../../tree/result_kind.ts";
import { HttpError } from "../../tree/http_error.ts";
import { readAll } from "./_bytes.ts";
import { observe } from "./_result.ts";
import { resourceBlock } from "../../tree/content.ts";
import type { ResourceEntry, Resources } from "../projection/resources.ts";
import { bind, splitUri, UriRefused } from "../projection/uri_template.ts";

type Sdk = typeof import("@modelcontextprotocol/server");

/** One content of a `resources/read` result. */
type Contents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType: string; blob: string };

/** The server options resources read (`McpOptions` has them all). */
export interface ResourceOptions {
  readonly resourceScheme?: string;
  readonly listTtlMs?: number;
  readonly context?: ContextFunction;
  readonly timeoutMs?: number;
  readonly onError?: (error: unknown) => void;
}

/** What calling a leaf on a request's behalf needs: the server's options and the request's context. */
export interface Caller {
  readonly opts: ResourceOptions;
  readonly onError: (error: unknown) => void;
  /** Over stdio: a request standing for the process, holding `opts.headers`. */
  readonly standIn?: Request;
  /** The call's fresh context, made as `tools/call` makes it. */
  readonly contextOf: (ctx: ServerContext) => HandlerContext;
}

/** Registers the resource handlers; `pageSize` pages both lists as `tools/list` is. */
export function registerResources(
  server: Server,
  loaded: Sdk,
  resources: Resources,
  caller: Caller,
  pageSize: number,
): void {
  const page = <T>(all: readonly T[], cursor: string | undefined) =>
    pageOf(loaded, all, cursor, pageSize);
  server.setRequestHandler("resources/list", (request) => {
    const { items, ...next } = page(resources.listed, request.params?.cursor);
    return { resources: items.map((entry) => ({ uri: entry.uri, ...described(entry) })), ...next };
  });
  server.setRequestHandler("resources/templates/list", (request) => {
    const { items, ...next } = page(resources.templates, request.params?.cursor);
    return {
      resourceTemplates: items.map((entry) => ({ uriTemplate: entry.uri, ...described(entry) })),
      ...next,
    };
  });
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    const [entry, captures] = resolve(loaded, resources, uri);
    const context = caller.contextOf(ctx);
    try {
      const value = await runWith(entry.call, captures, context, ctx.http?.req, caller.opts);
      return { contents: [await contentsOf(value, uri, entry, context.signal)] };
    } catch (error) {
      throw protocolErrorOf(loaded, failureOf(error, context), caller.onError);
    }
  });
}

/** The page of a list a cursor (the offset, as text) names; -32602 for any other cursor. */
export function pageOf<T>(
  loaded: Sdk,
  all: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0 || start > all.length || cursor === "") {
    throw new loaded.ProtocolError(
      loaded.ProtocolErrorCode.InvalidParams,
      `Invalid cursor: ${JSON.stringify(cursor)}`,
    );
  }
  const end = start + pageSize;
  return {
    items: all.slice(start, end),
    ...(end < all.length ? { nextCursor: String(end) } : {}),
  };
}

function described(entry: ResourceEntry) {
  return {
    name: entry.name,
    title: entry.title,
    ...(entry.description === undefined ? {} : { description: entry.description }),
    ...(entry.mimeType === undefined ? {} : { mimeType: entry.mimeType }),
  };
}

/**
 * The resource a URI names and the captures it binds. A URI of another
 * scheme, or one no resource fits, is not found; a refused shape is -32602.
 */
export function resolve(
  loaded: Sdk,
  resources: Resources,
  uri: string,
): [ResourceEntry, Record<string, string>] {
  let found: [ResourceEntry, Record<string, string>] | undefined;
  try {
    found = findResource(resources, uri);
  } catch (error) {
    if (error instanceof UriRefused) {
      throw new loaded.ProtocolError(loaded.ProtocolErrorCode.InvalidParams, error.message, {
        uri: uri.slice(0, 200),
      });
    }
    throw error;
  }
  if (found !== undefined) return found;
  throw new loaded.ResourceNotFoundError(uri.slice(0, 200), "Resource not found");
}

/** The resource a URI names and its captures, or undefined; throws UriRefused for a refused shape. */
export function findResource(
  resources: Resources,
  uri: string,
): [ResourceEntry, Record<string, string>] | undefined {
  const raw = splitUri(uri, resources.scheme);
  if (raw === undefined) return undefined;
  for (const entry of [...resources.listed, ...resources.templates]) {
    const captures = bind(entry.segments, raw);
    if (captures !== undefined) return [entry, captures];
  }
  return undefined;
}

/**
 * Calls a leaf with `input` as `tools/call` does (the request's signal and
 * `_meta`, the carrying request, the `context` option, `timeoutMs`); a
 * failure is thrown as a JSON-RPC error, a fault observed and masked.
 */
export async function callLeaf(
  loaded: Sdk,
  call: LeafCall,
  input: Record<string, unknown>,
  ctx: ServerContext,
  caller: Caller,
): Promise<unknown> {
  const context = caller.contextOf(ctx);
  try {
    return await runWith(call, input, context, ctx.http?.req, caller.opts);
  } catch (error) {
    throw protocolErrorOf(loaded, failureOf(error, context), caller.onError);
  }
}

/** Runs the call in `context`, after the server's `context` option has added its values. */
export async function runWith(
  call: LeafCall,
  input: Record<string, unknown>,
  context: HandlerContext,
  carried: Request | undefined,
  opts: { readonly context?: ContextFunction; readonly timeoutMs?: number },
): Promise<unknown> {
  const source: ContextSource = carried === undefined
    ? { surface: "mcp" }
    : { surface: "mcp", request: carried };
  return await performCall(call, input, context, opts, source);
}

/** A failure as the JSON-RPC error a resource read (or completion) answers. */
export function protocolErrorOf(
  loaded: Sdk,
  failure: ReturnType<typeof failureOf>,
  onError: (error: unknown) => void,
): Error {
  if (failure.kind === "fault") observe(onError, failure.error);
  const line = failureLine(failure);
  const data = {
    status: failure.status,
    code: failure.code,
    ...(failure.data === undefined ? {} : { data: failure.data }),
  };
  const code = failure.status === 404 || failure.kind === "input" || failure.status === 400
    ? loaded.ProtocolErrorCode.InvalidParams
    : loaded.ProtocolErrorCode.InternalError;
  return new loaded.ProtocolError(code, line, data);
}

/** The leaf's value as the read's one content. */
async function contentsOf(
  value: unknown,
  uri: string,
  entry: ResourceEntry,
  signal: AbortSignal | undefined,
): Promise<Contents> {
  const kind = resultKindOf(value);
  if (kind === "bytes") return await blobOf(bytesOf(value, entry.bytesType), uri, signal);
  if (kind === "response") {
    const response = value as Response;
    const bytes = response.ok ? responseBytes(response, entry.bytesType) : undefined;
    if (bytes !== undefined) return await blobOf(bytes, uri, signal);
    const text = await response.text();
    if (!response.ok) throw new HttpError(response.status, text);
    const type = response.headers.get("content-type") ?? undefined;
    return { uri, ...(type === undefined ? {} : { mimeType: type }), text };
  }
  // A stream is no resource (collectResources leaves streaming leaves out); a
  // handler returning one anyway is refused rather than read without end.
  if (kind === "stream") throw new TypeError(`${entry.name}: a resource's value is a stream`);
  return { uri, ...textOf(value) };
}

async function blobOf(
  bytes: ReturnType<typeof bytesOf>,
  uri: string,
  signal: AbortSignal | undefined,
): Promise<Contents> {
  // The same rule as an embedded resource's: text for a text media type, else a base64 blob.
  return resourceBlock(await readAll(bytes.body, signal), bytes.type, uri).resource;
}
