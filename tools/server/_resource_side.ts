// The resource side of an MCP server, made once per handler (createMcpHandler,
// serveMcpStdio) and registered on each SDK server it makes: the resources and
// templates, the followed URIs (_subscriptions.ts), the capabilities they
// declare, the cache hints of the lists, and the handlers of
// `resources/subscribe` and `resources/unsubscribe` for each era.

import { untilDelivered } from "../sessions/delivered.ts";
import type { Server, ServerOptions } from "@modelcontextprotocol/server";
import type { Node } from "../../tree/node.ts";
import { collectResources, type Resources } from "../projection/resources.ts";
import {
  type Caller,
  findResource,
  protocolErrorOf,
  registerResources,
  resolve,
  type ResourceOptions,
} from "./_resource_read.ts";
import { failureOf } from "../../tree/run.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { logFault } from "../../tree/outage.ts";
import { type PromptCompleter, registerCompletion } from "./_completion.ts";
import {
  Feeds,
  MAX_PER_SESSION,
  SessionSubscriptions,
  type Sink,
  SubscribeRefused,
} from "./_subscriptions.ts";

type Sdk = typeof import("@modelcontextprotocol/server");

/** What one handler serves beside its tools. */
export interface ResourceSide {
  readonly resources: Resources;
  readonly feeds: Feeds;
  readonly sessions: SessionSubscriptions;
  /** Whether any resource names the stream of its changes. */
  readonly followed: boolean;
}

/** The tree's resources, or undefined when it has none. */
export function resourceSide(
  tree: Node,
  caller: string,
  opts: ResourceOptions,
): ResourceSide | undefined {
  const resources = collectResources(tree, caller, opts.resourceScheme ?? "ramify");
  if (resources.listed.length === 0 && resources.templates.length === 0) return undefined;
  const feeds = new Feeds(
    opts,
    opts.onError ?? ((error: unknown) => logFault("ramify: MCP resource crashed:", error)),
  );
  return {
    resources,
    feeds,
    sessions: new SessionSubscriptions(feeds),
    followed: [...resources.listed, ...resources.templates].some((entry) =>
      entry.updates !== undefined
    ),
  };
}

/**
 * The capabilities the side declares: `resources` (subscribable, and a
 * static tree's list never changes) and `completions` when there are
 * templates or prompts to complete.
 */
export function sideCapabilities(side: ResourceSide | undefined, prompts: boolean) {
  return {
    ...(side === undefined ? {} : { resources: { subscribe: true, listChanged: false } }),
    ...(prompts || (side?.resources.templates.length ?? 0) > 0 ? { completions: {} } : {}),
  };
}

/**
 * How long clients may cache the lists (SEP-2549, the 2026-07-28 revision):
 * `listTtlMs`, for everyone alike, since a tree's lists are the same for
 * every caller and never change while it is served. A read is the caller's
 * own and is not cached (the SDK's default: 0, private).
 */
export function listCacheHints(opts: ResourceOptions): ServerOptions["cacheHints"] {
  const ttlMs = opts.listTtlMs ?? 3_600_000;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new RangeError(`MCP: listTtlMs must be a non-negative integer, got ${ttlMs}`);
  }
  const hint = { ttlMs, cacheScope: "public" as const };
  return {
    "tools/list": hint,
    "prompts/list": hint,
    "resources/list": hint,
    "resources/templates/list": hint,
  };
}

