// The graphql-transport-ws protocol over any socket, through graphql-ws's
// server core (`makeServer`). Documents go through the GraphQL server's cached
// `prepare`, so its limits and introspection rule apply; handlers get
// `{ request, signal, connectionParams, ...yours }` as their context, the
// signal aborting when the client completes the operation or the connection
// closes; a connection is bounded (init timeout, operations at once, document
// length).

import { contextOf } from "../../engine/engine.ts";
import {
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
} from "graphql";
import {
  CloseCode,
  type Context,
  makeServer,
  type OperationResult,
  type SubscribePayload,
} from "graphql-ws";
import { withEventId } from "../schema/stream_events.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { isAsyncIterable, MAX_INPUT_DEPTH, nestsDeeper } from "../../tree/plain_data.ts";
import { utf8Text } from "../../tree/utf8.ts";
import { observer } from "../schema/errors.ts";
import type { GraphQLServer } from "../execution/server.ts";
import type { WsHandlerOptions } from "./ws_options.ts";
import { maskExecution, remade } from "../execution/results.ts";
import { namedText, requestedId } from "../execution/trusted.ts";
import { subscriptionsOf } from "../execution/direct.ts";

/** What the protocol needs of one socket. */
export interface ProtocolSocket {
  /** The subprotocol agreed in the handshake (`""` for none). */
  readonly protocol: string;
  /** Sends a text frame. */
  send(text: string): void;
  /** Closes the socket. */
  close(code: number, reason: string): void;
  /** Bytes queued to send, where the socket tells: what backpressure watches. */
  bufferedAmount?(): number;
}

/** One connection: feed it the socket's messages and its close. */
export interface ProtocolConnection {
  /** A message from the client (text; binary frames are read as UTF-8, anything else is refused). */
  message(data: unknown): void;
  /** The socket closed: every operation still running is stopped. */
  closed(code?: number, reason?: string): Promise<void>;
}

/** Opens a connection on a socket whose handshake came with `request`. */
export type Connect = (socket: ProtocolSocket, request: Request) => ProtocolConnection;

/**
 * The close code when a connection asks for more operations at once than
 * allowed. graphql-ws's list has no code for this; 4429 mirrors HTTP's 429 Too
 * Many Requests as the protocol's codes mirror HTTP statuses, and the
 * graphql-ws client treats it as fatal, so it does not reconnect only to
 * resubscribe over the limit again.
 */
export const TOO_MANY_SUBSCRIPTIONS = CloseCode.TooManyInitialisationRequests;

/** What each connection carries beside graphql-ws's own state. */
interface Extra {
  readonly request: Request;
  /** The abort controller of each operation under way, by id. */
  readonly operations: Map<string, AbortController>;
  close(code: number, reason: string): void;
}

type ConnectionParams = Record<string, unknown> | undefined;

