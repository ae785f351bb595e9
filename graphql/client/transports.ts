/**
 * Ready transports for `createGraphQLClient`: over HTTP (`fetch`, the
 * GraphQL-over-HTTP way), over WebSocket (a `graphql-ws` client, for
 * subscriptions too), and in process (a `GraphQLServer`, for tests and
 * server-side calls).
 *
 * @example
 * ```ts
 * import { httpTransport } from "@ramify/api/graphql/client";
 *
 * const transport = httpTransport({
 *   url: "https://api.example.com/graphql",
 *   headers: { authorization: "Bearer token" },
 * });
 * ```
 *
 * @module
 */

import type { ExecutionResult, GraphQLFormattedError } from "graphql";
import type { CallOptions } from "../../client/extension.ts";
import type { FetchLike } from "../../client/remote.ts";
import type { GraphQLOperation, GraphQLResponse, GraphQLTransport } from "./remote.ts";
import type { GraphQLServer } from "../execution/server.ts";
import type { HandlerContext } from "../../tree/node.ts";
import { holdsBlob, multipartBody } from "./_multipart.ts";
import { mediaTypeEssence } from "../../tree/media_type.ts";

/**
 * Options of {@linkcode httpTransport}.
 *
 * @example
 * ```ts
 * import type { HttpTransportOptions } from "@ramify/api/graphql/client";
 *
 * const opts: HttpTransportOptions = { url: "http://localhost:8000/graphql" };
 * ```
 */
export interface HttpTransportOptions {
  /** The GraphQL endpoint. */
  readonly url: string | URL;
  /** The fetch to send with (a server's own handler works too). Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Headers for every request. */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
}

/**
 * Queries and mutations as GraphQL-over-HTTP POSTs. An operation whose
 * variables hold a `File` or `Blob` goes as a multipart request (the GraphQL
 * multipart request spec, with a `GraphQL-Require-Preflight` header).
 * Subscriptions need a WebSocket: this transport refuses them.
 *
 * @example
 * ```ts
 * import { httpTransport } from "@ramify/api/graphql/client";
 *
 * const transport = httpTransport({ url: "http://localhost:8000/graphql" });
 * ```
 */
export function httpTransport(opts: HttpTransportOptions): GraphQLTransport {
  const send: FetchLike = opts.fetch ?? ((request) => fetch(request));
  const url = String(opts.url);
  return {
    async request(operation, options) {
      const headers = new Headers(opts.headers);
      for (const [name, value] of new Headers(options?.headers)) headers.set(name, value);
      headers.set("accept", "application/graphql-response+json, application/json");
      const form = multipartBody(operation);
      if (form === undefined) headers.set("content-type", "application/json");
      else {
        // fetch writes the multipart boundary itself.
        headers.delete("content-type");
        headers.set("graphql-require-preflight", "1");
      }
      const response = await send(
        new Request(url, {
          method: "POST",
          headers,
          body: form ?? JSON.stringify(operation),
          signal: options?.signal,
        }),
      );
      const type = response.headers.get("content-type") ?? "";
      if (!/[/+]json$/.test(mediaTypeEssence(type))) {
        await response.body?.cancel();
        throw new TypeError(
          `${url} answered ${response.status} with ${
            type || "no content type"
          }, not a GraphQL response`,
        );
      }
      return await response.json() as GraphQLResponse;
    },
    subscribe() {
      throw new TypeError(
        "httpTransport cannot subscribe: use wsTransport for subscriptions",
      );
    },
  };
}

/**
 * The part of a `graphql-ws` client this transport uses (`createClient` from
 * `graphql-ws` gives one).
 *
 * @example
 * ```ts
 * import type { WsClientLike } from "@ramify/api/graphql/client";
 *
 * const never: WsClientLike = {
 *   iterate: () => ({
 *     [Symbol.asyncIterator]() {
 *       return this;
 *     },
 *     next: () => new Promise(() => {}),
 *   }),
 * };
 * ```
 */
export interface WsClientLike {
  /** Runs an operation, giving its results as they come. */
  iterate(payload: GraphQLOperation): AsyncIterableIterator<ExecutionResult | GraphQLResponse>;
}

