// 2025-era MCP over Streamable HTTP, with sessions that need no server
// instance: a session is a record in a store (what `initialize` negotiated),
// so every instance behind a balancer serves its requests. A session belongs
// to the identity that opened it (`identify`: the server's `sessionOwner`): a
// request of another, or of none, is answered as for an unknown session
// (404), DELETE included, so an id alone neither serves nor ends a session,
// nor answers its questions. An identity that may claim one (an OAuth token's
// principal: its client authorizes after the handshake) takes a session opened
// without a token at its first request, which is then its own. Each request
// gets a fresh SDK server on a one-request transport. A
// `notifications/cancelled` reaching any instance goes out on the cancellation
// channel, and the instance running the call hands it to that call's server.
//
// Used by the MCP server (tools/server/mcp.ts), which makes the SDK servers
// and tells who a request speaks for (tools/server/_session_owner.ts).

import { answeredSoon } from "./call_answer.ts";
import { untilDelivered } from "./delivered.ts";
import type {
  ClientCapabilities,
  InitializeRequestParams,
  JSONRPCMessage,
  RequestId,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { McpCancellations, McpSessionRecord, McpSessionStore } from "./store.ts";
import { isReply, relayedOf, relayedSend } from "./_replies.ts";
import { answeredOf, polling, primes, type Resume } from "./resume.ts";
import { jsonRpcRefusal } from "./refusal.ts";

type Sdk = typeof import("@modelcontextprotocol/server");

/**
 * A request's identity: a fingerprint, `undefined` for none, or the answer refusing it.
 *
 * @example
 * ```ts
 * import type { Identity } from "./legacy.ts";
 *
 * const anonymous: Identity = { ok: true, owner: undefined };
 * ```
 */
export type Identity =
  | {
    readonly ok: true;
    readonly owner: string | undefined;
    /** Whether it takes a session opened without an identity, as its own from then on. */
    readonly claims?: boolean;
  }
  | { readonly ok: false; readonly response: Response };

/**
 * Tells the identity of a request.
 *
 * @example
 * ```ts
 * import type { Identify } from "./legacy.ts";
 *
 * const nobody: Identify = () => Promise.resolve({ ok: true, owner: undefined });
 * ```
 */
export type Identify = (request: Request) => Promise<Identity>;

export interface SessionOptions {
  readonly store: McpSessionStore;
  /** Who a request speaks for: a session serves only the identity that opened it. */
  readonly identify: Identify;
  /** The SDK's bound on a body it reads (the handler's `maxBodyBytes`, checked before). */
  readonly maxRequestBodySize?: number;
  /** Default: this process only. */
  readonly cancellations: McpCancellations | undefined;
  /** Observes the store's and the channel's failures. */
  readonly onError: (error: unknown) => void;
  /** Resumable call streams (SEP-1699), when on. */
  readonly resume?: Resume;
  /** Serves a session's GET stream (resource notifications); without it, GET is a 405. */
  readonly stream?: (id: string, request: Request) => Response;
  /** Told of a session its client ended (DELETE). */
  readonly ended?: (id: string) => void;
}

export interface LegacySessions {
  /** Answers a 2025-era request; `parsed` is its body's JSON, read once before (none: the SDK reads it). */
  handle(request: Request, parsed?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** The ids this server hands out: 128 random bits, as lower-case hex. */
const SESSION_ID = /^[0-9a-f]{32}$/;
const CANCEL_TOPIC = "mcp:cancel";

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function legacySessions(
  loaded: Sdk,
  makeServer: (declared?: ClientCapabilities) => Server,
  opts: SessionOptions,
): LegacySessions {
  const { store, onError } = opts;
  const channel = opts.cancellations ?? localChannel();
  // The calls running here, by session and request id: how to hand each its cancellation.
  const running = new Map<string, (message: JSONRPCMessage) => void>();
  // Every exchange in flight here, to end at close().
  const live = new Set<() => void>();
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  // Node-redis resubscribes after a reconnect; a failed first subscription is tried again later.
  const listen = () =>
    listening ??= channel.subscribe(CANCEL_TOPIC, (text) => {
      const relayed = relayedOf(text);
      if (relayed !== undefined) {
        return running.get(callKey(relayed.session, relayed.reply.id))?.(relayed.reply);
      }
      const cancel = cancelOf(text);
      if (cancel === undefined) return;
      running.get(callKey(cancel.session, cancel.requestId))?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: {
          requestId: cancel.requestId,
          ...(cancel.reason === undefined ? {} : { reason: cancel.reason }),
        },
      });
    }).catch((error) => {
      listening = undefined;
      onError(error);
      return undefined;
    });

  const publishCancel = async (session: string, params: unknown) => {
    const { requestId, reason } = (params ?? {}) as { requestId?: unknown; reason?: unknown };
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const message = JSON.stringify({
      session,
      requestId,
      ...(typeof reason === "string" ? { reason } : {}),
    });
    // Best effort, as MCP makes cancellation: a lost one lets the call finish.
    await channel.publish(CANCEL_TOPIC, message).catch(onError);
  };

  /** A POST without a session: an `initialize` begins one, anything else is a 400. */
  const begin = async (request: Request, parsed: unknown): Promise<Response> => {
    const identity = await opts.identify(request);
    if (!identity.ok) return identity.response;
    const id = newSessionId();
    const server = makeServer();
    // One JSON answer, so that the negotiated revision is read before the session is stored.
    const transport = new loaded.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      maxRequestBodySize: opts.maxRequestBodySize,
    });
    await server.connect(transport);
    let asked: InitializeRequestParams | undefined;
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (loaded.isInitializeRequest(message)) asked = message.params;
      inner?.(message, extra);
    };
    try {
      const response = await transport.handleRequest(request, { parsedBody: parsed });
      if (transport.sessionId === undefined || asked === undefined) return response;
      const text = await response.text();
      const headers = new Headers(response.headers);
      headers.delete("mcp-session-id");
      const protocolVersion = negotiatedOf(text);
      if (protocolVersion === undefined) {
        return new Response(text, { status: response.status, headers });
      }
      try {
        await store.create(id, {
          protocolVersion,
          clientCapabilities: asked.capabilities,
          clientInfo: { name: asked.clientInfo.name, version: asked.clientInfo.version },
          createdAt: Date.now(),
          ...(identity.owner === undefined ? {} : { owner: identity.owner }),
        });
      } catch (error) {
        onError(error);
        return storeDown();
      }
      headers.set("mcp-session-id", id);
      return new Response(text, { status: response.status, headers });
    } finally {
      // Closing the server closes its transport.
      await server.close().catch(() => {});
    }
  };

  /**
   * A POST of a known session, on a fresh server. Tools need nothing of the
   * handshake: the SDK serves a call on a server that never saw `initialize`.
   */
  const serve = async (
    request: Request,
    parsed: unknown,
    session: string,
    declared: ClientCapabilities,
    revision: string,
  ): Promise<Response> => {
    // Subscribed before the first call here, so that its cancellation finds it.
    await listen();
    const server = makeServer(declared);
    const resume = opts.resume;
    const events = resume?.streams.forSession(session);
    const transport: WebStandardStreamableHTTPServerTransport = new loaded
      .WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: opts.maxRequestBodySize,
      ...(resume === undefined ? {} : { eventStore: events, retryInterval: resume.retryMs }),
    });
    await server.connect(transport);
    const inner = transport.onmessage;
    const mine = new Map<string, (message: JSONRPCMessage) => void>();
    const published: Promise<void>[] = [];
    // Straight to the server: through `onmessage` a cancellation would go out again.
    const handOver = (message: JSONRPCMessage) => inner?.(message);
    transport.send = relayedSend(transport.send.bind(transport), handOver, (wireId, deliver) => {
      running.set(callKey(session, wireId), deliver);
      mine.set(callKey(session, wireId), deliver);
    });
    const answered = resume === undefined ? undefined : answeredOf(transport);
    transport.onmessage = (message, extra) => {
      if (isReply(message)) {
        // An answer to a question of a call here, or elsewhere (then the channel carries it).
        const waiting = running.get(callKey(session, message.id));
        if (waiting !== undefined) return waiting(message);
        const relayed = JSON.stringify({ session, reply: message });
        return void published.push(channel.publish(CANCEL_TOPIC, relayed).catch(onError));
      }
      if (loaded.isJSONRPCRequest(message)) {
        const key = callKey(session, message.id);
        running.set(key, handOver);
        mine.set(key, handOver);
      } else if (
        loaded.isJSONRPCNotification(message) && message.method === "notifications/cancelled"
      ) {
        published.push(publishCancel(session, message.params));
      }
      inner?.(message, extra);
    };
    let ended = false;
    // A stream closed to poll: the call runs on until it answers (into the store).
    let parked = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      live.delete(finish);
      for (const [key, own] of mine) if (running.get(key) === own) running.delete(key);
      // Delivered (or abandoned) on its own stream: nothing to resume. A parked call's answer waits.
      if (!parked) events?.forget();
      void server.close().catch(() => {});
    };
    const end = () => parked && answered !== undefined ? void answered.then(finish) : finish();
    live.add(finish);
    request.signal.addEventListener("abort", end, { once: true });
    // The session's revision, not an older one a request names: its client reads priming events.
    const primed = resume !== undefined && primes(revision);
    const response = await transport.handleRequest(
      primed ? withRevision(request, revision) : request,
      { parsedBody: parsed },
    );
    await Promise.all(published);
    if (primed && resume.pollAfterMs !== undefined) {
      return untilDelivered(polling(response, resume.pollAfterMs, () => parked = true), end);
    }
    // A call answered at once goes back as JSON: nothing is left to resume.
    return untilDelivered(await answeredSoon(response), end);
  };

  return {
    async handle(request, parsed) {
      const id = request.headers.get("mcp-session-id");
      // Clients probing for the GET stream before `initialize` take only a 405 as "none here".
      if (id === null && request.method === "GET") return noStream();
      if (id === null) return await begin(request, parsed);
      const refuse = async (response: Response) => {
        await request.body?.cancel().catch(() => {});
        return response;
      };
      // Malformed ids never reach the store: no session has one.
      if (!SESSION_ID.test(id)) return refuse(notFound());
      const identity = await opts.identify(request);
      if (!identity.ok) return refuse(identity.response);
      let record: McpSessionRecord | undefined;
      try {
        record = await store.get(id);
        if (
          record !== undefined && record.owner === undefined && identity.claims === true &&
          identity.owner !== undefined
        ) {
          record = { ...record, owner: identity.owner };
          await store.create(id, record);
        }
        // Another identity's session is, to this request, no session at all.
        if (record !== undefined && record.owner !== identity.owner) record = undefined;
        if (record !== undefined && request.method === "DELETE") {
          const deleted = await store.delete(id);
          if (deleted) opts.ended?.(id);
          return refuse(deleted ? new Response(null, { status: 200 }) : notFound());
        }
      } catch (error) {
        onError(error);
        return refuse(storeDown());
      }
      if (record === undefined) return refuse(notFound());
      if (request.method === "POST") {
        const declared = record.clientCapabilities as ClientCapabilities;
        return await serve(request, parsed, id, declared, record.protocolVersion);
      }
      const lastEventId = request.headers.get("last-event-id");
      if (request.method === "GET" && opts.resume !== undefined && lastEventId !== null) {
        return opts.resume.streams.replay(id, lastEventId, request.signal);
      }
      if (request.method === "GET" && opts.stream !== undefined) return opts.stream(id, request);
      return refuse(noStream());
    },
    async close() {
      for (const end of [...live]) end();
      const stop = await listening;
      listening = undefined;
      await stop?.().catch(() => {});
    },
  };
}

