// The tasks extension's status notifications (SEP-2663): a 2026-07-28
// `subscriptions/listen` whose filter names `taskIds` gets, on its stream, a
// `notifications/tasks` (the task as `tasks/get` answers it) at each change of
// each task it names, from `TaskRuntime.watch`, so a change made on another
// instance sharing the store arrives too. Only the caller's own tasks are
// acknowledged and followed: the ids of another identity's, or unknown ones,
// are left out of the acknowledgement and never heard of, as `tasks/get`
// answers them not found. The SDK's listen router knows only its four change
// kinds, so this module serves the stream: alone when tasks are all the
// filter names, else around the SDK's own stream for the rest of the filter
// (the SDK's acknowledgement gains the accepted `taskIds`, and the task
// notifications go out between its events). A stream naming tasks alone ends
// gracefully once each of them has ended, as the SDK's ends when nothing it
// could send is left.

import type { ClientCapabilities } from "@modelcontextprotocol/server";
import type { TaskRecord } from "../../tasks/store.ts";
import type { ContextSource } from "../../tree/context.ts";
import type { HandlerContext } from "../../tree/node.ts";
import type { TaskCaller } from "../../tasks/owner.ts";
import { isPlainObject } from "../../tree/plain_data.ts";

/** What a call or a task request brings: its context made as a call's, and its capabilities. */
export interface TaskRequest {
  readonly context: HandlerContext;
  readonly source: ContextSource;
  readonly capabilities: ClientCapabilities | undefined;
}

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** Task ids one listen stream may follow. */
const MAX_TASKS_PER_LISTEN = 100;
/** The revision whose `subscriptions/listen` carries task notifications. */
const LISTEN_REVISION = "2026-07-28";
/** Notifications waiting on a stream its client does not read, at most (the end aside). */
const MAX_QUEUED = 1000;
/** A comment this often keeps an idle stream through proxies (the SDK's own period). */
const KEEP_ALIVE_MS = 15_000;
/** The filter's members the SDK's listen router honours. */
const SDK_MEMBERS = [
  "toolsListChanged",
  "promptsListChanged",
  "resourcesListChanged",
  "resourceSubscriptions",
];
const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** What the listen module needs of the tasks of one handler. */
export interface ListenDeps {
  readonly loaded: Sdk;
  /** The task as `owner` may see it (the runtime's `get`). */
  readonly get: (id: string, owner: TaskCaller) => Promise<TaskRecord | undefined>;
  /** The runtime's watch: the record at each change, as `owner` may see it. */
  readonly watch: (
    id: string,
    owner: TaskCaller,
    listener: (record: TaskRecord) => void,
  ) => Promise<(() => Promise<void>) | undefined>;
  /** The caller's identity, as for `tasks/get`. */
  readonly callerOf: (request: TaskRequest) => Promise<TaskCaller>;
  /** The task as `tasks/get` answers it. */
  readonly detailOf: (record: TaskRecord) => Record<string, unknown>;
  /** Whether the capabilities declare the extension. */
  readonly declares: (capabilities: unknown) => boolean;
  readonly serverInfo: { readonly name: string; readonly version: string };
}

