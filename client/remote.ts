/**
 * The client of a tree's manifest:
 * `createClientFromManifest<typeof tree>(manifest, opts)` takes the tree only
 * as a type (`import type`), so a browser bundle holds this
 * runtime and the manifest's plain data, never a handler or a schema. The
 * calls and their types are exactly those of `createClient(tree)` from
 * `@ramify/api/http`, which is this over `toClientManifest(tree)`.
 *
 * @example
 * ```ts
 * import { createClientFromManifest } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, toClientManifest } from "@ramify/api/http";
 *
 * const tree = api({ ping: op(() => "pong") });
 * const manifest = toClientManifest(tree); // in a build step, written to a module
 * const client = createClientFromManifest<typeof tree>(manifest, { fetch: createFetch(tree) });
 * console.log(await client.ping()); // "pong"
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { type DatePath, reviveDates } from "../tree/dates.ts";
import { mediaTypeEssence } from "../tree/media_type.ts";
import { ClientError } from "./client_error.ts";
import type {
  CallOptions,
  ClientExtension,
  ClientOperation,
  ClientRequest,
  Send,
} from "./extension.ts";
import { encodeSegment } from "../route/path.ts";
import { readEvents } from "./_sse.ts";
import type { GapNotice } from "../tree/stream_events.ts";
import type { Client, TaskState } from "./client_types.ts";
import { type Captures, materialize, shapeOf } from "./shape.ts";
import { checkedManifest, type ClientManifest, type ManifestOperation } from "./manifest.ts";
import { bytesOfResponse } from "./_file_name.ts";
import { taskAnswer, type TaskIo } from "./_tasks.ts";

/**
 * Any fetch-compatible function: the global `fetch`, or a server's own handler
 * (such as `createFetch(tree)`) to call it in process.
 *
 * @example
 * ```ts
 * import type { FetchLike } from "@ramify/api/client";
 *
 * const viaGlobal: FetchLike = (request) => fetch(request);
 * ```
 */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * How a client reaches its server: where, with which fetch, headers,
 * credentials and extensions. The options of the browser client; the
 * tree-taking client's `ClientOptions` adds the projection options.
 *
 * @example
 * ```ts
 * import type { ClientTransportOptions } from "@ramify/api/client";
 *
 * const opts: ClientTransportOptions = {
 *   baseUrl: "https://api.example.com/v1/",
 *   headers: { authorization: "Bearer token" },
 * };
 * ```
 */
export interface ClientTransportOptions {
  /**
   * Where the API is served; a path prefix in it is kept (`https://host/api`
   * calls `https://host/api/books/list`). Default: the page's origin in a
   * browser, else `http://localhost`.
   */
  readonly baseUrl?: string | URL;
  /** The fetch to send with. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /**
   * Headers sent with every call, or a function giving them for each call
   * (a fresh credential, say).
   */
  readonly headers?:
    | ConstructorParameters<typeof Headers>[0]
    | (() =>
      | ConstructorParameters<typeof Headers>[0]
      | Promise<ConstructorParameters<typeof Headers>[0]>);
  /**
   * A bearer token sent as `Authorization: Bearer <token>` with every call, or
   * a function giving it for each call (`undefined`: none).
   */
  readonly token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Extensions, the first outermost (see `ClientExtension`). */
  readonly extensions?: readonly ClientExtension[];
}

/**
 * The typed client of a manifest; give the tree's type (`typeof tree`, from an
 * `import type`) to type it, as `createClient(tree)` is typed. The manifest
 * is checked first, since it may come from elsewhere (a file, the server).
 *
 * @example
 * ```ts
 * import { type ClientManifest, createClientFromManifest } from "@ramify/api/client";
 *
 * const manifest: ClientManifest = {
 *   manifest: 1,
 *   operations: [{ steps: [{ kind: "child", name: "ping" }], method: "POST", path: "/ping", tags: {}, stream: false, dates: [], errors: [] }],
 * };
 * const client = createClientFromManifest(manifest, { baseUrl: "https://api.example.com" });
 * ```
 *
 * @throws {TypeError} when the manifest is not one.
 */
export function createClientFromManifest<T extends Node = Node>(
  manifest: ClientManifest,
  opts: ClientTransportOptions = {},
): Client<T> {
  const base = baseUrlOf(opts.baseUrl);
  const fetcher: FetchLike = opts.fetch ?? ((request) => fetch(request));
  const send = (opts.extensions ?? []).reduceRight<Send>(
    (next, extension) => extension.wrap(next),
    (request) =>
      fetcher(
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: request.signal,
        }),
      ),
  );
  const context: CallContext = { base, defaults: defaultHeaders(opts), send };
  const shape = shapeOf(
    checkedManifest(manifest).operations.map((operation) => ({
      steps: operation.steps,
      payload: prepare(operation),
    })),
  );
  return materialize(
    shape,
    [],
    (prepared, captures, input, options) => call(prepared, captures, input, options, context),
    ({ operation }) =>
      operation.invalidates === undefined
        ? { tags: operation.tags }
        : { tags: operation.tags, invalidates: operation.invalidates },
  ) as Client<T>;
}