/** Registers the resource handlers, completion, and subscriptions on one SDK server. */
export function registerSide(
  server: Server,
  loaded: Sdk,
  side: ResourceSide | undefined,
  caller: Caller,
  pageSize: number,
  prompts: PromptCompleter | undefined,
): void {
  const resources = side?.resources ?? { scheme: "", listed: [], templates: [] };
  if (prompts !== undefined || resources.templates.length > 0) {
    registerCompletion(server, loaded, resources, caller, prompts);
  }
  if (side === undefined) return;
  registerResources(server, loaded, resources, caller, pageSize);
  // Over stdio, the connection's own subscriptions, sent by its own server.
  const own = new Map<string, () => void>();
  const sink: Sink = { deliver: (uri) => void server.sendResourceUpdated({ uri }).catch(() => {}) };
  const before = server.onclose;
  server.onclose = () => {
    for (const release of own.values()) release();
    own.clear();
    before?.();
  };
  // A bound, or a resource without updates; else what refused the stream (a guard), as a read's.
  const refused = (error: unknown) =>
    error instanceof SubscribeRefused
      ? new loaded.ProtocolError(
        error.full
          ? loaded.ProtocolErrorCode.InternalError
          : loaded.ProtocolErrorCode.InvalidParams,
        error.message,
      )
      : error instanceof loaded.ProtocolError
      ? error
      : protocolErrorOf(loaded, failureOf(error), caller.onError);
  server.setRequestHandler("resources/subscribe", async (request, ctx) => {
    const { uri } = request.params;
    const [entry, captures] = resolve(loaded, resources, uri);
    const carried = ctx.http?.req;
    const session = carried?.headers.get("mcp-session-id");
    try {
      // The 2026-07-28 revision has no resources/subscribe (the SDK answers -32601 for it):
      // a subscription is a 2025 session's over HTTP, else the stdio connection's own.
      if (session !== undefined && session !== null) {
        await side.sessions.subscribe(session, uri, entry, captures, carried);
      } else if (!own.has(uri)) {
        if (own.size >= MAX_PER_SESSION) {
          throw new SubscribeRefused(`A session holds at most ${MAX_PER_SESSION} subscriptions`);
        }
        const held = side.feeds.hold(uri, entry, captures, carried ?? caller.standIn, sink);
        own.set(uri, held.release);
        await held.ready.catch((error) => {
          if (own.get(uri) === held.release) own.delete(uri);
          held.release();
          throw error;
        });
      }
    } catch (error) {
      throw refused(error);
    }
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request, ctx) => {
    const { uri } = request.params;
    resolve(loaded, resources, uri);
    const session = ctx.http?.req?.headers.get("mcp-session-id");
    if (session !== undefined && session !== null) side.sessions.unsubscribe(session, uri);
    else {
      own.get(uri)?.();
      own.delete(uri);
    }
    return {};
  });
}

/**
 * For a 2026-07-28 `subscriptions/listen` request naming resources: follows
 * each URI a resource answers to while the listen stream is open, publishing
 * its changes through `sink` (the SDK handler's event bus, which delivers to
 * every listen stream that named the URI). Each URI passes its stream leaf's
 * guards with this request first: the SDK is handed the message (`parsed`, the
 * body as read once) naming only the URIs let in, so it acknowledges no other
 * and delivers no other's changes to this stream. Returns the response the
 * handler gave, holding the feeds until its stream ends (a refusal: at once).
 */
export async function withListen(
  side: ResourceSide,
  request: Request,
  parsed: unknown,
  sink: Sink,
  answer: (request: Request, parsed: unknown) => Promise<Response>,
): Promise<Response> {
  const listened = listenedUris(side, parsed);
  if (listened === undefined) return await answer(request, parsed);
  const releases: (() => void)[] = [];
  const refused = new Set<string>();
  await Promise.all(listened.uris.map(async (uri) => {
    let streams = false;
    try {
      const found = findResource(side.resources, uri);
      if (found?.[0].updates === undefined) return;
      streams = true;
      const held = side.feeds.hold(uri, found[0], found[1], request, sink);
      releases.push(held.release);
      await held.ready;
    } catch {
      // Only a URI that names a stream and was refused (a guard, a bound, a stream that could not
      // begin) is left out; the SDK answers for every other as it would.
      if (streams) refused.add(uri);
    }
  }));
  const message = refused.size === 0
    ? parsed
    : withUris(listened.message, listened.uris.filter((uri) => !refused.has(uri)));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    releases.forEach((done) => done());
  };
  // An idle SSE stream learns of a client gone only at its next write: the request's signal says it first.
  request.signal.addEventListener("abort", release, { once: true });
  let response: Response;
  try {
    response = await answer(request, message);
  } catch (error) {
    release();
    throw error;
  }
  return untilDelivered(response, release);
}

/** A `subscriptions/listen` request: its message, and the URIs it names. */
interface Listened {
  readonly message: { params: { notifications: { resourceSubscriptions: unknown[] } } };
  readonly uris: string[];
}

/** The URIs a `subscriptions/listen` message names, or undefined for any other message. */
function listenedUris(side: ResourceSide, message: unknown): Listened | undefined {
  if (!side.followed || !isPlainObject(message) || message.method !== "subscriptions/listen") {
    return undefined;
  }
  const params = isPlainObject(message.params) ? message.params : undefined;
  const notifications = isPlainObject(params?.notifications) ? params.notifications : undefined;
  const uris = notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined;
  return {
    message: message as unknown as Listened["message"],
    uris: [...new Set(uris.slice(0, MAX_PER_SESSION))].filter((uri) => typeof uri === "string"),
  };
}

/** The same listen message, naming only `uris`. */
function withUris(message: Listened["message"], uris: string[]): Listened["message"] {
  return {
    ...message,
    params: {
      ...message.params,
      notifications: { ...message.params.notifications, resourceSubscriptions: uris },
    },
  };
}

/** The 2025 sessions' hooks: their GET stream, and their end. */
export function sessionHooks(side: ResourceSide) {
  return {
    stream: (id: string, request: Request) => side.sessions.open(id, request),
    ended: (id: string) => side.sessions.end(id),
  };
}