/** A `subscriptions/listen` naming task ids: its id, its task ids, the rest of its filter. */
interface TaskListen {
  readonly id: string | number;
  readonly taskIds: readonly string[];
  /** The same message without `taskIds`, when the rest of the filter asks the SDK for anything. */
  readonly rest?: unknown;
  readonly capabilities: unknown;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One server-sent event carrying a JSON-RPC message. */
function frame(message: Record<string, unknown>): Uint8Array {
  return encoder.encode(
    `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...message })}\n\n`,
  );
}

/**
 * Serves `parsed` when it is a `subscriptions/listen` naming `taskIds` from a
 * client declaring the extension; any other request (and a listen without
 * them) goes to `next` as it came.
 */
export async function listenForTasks(
  deps: ListenDeps,
  request: Request,
  parsed: unknown,
  next: (request: Request, parsed: unknown) => Promise<Response>,
): Promise<Response> {
  const listen = taskListenOf(deps, request, parsed);
  if (listen === undefined) return await next(request, parsed);
  const context: HandlerContext = { signal: request.signal, surface: "mcp", request };
  const owner = await deps.callerOf({
    context,
    source: { surface: "mcp", request },
    capabilities: listen.capabilities as TaskRequest["capabilities"],
  });
  const stamp = { [deps.loaded.SUBSCRIPTION_ID_META_KEY]: listen.id };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(made) {
      controller = made;
    },
    cancel: () => end(false),
  });
  let closed = false;
  const stops: (() => Promise<void>)[] = [];
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  // Whether the SDK's stream carries the rest of the filter: then it, not the tasks, ends the stream.
  let shared = listen.rest !== undefined;
  let upstream: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const write = (bytes: Uint8Array) => {
    if (closed) return;
    try {
      controller.enqueue(bytes);
    } catch {
      // The client went away: the stream's cancel ends the rest.
    }
  };
  function end(graceful: boolean): void {
    if (closed) return;
    if (graceful) {
      write(frame({
        id: listen!.id,
        result: {
          resultType: "complete",
          _meta: { ...stamp, [deps.loaded.SERVER_INFO_META_KEY]: deps.serverInfo },
        },
      }));
    }
    closed = true;
    clearInterval(keepAlive);
    for (const stop of stops.splice(0)) void stop().catch(() => {});
    void upstream?.cancel().catch(() => {});
    try {
      controller.close();
    } catch {
      // Already closed.
    }
  }
  request.signal.addEventListener("abort", () => end(false), { once: true });

  // Task notifications wait for the acknowledgement, which the client must hear first.
  let held: TaskRecord[] | undefined = [];
  const live = new Set<string>();
  const sent = new Map<string, { at: number; said: string }>();
  const notify = (record: TaskRecord) => {
    if (held !== undefined) return void held.push(record);
    const before = sent.get(record.id);
    // A watcher's read may land after a newer one: a record older than the last sent is stale.
    if (before !== undefined && record.updatedAt < before.at) return;
    const detail = deps.detailOf(record);
    const terminal = TERMINAL.has(String(detail.status));
    // A client not reading its stream is not buffered for without end: each notification is the
    // whole task, so a change dropped here is told by the next one, and the end always is.
    if (!terminal && (controller.desiredSize ?? 0) < -MAX_QUEUED) return;
    const { lastUpdatedAt: _at, ...rest } = detail;
    const said = JSON.stringify(rest);
    if (before?.said === said) return;
    sent.set(record.id, { at: record.updatedAt, said });
    write(frame({ method: "notifications/tasks", params: { ...detail, _meta: stamp } }));
    if (!terminal) return;
    live.delete(record.id);
    if (live.size === 0 && !shared) end(true);
  };
  // Each named task of the caller's, watched before it is read, so that no change is missed.
  const accepted = new Set<string>();
  await Promise.all(listen.taskIds.map(async (id) => {
    try {
      const stop = await deps.watch(id, owner, notify);
      if (stop === undefined) return;
      stops.push(stop);
      accepted.add(id);
      live.add(id);
    } catch {
      // The store out of reach: not acknowledged, as a task not found.
    }
  }));
  const taskIds = listen.taskIds.filter((id) => accepted.has(id));
  const ack = (notifications: Record<string, unknown>) =>
    frame({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { ...notifications, taskIds }, _meta: stamp },
    });
  const acknowledged = async () => {
    // Each task as it stands now (one that ended before the listen still says how), then its
    // changes in order.
    const current = await Promise.all(
      taskIds.map((id) => deps.get(id, owner).catch(() => undefined)),
    );
    const waiting = held ?? [];
    held = undefined;
    for (const record of current) if (record !== undefined) notify(record);
    for (const record of waiting) notify(record);
  };
  if (listen.rest === undefined) {
    write(ack({}));
    if (taskIds.length === 0) end(true);
    else {
      keepAlive = setInterval(() => write(encoder.encode(": keepalive\n\n")), KEEP_ALIVE_MS);
      await acknowledged();
    }
  } else {
    const response = await next(request, listen.rest);
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      // Refused (its params, a bound): the SDK's answer, and nothing followed.
      end(false);
      return response;
    }
    upstream = response.body!.getReader();
    const alone = () => {
      // The SDK's part ended (it honoured nothing, or closed) while tasks go on: they end it now.
      if (closed || live.size === 0) return end(false);
      shared = false;
      keepAlive = setInterval(() => write(encoder.encode(": keepalive\n\n")), KEEP_ALIVE_MS);
    };
    relay(upstream, listen.id, ack, write, acknowledged, () => live.size > 0).then(alone, alone);
  }
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}