/**
 * The request naming the session's revision where it names an older one (or
 * none). Without its body: a POST's was read, and goes to the SDK parsed; one
 * that is no JSON is handed on whole, for the SDK to refuse.
 */
function withRevision(request: Request, revision: string): Request {
  const named = request.headers.get("mcp-protocol-version");
  if (named !== null && named >= revision) return request;
  const headers = new Headers(request.headers);
  headers.set("mcp-protocol-version", revision);
  return request.bodyUsed
    ? new Request(request.url, { method: request.method, headers, signal: request.signal })
    : new Request(request, { headers });
}

function callKey(session: string, requestId: RequestId): string {
  // JSON keeps the number 1 and the string "1" apart, as JSON-RPC does.
  return `${session} ${JSON.stringify(requestId)}`;
}

/** A cancellation off the channel, or undefined for anything malformed. */
function cancelOf(
  text: string,
): { session: string; requestId: RequestId; reason?: string } | undefined {
  try {
    const { session, requestId, reason } = JSON.parse(text);
    if (typeof session !== "string") return undefined;
    if (typeof requestId !== "string" && typeof requestId !== "number") return undefined;
    return { session, requestId, ...(typeof reason === "string" ? { reason } : {}) };
  } catch {
    return undefined;
  }
}

/** The revision an `initialize` answer negotiated, or undefined for an error answer. */
function negotiatedOf(text: string): string | undefined {
  try {
    const version = JSON.parse(text)?.result?.protocolVersion;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

function localChannel(): McpCancellations {
  const listeners = new Set<(message: string) => void>();
  return {
    publish(_topic, message) {
      for (const deliver of [...listeners]) deliver(message);
      return Promise.resolve();
    },
    subscribe(_topic, deliver) {
      listeners.add(deliver);
      return Promise.resolve(() => Promise.resolve(void listeners.delete(deliver)));
    },
  };
}

/** No server-initiated messages here: the GET stream is not offered (the spec's 405). */
const noStream = () =>
  jsonRpcRefusal(405, -32000, "Method not allowed.", { allow: "POST, DELETE" });

const notFound = () => jsonRpcRefusal(404, -32001, "Session not found");

/** Fail closed: no session is served, or begun, without its record. */
const storeDown = () =>
  jsonRpcRefusal(503, -32000, "Session store unavailable", { "retry-after": "1" });
