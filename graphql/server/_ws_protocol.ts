// The graphql-transport-ws protocol over any socket, through graphql-ws's
// server core (`makeServer`). Documents go through the GraphQL server's cached
// `prepare`, so its limits and introspection rule apply; handlers get
// `{ request, signal, ...yours }` as their context, the signal aborting when the
// client completes the operation or the connection closes; a connection is
// bounded (init timeout, operations at once, document length).

import {
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
} from "graphql";
import { CloseCode, type Context, makeServer, type OperationResult } from "graphql-ws";
import type { HandlerContext } from "../../tree/node.ts";
import { isAsyncIterable } from "../../tree/object.ts";
import { graphqlErrors } from "../schema/errors.ts";
import type { GraphQLServer } from "./server.ts";
import type { WsHandlerOptions } from "./ws_options.ts";

/** What the protocol needs of one socket. */
export interface ProtocolSocket {
  /** The subprotocol agreed in the handshake (`""` for none). */
  readonly protocol: string;
  /** Sends a text frame. */
  send(text: string): void;
  /** Closes the socket. */
  close(code: number, reason: string): void;
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

/** The subprotocol spoken. */
export const GRAPHQL_TRANSPORT_WS = "graphql-transport-ws";

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

const httpErrors = graphqlErrors({});
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The protocol for a GraphQL server: one `Connect` shared by every socket. */
export function createConnect(server: GraphQLServer, opts: WsHandlerOptions = {}): Connect {
  const maxOperations = opts.maxSubscriptions ?? 100;
  const maxQueryLength = opts.maxQueryLength ?? 100_000;
  const report = opts.onError ??
    ((error: unknown) => console.error("ramify: GraphQL over WebSocket:", error));
  const observe = (error: unknown) => {
    try {
      report(error);
    } catch {
      // An observer that throws must not change what the client sees.
    }
  };

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
    const prepared = server.prepare(query);
    if ("errors" in prepared) return prepared.errors.map(documentError);
    const document = prepared.document;
    if (getOperationAST(document, operationName ?? undefined) === null) {
      const message = operationName
        ? `No operation named "${operationName}" in the document`
        : "The document has several operations: name one with operationName";
      return [coded(message, "OPERATION_RESOLUTION_FAILURE")];
    }
    let own: Readonly<Record<string, unknown>> | undefined;
    try {
      own = await opts.context?.(ctx.connectionParams ?? {}, extra.request);
    } catch (error) {
      return [contextError(error, observe)];
    }
    const controller = new AbortController();
    extra.operations.set(id, controller);
    return {
      schema: server.schema,
      document,
      variableValues: variables ?? undefined,
      operationName: operationName ?? undefined,
      contextValue: handlerContext(extra.request, controller.signal, own),
    };
  };

  const core = makeServer<ConnectionParams, Extra>({
    schema: server.schema,
    connectionInitWaitTimeout: opts.initTimeout ?? 3_000,
    onConnect: (ctx) => opts.onConnect?.(ctx.connectionParams ?? {}, ctx.extra.request),
    onSubscribe: (ctx, id, payload) =>
      prepare(ctx, id, payload.query, payload.variables, payload.operationName),
    onOperation: (ctx, id, _payload, _args, result) => abortingOnReturn(result, ctx.extra, id),
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error, observe)),
    onComplete: (ctx, id) => {
      ctx.extra.operations.delete(id);
    },
  });

  return (socket, request) => {
    let closing = false;
    let onMessage: ((data: string) => Promise<void>) | undefined;
    const close = (code: number, reason: string) => {
      if (closing) return;
      closing = true;
      socket.close(code, reason);
    };
    const extra: Extra = { request, operations: new Map(), close };
    const closed = core.opened({
      protocol: socket.protocol,
      send: (text) => {
        if (!closing) socket.send(text);
      },
      close: (code, reason) => close(code ?? 1000, reason ?? ""),
      onMessage: (listener) => {
        onMessage = listener;
      },
    }, extra);
    const stopAll = () => {
      for (const controller of extra.operations.values()) controller.abort();
      extra.operations.clear();
    };
    return {
      message(data) {
        if (closing || onMessage === undefined) return;
        const text = textOf(data);
        if (text === undefined) return close(CloseCode.BadRequest, "Invalid message received");
        onMessage(text).catch((error) => {
          observe(error);
          close(CloseCode.InternalServerError, "Internal server error");
        });
      },
      async closed(code, reason) {
        closing = true;
        stopAll();
        try {
          await closed(code, reason);
        } catch (error) {
          observe(error);
        }
      },
    };
  };
}

/** A message's text: text frames as they are, binary ones read as UTF-8. */
function textOf(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  try {
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return decoder.decode(data);
  } catch {
    // Not UTF-8: not a message of the protocol.
  }
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
      extra.operations.get(id)?.abort();
      extra.operations.delete(id);
      return iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
    },
    throw: (error?: unknown) => iterator.throw?.(error) ?? Promise.reject(error),
  };
  return stream;
}

/** `{ request, signal, ...own }`: own properties copied as they are (getters stay lazy). */
function handlerContext(
  request: Request,
  signal: AbortSignal,
  own: Readonly<Record<string, unknown>> | undefined,
): HandlerContext {
  const context: Record<string, unknown> = { request, signal };
  if (typeof own !== "object" || own === null) return context;
  for (const key of Object.keys(own)) {
    const descriptor = Object.getOwnPropertyDescriptor(own, key)!;
    Object.defineProperty(context, key, { ...descriptor, configurable: true, enumerable: true });
  }
  return context;
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
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code },
  });
}

/**
 * Why the context function refused an operation: a `GraphQLError` as it is, an
 * `HttpError` by its status (like the resolvers do), anything else masked.
 */
function contextError(error: unknown, observe: (error: unknown) => void): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const mapped = httpErrors(error);
  if (mapped !== undefined) return mapped;
  observe(error);
  return coded("Unexpected error.", "INTERNAL_SERVER_ERROR");
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