interface CallContext {
  readonly base: string;
  readonly defaults: () => Headers | Promise<Headers>;
  readonly send: Send;
}

/** The headers of every call: fixed ones once, else per call; the token as `Authorization`. */
function defaultHeaders(opts: ClientTransportOptions): () => Headers | Promise<Headers> {
  const { headers, token } = opts;
  if (typeof headers !== "function" && typeof token !== "function") {
    const fixed = new Headers(headers);
    if (token !== undefined) fixed.set("authorization", `Bearer ${token}`);
    return () => new Headers(fixed);
  }
  return async () => {
    const made = new Headers(typeof headers === "function" ? await headers() : headers);
    const bearer = typeof token === "function" ? await token() : token;
    if (bearer !== undefined) made.set("authorization", `Bearer ${bearer}`);
    return made;
  };
}

/** An operation with what every call of it needs, worked out once. */
interface Prepared {
  readonly operation: ClientOperation;
  /** Path segments: encoded static text, or the index of a capture. */
  readonly segments: readonly (string | { readonly capture: string })[];
  readonly inQuery: boolean;
  readonly streams: boolean;
  /** What `Accept` asks for. */
  readonly accept: string;
  /** Where the output schema promises dates, which travel as date-time strings. */
  readonly dates: readonly DatePath[];
  /** The error codes the operation declares. */
  readonly declared: readonly string[];
  /** Whether it is long-running (tag `longRunning`): its server may answer with a task. */
  readonly longRunning: boolean;
}

const QUERY_VERBS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

function prepare(operation: ManifestOperation): Prepared {
  const segments = operation.path.split("/").slice(1).filter((s) => s !== "").map((segment) =>
    segment.startsWith("{") && segment.endsWith("}")
      ? { capture: segment.slice(1, -1) }
      : encodeSegment(segment)
  );
  return {
    operation: {
      method: operation.method,
      path: operation.path,
      steps: operation.steps,
      tags: operation.tags,
      ...(operation.idempotencyKey === undefined
        ? {}
        : { idempotencyKey: operation.idempotencyKey }),
      ...(operation.invalidates === undefined ? {} : { invalidates: operation.invalidates }),
    },
    segments,
    inQuery: QUERY_VERBS.has(operation.method),
    streams: operation.stream,
    accept: operation.stream
      ? "text/event-stream"
      : operation.bytes === true
      ? "*/*"
      : "application/json, application/problem+json",
    dates: operation.dates,
    declared: operation.errors,
    longRunning: operation.tags.longRunning === true,
  };
}

async function call(
  prepared: Prepared,
  captures: Captures,
  input: Record<string, unknown>,
  options: CallOptions,
  context: CallContext,
): Promise<unknown> {
  const captured = new Map(captures);
  const path = prepared.segments.map((segment) =>
    typeof segment === "string" ? segment : encodeSegment(captured.get(segment.capture) ?? "")
  ).join("/");
  // Fixed headers are ready at once: no await before the request is sent.
  const made = context.defaults();
  const headers = made instanceof Promise ? await made : made;
  for (const [name, value] of new Headers(options.headers)) headers.set(name, value);
  headers.set("accept", prepared.accept);
  // The handle at once, whatever the server would choose (RFC 7240).
  if (options.async === true) headers.set("prefer", "respond-async");
  let body: string | FormData | undefined;
  const values = Object.entries(input).filter(([key, value]) =>
    value !== undefined && !captured.has(key)
  );
  let query = "";
  if (prepared.inQuery) {
    query = queryOf(values);
  } else if (values.some(([, value]) => holdsBlob(value))) {
    // fetch writes the multipart Content-Type, boundary included.
    body = formOf(values);
  } else {
    body = JSON.stringify(Object.fromEntries(values));
    headers.set("content-type", "application/json");
  }
  const request: ClientRequest = {
    operation: prepared.operation,
    method: prepared.operation.method,
    url: `${context.base}/${path}${query}`,
    headers,
    body,
    signal: options.signal,
    options,
  };
  const response = await context.send(request);
  if (prepared.longRunning || options.async === true) {
    const io = taskIo(request, prepared, context);
    return await taskAnswer(response, request.url, options.async === true, options.signal, io);
  }
  return await decoded(response, request, prepared);
}

/** A response decoded as the call's answer, its dates revived. */
async function decoded(response: Response, request: ClientRequest, prepared: Prepared) {
  const result = await decode(response, request, prepared);
  if (prepared.dates.length === 0 || result === undefined) return result;
  return prepared.streams
    ? revivedItems(result as AsyncIterable<unknown>, prepared.dates)
    : reviveDates(result, prepared.dates);
}

