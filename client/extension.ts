/**
 * The extension interface of the typed HTTP client. An extension wraps the
 * function that sends one request; extensions compose like middleware, the
 * first in `extensions` outermost:
 *
 * ```
 * createClient(tree, { extensions: [retry(), timeout(), interceptors(), logging()] })
 * // call → retry → timeout → interceptors → logging → fetch
 * ```
 *
 * So each retry attempt gets its own timeout, and logging sees every attempt.
 *
 * @example A header-stamping extension
 * ```ts
 * import type { ClientExtension } from "@ramify/api/client";
 *
 * const stamp: ClientExtension = {
 *   name: "stamp",
 *   wrap: (next) => (request) => {
 *     request.headers.set("x-client", "ramify");
 *     return next(request);
 *   },
 * };
 * ```
 *
 * @module
 */

import type { HttpVerb, Tags, TreeStep } from "../tree/node.ts";
import type { IdempotencyKeyMode } from "../route/idempotency.ts";
import type { GapNotice } from "../tree/stream_events.ts";
import type { Invalidates } from "../tree/invalidation.ts";

/**
 * What the client knows of the operation being called, from the tree.
 *
 * @example
 * ```ts
 * import type { ClientOperation } from "@ramify/api/client";
 *
 * const safe = (operation: ClientOperation) =>
 *   operation.tags.readOnly === true || operation.tags.idempotent === true;
 * ```
 */
export interface ClientOperation {
  /** The verb. */
  readonly method: HttpVerb;
  /** The path template, `/books/{bookId}`. */
  readonly path: string;
  /** Where the leaf sits in the tree. */
  readonly steps: readonly TreeStep[];
  /** The leaf's own tags with implications (readOnly, idempotent, streaming, ...). */
  readonly tags: Tags;
  /** Whether it takes an `Idempotency-Key` header (`meta.http.idempotencyKey`). */
  readonly idempotencyKey?: IdempotencyKeyMode;
  /** What it makes stale, when its leaf says (`meta.invalidates`). */
  readonly invalidates?: Invalidates;
}

/**
 * Per-call options: an abort signal, extra headers, and values extensions read
 * (such as `timeout`).
 *
 * @example
 * ```ts
 * import type { CallOptions } from "@ramify/api/client";
 *
 * const options: CallOptions = { headers: { "x-request-id": "42" }, timeout: 2_000 };
 * ```
 */
export interface CallOptions {
  /** Aborts the call. An aborted call is never retried. */
  readonly signal?: AbortSignal;
  /** Headers for this call, over the client's defaults. */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /** Milliseconds before this call times out (read by the `timeout` extension). */
  readonly timeout?: number;
  /**
   * A stream's positions: told each event's id as it arrives, before the
   * value is given. Pass the last as the leaf's `lastEventId` to resume.
   */
  readonly onEventId?: (id: string) => void;
  /** Told where the server says events were missed; the stream goes on after. */
  readonly onGap?: (notice: GapNotice) => void;
  /**
   * For a long-running leaf (tag `longRunning`): `true` resolves with its
   * task's handle at once (`TaskHandle`: status, result, cancel) instead of
   * awaiting its result. The server is asked `Prefer: respond-async`.
   */
  readonly async?: boolean;
  /** Further values for extensions. */
  readonly [key: string]: unknown;
}

/**
 * One request on its way out. Extensions may change `url`, `headers` and
 * `signal`, or send it more than once; the body (text or form data) can be resent.
 *
 * @example
 * ```ts
 * import type { ClientRequest } from "@ramify/api/client";
 *
 * const describe = (request: ClientRequest) => `${request.method} ${request.url}`;
 * ```
 */
export interface ClientRequest {
  /** The operation called. */
  readonly operation: ClientOperation;
  /** The verb (the operation's). */
  readonly method: HttpVerb;
  /** The full URL, query included. */
  url: string;
  /** The request headers (mutable). */
  readonly headers: Headers;
  /**
   * The body, for verbs that carry one: JSON text, or multipart form data when
   * the input holds a `File` or `Blob`. Both can be sent more than once.
   */
  readonly body: string | FormData | undefined;
  /** The signal the request is sent with. */
  signal: AbortSignal | undefined;
  /** The call's options. */
  readonly options: CallOptions;
}

/**
 * Sends one request and resolves with its response (any status). Rejects only
 * when no response arrives (network failure, abort, timeout).
 *
 * @example
 * ```ts
 * import type { Send } from "@ramify/api/client";
 *
 * const offline: Send = () => Promise.reject(new TypeError("offline"));
 * ```
 */
export type Send = (request: ClientRequest) => Promise<Response>;

/**
 * A client extension: wraps the next sender.
 *
 * @example
 * ```ts
 * import type { ClientExtension } from "@ramify/api/client";
 *
 * const noop: ClientExtension = { name: "noop", wrap: (next) => next };
 * ```
 */
export interface ClientExtension {
  /** A name for logs and errors. */
  readonly name: string;
  /** The sender that runs this extension, then `next`. */
  wrap(next: Send): Send;
}