/** The protocol for a GraphQL server: one `Connect` shared by every socket. */
export function createConnect(server: GraphQLServer, opts: WsHandlerOptions = {}): Connect {
  const maxOperations = opts.maxSubscriptions ?? 100;
  const maxQueryLength = opts.maxQueryLength ?? 100_000;
  const maxMessageBytes = opts.maxMessageBytes ?? 1024 * 1024;
  const maxDepth = opts.maxInputDepth ?? MAX_INPUT_DEPTH;
  const idleTimeout = opts.idleTimeout ?? 300_000;
  const maxBuffered = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
  const slowConsumerTimeout = opts.slowConsumerTimeout ?? 30_000;
  const maxTotal = opts.maxTotalSubscriptions ?? 10_000;
  let total = 0;
  const observe = observer(opts.onError, "ramify: GraphQL over WebSocket:");

  /** The execution arguments of a `subscribe` message, or why it is refused. */
  const prepare = async (
    ctx: Context<ConnectionParams, Extra>,
    id: string,
    query: string,
    variables: Record<string, unknown> | null | undefined,
    operationName: string | null | undefined,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    const { extra } = ctx;
    // graphql-ws has counted this operation in before asking.
    if (Object.keys(ctx.subscriptions).length > maxOperations) {
      extra.close(TOO_MANY_SUBSCRIPTIONS, "Too many subscriptions");
      return [coded("Too many subscriptions", "TOO_MANY_REQUESTS")];
    }
    if (query.length > maxQueryLength) {
      return [
        coded(`The document is longer than ${maxQueryLength} characters`, "PAYLOAD_TOO_LARGE"),
      ];
    }
    if (total >= maxTotal) {
      return [coded("The server has too many operations under way", "TOO_MANY_REQUESTS")];
    }
    if (nestsDeeper(variables, maxDepth)) {
      return [coded(`The variables nest deeper than ${maxDepth} levels`, "BAD_REQUEST")];
    }
    const prepared = server.prepare(query);
    if ("errors" in prepared) return prepared.errors.map(documentError);
    const document = prepared.document;
    if (getOperationAST(document, operationName ?? undefined) === null) {
      const message = operationName
        ? `No operation named "${operationName}" in the document`
        : "The document has several operations: name one with operationName";
      return [coded(message, "OPERATION_RESOLUTION_FAILURE")];
    }
    const controller = new AbortController();
    const connectionParams = ctx.connectionParams ?? {};
    // Guards read credentials from the connection parameters: browsers' WebSocket clients put them there.
    const contextValue: HandlerContext = {
      request: extra.request,
      signal: controller.signal,
      surface: "graphql",
      connectionParams,
    };
    try {
      await contextOf(contextValue, opts.context);
    } catch (error) {
      return [server.errorOf(error, contextValue)];
    }
    extra.operations.set(id, controller);
    total++;
    return {
      schema: server.schema,
      document,
      variableValues: variables ?? undefined,
      operationName: operationName ?? undefined,
      contextValue,
    };
  };

  /** The text of the document a `subscribe` message sends, or names by a trusted document's id. */
  const documentTextOf = (payload: SubscribePayload): string | GraphQLError => {
    const named = requestedId(
      (payload as { readonly documentId?: unknown }).documentId,
      payload.extensions ?? undefined,
    );
    if ("refused" in named) return coded(named.refused, "BAD_REQUEST");
    if (named.id === undefined) return payload.query;
    const found = namedText(named.id, payload.query, (id) => server.trustedDocument(id));
    return "text" in found ? found.text : coded(found.message, found.code);
  };

  const subscribing = subscriptionsOf(server);
  const core = makeServer<ConnectionParams, Extra>({
    schema: server.schema,
    // Queries and mutations run as over HTTP, subscriptions by the server's
    // executor too (graphql-js's for a server made some other way).
    execute: (args) =>
      server.execute({
        query: "",
        document: args.document,
        variables: args.variableValues,
        operationName: args.operationName,
        context: args.contextValue as HandlerContext,
      }),
    ...subscribing === undefined ? {} : {
      subscribe: (args: ExecutionArgs) =>
        subscribing(args.document, {
          variables: args.variableValues,
          operationName: args.operationName,
        }, args.contextValue as HandlerContext),
    },
    connectionInitWaitTimeout: opts.initTimeout ?? 3_000,
    onConnect: (ctx) => opts.onConnect?.(ctx.connectionParams ?? {}, ctx.extra.request),
    onSubscribe: (ctx, id, payload) => {
      const text = documentTextOf(payload);
      return typeof text === "string"
        ? prepare(ctx, id, text, payload.variables, payload.operationName)
        : [text];
    },
    onOperation: (ctx, id, _payload, _args, result) => abortingOnReturn(result, ctx.extra, id),
    onNext: (_ctx, _id, _payload, args, result) =>
      withEventId(maskExecution(result, observe, server.introspection), args.contextValue),
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error, observe)),
    onComplete: (ctx, id) => {
      if (ctx.extra.operations.delete(id)) total--;
    },
  });

  return (socket, request) => {
    let closing = false;
    let onMessage: ((data: string) => Promise<void>) | undefined;
    let ended: Promise<void> | undefined;
    // Stops every operation once, whoever closed: the socket's close event may
    // come late (a close frame queued behind data a slow client never reads).
    const end = (code?: number, reason?: string) =>
      ended ??= (async () => {
        closing = true;
        clearTimeout(idle);
        stopAll();
        try {
          await closed(code, reason);
        } catch (error) {
          observe(error, request);
        }
      })();
    const close = (code: number, reason: string) => {
      if (closing) return;
      closing = true;
      socket.close(code, reason);
      // Later: graphql-ws may close while the connection is still being opened.
      queueMicrotask(() => void end(code, reason));
    };
    const extra: Extra = { request, operations: new Map(), close };
    // Closes a connection that stays silent with nothing under way.
    let idle: ReturnType<typeof setTimeout> | undefined;
    const active = () => {
      clearTimeout(idle);
      if (idleTimeout > 0 && Number.isFinite(idleTimeout) && !closing) {
        idle = setTimeout(() => {
          if (extra.operations.size === 0) close(1000, "Idle");
          else active();
        }, idleTimeout);
      }
    };
    const closed = core.opened({
      protocol: socket.protocol,
      send: async (text) => {
        if (closing) return;
        socket.send(text);
        active();
        // Backpressure: graphql-ws awaits this before pulling the next result.
        if (socket.bufferedAmount === undefined || socket.bufferedAmount() <= maxBuffered) return;
        const since = Date.now();
        while (!closing && socket.bufferedAmount() > maxBuffered) {
          if (Date.now() - since > slowConsumerTimeout) return close(1013, "Slow consumer");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      close: (code, reason) => close(code ?? 1000, reason ?? ""),
      onMessage: (listener) => {
        onMessage = listener;
      },
    }, extra);
    const stopAll = () => {
      for (const controller of extra.operations.values()) controller.abort();
      total -= extra.operations.size;
      extra.operations.clear();
    };
    active();
    return {
      message(data) {
        if (closing || onMessage === undefined) return;
        if (sizeOf(data) > maxMessageBytes) return close(1009, "Message too big");
        const text = textOf(data);
        if (text === undefined) return close(CloseCode.BadRequest, "Invalid message received");
        active();
        onMessage(text).catch((error) => {
          // A message only a server sends (connection_ack, next, error): the client's mistake.
          if (error instanceof Error && /^Unexpected message of type /.test(error.message)) {
            return close(CloseCode.BadRequest, error.message);
          }
          observe(error, request);
          close(CloseCode.InternalServerError, "Internal server error");
        });
      },
      closed: (code, reason) => end(code, reason),
    };
  };
}

/** A message's size in bytes (UTF-16 code units bound a text's UTF-8 bytes from below). */
function sizeOf(data: unknown): number {
  if (typeof data === "string") {
    return data.length * 3 <= 1024 ? data.length : new TextEncoder().encode(data).length;
  }
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}

/** A message's text: text frames as they are, binary ones read as UTF-8 (`undefined` when not). */
function textOf(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return utf8Text(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) {
    return utf8Text(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  // Neither text nor bytes: not a message of the protocol.
  return undefined;
}

/**
 * A stream whose `return()` (the client completed the operation, or the
 * connection closed) first aborts the operation's signal: a handler waiting on
 * it wakes up at once, where `return()` alone would wait for its next `yield`.
 */
function abortingOnReturn(result: OperationResult, extra: Extra, id: string): OperationResult {
  if (!isAsyncIterable(result)) return result;
  const iterator = result[Symbol.asyncIterator]();
  const stream: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]() {
      return stream;
    },
    next: () => iterator.next(),
    return(value?: unknown) {
      // onComplete, which follows, forgets the operation.
      extra.operations.get(id)?.abort();
      return iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
    },
    throw: (error?: unknown) => iterator.throw?.(error) ?? Promise.reject(error),
  };
  return stream;
}

function coded(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** A parse or validation error, with the code the HTTP transport gives it. */
function documentError(error: GraphQLError): GraphQLError {
  if (error.locations === undefined && /^RangeError\b|call stack/i.test(error.message)) {
    return coded("The document nests too deeply to be read", "GRAPHQL_PARSE_FAILED");
  }
  if (typeof error.extensions.code === "string") return error;
  const code = error.message.startsWith("Syntax Error")
    ? "GRAPHQL_PARSE_FAILED"
    : "GRAPHQL_VALIDATION_FAILED";
  // A parse or validation error has no path.
  return remade(error, error.message, { ...error.extensions, code });
}

/**
 * An error as the client sees it. graphql-ws wraps an error thrown by a stream
 * in a new `GraphQLError` with the thrown one as its original error: the
 * resolvers already made that one fit for the client (mapped or masked), so it
 * is sent; anything else thrown there is masked.
 */
function formatError(
  error: GraphQLError,
  observe: (error: unknown) => void,
): GraphQLFormattedError {
  const inner = error.originalError;
  if (error.extensions.code !== undefined || inner === undefined) return error.toJSON();
  if (inner instanceof GraphQLError) return inner.toJSON();
  observe(inner);
  return { message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } };
}