/**
 * A task's requests: the call's extensions and decoding, for its status
 * resource. Each request makes the client's headers anew (a `token` function
 * gives the token as it is now: a renewed one keeps the task), the call's own
 * headers over them.
 */
function taskIo(request: ClientRequest, prepared: Prepared, context: CallContext): TaskIo {
  const own = new Headers(request.options.headers);
  for (const name of ["content-type", "prefer", "idempotency-key"]) own.delete(name);
  const headersOf = async (body: string | undefined) => {
    const headers = await context.defaults();
    for (const [name, value] of own) headers.set(name, value);
    headers.set("accept", "application/json, application/problem+json");
    if (body !== undefined) headers.set("content-type", "application/json");
    return headers;
  };
  const asked = async (
    method: "GET" | "DELETE" | "POST",
    url: string,
    body?: string,
  ): Promise<ClientRequest> => ({
    ...request,
    method,
    url,
    headers: await headersOf(body),
    body,
    // A cancel is sent when the caller aborts: the caller's signal must not stop it.
    signal: method === "DELETE" ? undefined : request.signal,
  });
  const document: Prepared = { ...prepared, streams: false, dates: [] };
  return {
    send: async (method, url, body) => context.send(await asked(method, url, body)),
    decode: async (response, url) => decoded(response, await asked("GET", url), prepared),
    state: async (response, url) =>
      await decode(response, await asked("GET", url), document) as TaskState,
  };
}

async function* revivedItems(source: AsyncIterable<unknown>, dates: readonly DatePath[]) {
  for await (const item of source) yield reviveDates(item, dates);
}

function holdsBlob(value: unknown): boolean {
  return value instanceof Blob || (Array.isArray(value) && value.some((v) => v instanceof Blob));
}

/** Multipart fields the server reads back: files as files, arrays repeated, objects as JSON. */
function formOf(values: readonly [string, unknown][]): FormData {
  const form = new FormData();
  const add = (key: string, value: unknown) => {
    if (value instanceof Blob) form.append(key, value);
    else if (value === null) return;
    else form.append(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  };
  // An array holding files is one field each; any other array is JSON.
  for (const [key, value] of values) {
    for (const item of Array.isArray(value) && holdsBlob(value) ? value : [value]) add(key, item);
  }
  return form;
}

/**
 * `?a=1&tags=x&tags=y`: arrays as repeated keys, objects as JSON, `null` left
 * out; strings and dates bare (a date as its date-time string, which the
 * server reads back into a `Date` where the schema asks for one).
 */
function queryOf(values: readonly [string, unknown][]): string {
  const params = new URLSearchParams();
  const text = (value: unknown) =>
    value instanceof Date
      ? value.toISOString()
      : typeof value === "object" && value !== null
      ? JSON.stringify(value)
      : String(value);
  for (const [key, value] of values) {
    if (value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(key, text(item));
    } else {
      params.append(key, text(value));
    }
  }
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

async function decode(response: Response, request: ClientRequest, prepared: Prepared) {
  const { streams, declared } = prepared;
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok) {
    throw new ClientError({
      method: request.method,
      url: request.url,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: await readBody(response, type),
      declared,
    });
  }
  if (response.status === 204 || response.status === 205 || request.method === "HEAD") {
    await response.body?.cancel();
    return undefined;
  }
  if (streams || mediaTypeEssence(type) === "text/event-stream") {
    return response.body === null ? emptyStream() : eventsOf(response.body, request, declared);
  }
  // Anything typed that is not JSON is bytes, whatever the leaf declares: a
  // Blob, or a File when the response names it.
  if (type !== "" && !JSON_TYPE.test(mediaTypeEssence(type))) {
    return await bytesOfResponse(response);
  }
  return await readBody(response, type);
}

const JSON_TYPE = /[/+]json$/;

async function readBody(response: Response, type: string): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  if (JSON_TYPE.test(mediaTypeEssence(type))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function* emptyStream(): AsyncGenerator<never> {}

async function* eventsOf(
  body: ReadableStream<Uint8Array>,
  request: ClientRequest,
  declared: readonly string[],
) {
  for await (const { event, data, id } of readEvents(body)) {
    const value: unknown = JSON.parse(data);
    if (event === "gap") {
      request.options.onGap?.(value as GapNotice);
      continue;
    }
    if (event === "error") {
      const problem = value as { status?: number; title?: string };
      throw new ClientError({
        method: request.method,
        url: request.url,
        status: problem.status ?? 500,
        statusText: problem.title ?? "Stream Error",
        headers: new Headers(),
        body: value,
        declared,
      });
    }
    if (id !== undefined) request.options.onEventId?.(id);
    yield value;
  }
}

/** The base as text without a trailing slash: route paths are appended to it. */
function baseUrlOf(baseUrl: string | URL | undefined): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const url = new URL(baseUrl ?? origin ?? "http://localhost");
  const prefix = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${prefix}`;
}