/**
 * Copies the SDK's stream event by event (a task notification goes out only
 * between two of its events), its acknowledgement made to name the accepted
 * task ids too, and its graceful close held back while `following()`.
 */
async function relay(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  id: string | number,
  ack: (notifications: Record<string, unknown>) => Uint8Array,
  write: (bytes: Uint8Array) => void,
  acknowledged: () => Promise<void>,
  following: () => boolean,
): Promise<void> {
  let buffer = "";
  let seenAck = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf("\n\n")) !== -1) {
      const event = buffer.slice(0, boundary + 2);
      buffer = buffer.slice(boundary + 2);
      const message = messageOf(event);
      // The SDK's graceful close ends the listen: held back while tasks are still followed.
      if (message?.id === id && "result" in message && following()) continue;
      if (seenAck || message?.method !== "notifications/subscriptions/acknowledged") {
        write(encoder.encode(event));
        continue;
      }
      seenAck = true;
      const params = isPlainObject(message.params) ? message.params : {};
      write(ack(isPlainObject(params.notifications) ? params.notifications : {}));
      await acknowledged();
    }
  }
}

/** The JSON-RPC message an event carries, if any. */
function messageOf(event: string): Record<string, unknown> | undefined {
  const data = event.split("\n").filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart()).join("\n");
  if (data === "") return undefined;
  try {
    const message = JSON.parse(data);
    return isPlainObject(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

/** The listen request naming task ids, from a client of the extension; undefined for any other. */
function taskListenOf(
  deps: ListenDeps,
  request: Request,
  message: unknown,
): TaskListen | undefined {
  if (!isPlainObject(message) || message.method !== "subscriptions/listen") return undefined;
  const id = message.id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const params = isPlainObject(message.params) ? message.params : undefined;
  const notifications = isPlainObject(params?.notifications) ? params.notifications : undefined;
  const taskIds = notifications?.taskIds;
  if (!Array.isArray(taskIds)) return undefined;
  const meta = isPlainObject(params?._meta) ? params._meta : undefined;
  const capabilities = meta?.[deps.loaded.CLIENT_CAPABILITIES_META_KEY];
  if (!deps.declares(capabilities)) return undefined;
  // One the SDK would refuse (its revision, its routing header) is left to it to refuse.
  if (
    request.headers.get("mcp-method") !== "subscriptions/listen" ||
    meta?.[deps.loaded.PROTOCOL_VERSION_META_KEY] !== LISTEN_REVISION
  ) return undefined;
  const { taskIds: _named, ...others } = notifications!;
  const asksSdk = SDK_MEMBERS.some((member) => {
    const value = others[member];
    return value === true || (Array.isArray(value) && value.length > 0);
  });
  return {
    id,
    taskIds: [...new Set(taskIds.filter((item) => typeof item === "string"))]
      .slice(0, MAX_TASKS_PER_LISTEN),
    capabilities,
    ...(asksSdk ? { rest: { ...message, params: { ...params, notifications: others } } } : {}),
  };
}