/**
 * Every operation over one `graphql-ws` connection: subscriptions as streams,
 * queries and mutations as their single result. Files cannot go over a
 * WebSocket: an operation whose variables hold one is refused.
 *
 * @example
 * ```ts
 * import { createClient } from "graphql-ws";
 * import { wsTransport } from "@ramify/api/graphql/client";
 *
 * const transport = wsTransport(
 *   createClient({ url: "ws://localhost:8000/graphql", lazy: true }),
 * );
 * ```
 */
export function wsTransport(client: WsClientLike): GraphQLTransport {
  return {
    async request(operation, options) {
      refuseFiles(operation);
      const iterator = client.iterate(operation);
      const abort = () => void iterator.return?.();
      options?.signal?.addEventListener("abort", abort, { once: true });
      try {
        let first: IteratorResult<ExecutionResult | GraphQLResponse>;
        try {
          first = await iterator.next();
        } catch (error) {
          return asResponse(error);
        }
        options?.signal?.throwIfAborted();
        if (first.done) throw new TypeError("the connection ended before a result arrived");
        return formatted(first.value);
      } finally {
        options?.signal?.removeEventListener("abort", abort);
        await iterator.return?.();
      }
    },
    subscribe(operation, options) {
      refuseFiles(operation);
      return mapStream(client.iterate(operation), options);
    },
  };
}

/**
 * Calls a `GraphQLServer` in process: no network, the same execution.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer, serverTransport } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * const transport = serverTransport(server, { user: "ann" });
 * ```
 */
export function serverTransport(server: GraphQLServer, context?: HandlerContext): GraphQLTransport {
  return {
    async request(operation, options) {
      return formatted(
        await server.execute({ ...operation, context: contextOf(context, options) }),
      );
    },
    subscribe(operation, options) {
      return (async function* () {
        const result = await server.subscribe({
          ...operation,
          context: contextOf(context, options),
        });
        if (!(Symbol.asyncIterator in result)) {
          yield formatted(result);
          return;
        }
        for await (const item of result) yield formatted(item);
      })();
    },
  };
}

function refuseFiles(operation: GraphQLOperation): void {
  if (holdsBlob(operation.variables)) {
    throw new TypeError(
      "wsTransport cannot send files: send operations with File inputs over httpTransport",
    );
  }
}

function contextOf(context: HandlerContext | undefined, options: CallOptions | undefined) {
  return { ...context, ...(options?.signal === undefined ? {} : { signal: options.signal }) };
}

async function* mapStream(
  source: AsyncIterableIterator<ExecutionResult | GraphQLResponse>,
  options: CallOptions | undefined,
): AsyncGenerator<GraphQLResponse> {
  const abort = () => void source.return?.();
  options?.signal?.addEventListener("abort", abort, { once: true });
  try {
    for await (const item of source) yield formatted(item);
  } catch (error) {
    yield asResponse(error);
  } finally {
    options?.signal?.removeEventListener("abort", abort);
  }
}

/**
 * graphql-ws rejects with the errors of the protocol's `error` message (an
 * array): a response with errors like any other, so the client raises a
 * `GraphQLClientError` for it. Anything else is a transport failure.
 */
function asResponse(thrown: unknown): GraphQLResponse {
  const isFormattedError = (value: unknown) =>
    typeof value === "object" && value !== null &&
    typeof (value as { message?: unknown }).message === "string";
  if (Array.isArray(thrown) && thrown.length > 0 && thrown.every(isFormattedError)) {
    return { errors: thrown as GraphQLFormattedError[] };
  }
  throw thrown;
}

/** A result as it travels: errors in their JSON form. */
function formatted(result: ExecutionResult | GraphQLResponse): GraphQLResponse {
  const errors = result.errors?.map((error) =>
    "toJSON" in error && typeof error.toJSON === "function"
      ? error.toJSON() as GraphQLFormattedError
      : error as GraphQLFormattedError
  );
  return {
    ...(result.data === undefined ? {} : { data: result.data as Record<string, unknown> | null }),
    ...(errors === undefined ? {} : { errors }),
  };
}
