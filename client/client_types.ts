/**
 * The types of the typed HTTP client, worked out from the tree: what each leaf
 * takes (its input less the captures) and what it resolves to (its output
 * schema's type, else the JSON form of its handler's result), through branches
 * and fallbacks. The GraphQL client has the same types.
 *
 * @example
 * ```ts
 * import type { Client } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({ ping: op(() => "pong") });
 * type Ping = Client<typeof tree>; // { ping: (input?, options?) => Promise<string> }
 * ```
 *
 * @module
 */

import type { Fallback, Leaf, Node } from "../tree/node.ts";
import type { OutputOf } from "../tree/schema.ts";
import type { StreamItemOf } from "../tree/stream_events.ts";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { CallOptions } from "./extension.ts";
import type { ClientError } from "./client_error.ts";
import type { Reply } from "../tree/reply.ts";
import type { JsonOf } from "../tree/dates.ts";

/**
 * Whether every key of T is optional, so the input may be left out.
 *
 * @example
 * ```ts
 * import type { AllOptional } from "@ramify/api/client";
 *
 * const yes: AllOptional<{ a?: number }> = true;
 * ```
 */
export type AllOptional<T> = Record<PropertyKey, never> extends T ? true : false;

/**
 * Bytes as a handler may return them (see `isBytes` in `@ramify/api/tree`):
 * each arrives at a client as a `Blob`.
 *
 * @example
 * ```ts
 * import type { BytesResult } from "@ramify/api/client";
 *
 * const sent: BytesResult = new Uint8Array([1, 2]);
 * ```
 */
export type BytesResult = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

/**
 * What a leaf resolves to on the client: bytes are a `Blob` (asked first: a
 * `ReadableStream` is async iterable too), a stream stays a stream, a
 * passed-through `Response` is unknown, a `reply()` is its value, nothing is
 * `undefined`.
 *
 * @example
 * ```ts
 * import type { ResultOf } from "@ramify/api/client";
 *
 * const n: ResultOf<Promise<number>> = 1;
 * const file: ResultOf<Promise<Uint8Array>> = new Blob([]);
 * ```
 */
export type ResultOf<O> = Awaited<O> extends BytesResult ? Blob
  : O extends AsyncIterable<infer E> ? AsyncIterable<StreamItemOf<E>>
  : Awaited<O> extends AsyncIterable<infer E> ? AsyncIterable<StreamItemOf<E>>
  : Awaited<O> extends Response ? unknown
  : Awaited<O> extends Reply<infer V> ? ResultOf<V>
  : Awaited<O> extends void ? undefined
  : Awaited<O>;

// The JSON form of a value's type (`JsonOf`) is the tree's, one definition for
// every place a value crosses JSON: the clients' results and pub/sub payloads.
export type { JsonOf };

/**
 * What a leaf's client receives: the JSON form of its output schema's output
 * type, where the dates the schema promises stay `Date`s (the clients revive
 * them), else the JSON form of the handler's result.
 *
 * @example
 * ```ts
 * import type { ReceivedOf } from "@ramify/api/client";
 * import { op } from "@ramify/api/tree";
 *
 * const stamp = op(() => ({ at: new Date() }));
 * const received: ReceivedOf<typeof stamp> = { at: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export type ReceivedOf<L> = L extends Leaf<infer _I, infer O, infer _W, infer S>
  ? [S] extends [StandardSchemaV1] ? JsonResultOf<ResultOf<OutputOf<L>>, Date>
  : JsonResultOf<ResultOf<O>>
  : never;

type JsonResultOf<R, Kept = never> = R extends Blob ? Blob
  : R extends AsyncIterable<infer E> ? AsyncIterable<JsonOf<E, Kept>>
  : unknown extends R ? R
  : JsonOf<R, Kept> | (undefined extends R ? undefined : never);

/**
 * The input a caller gives: the leaf's input less what the fallbacks captured.
 *
 * @example
 * ```ts
 * import type { CallInput } from "@ramify/api/client";
 *
 * const input: CallInput<{ bookId: string; title: string }, "bookId"> = { title: "Dune" };
 * ```
 */
export type CallInput<W, Caps extends string> = [Caps] extends [never] ? W : Omit<W, Caps>;

/**
 * The client function of a leaf.
 *
 * @example
 * ```ts
 * import type { LeafClient } from "@ramify/api/client";
 * import { op } from "@ramify/api/tree";
 *
 * const read = op(({ id }: { id: string }) => ({ id }));
 * type Read = LeafClient<typeof read>; // (input: { id: string }, options?) => Promise<{ id: string }>
 * ```
 */
export type LeafClient<L, Caps extends string = never> = L extends
  Leaf<infer _I, infer _O, infer W, infer _S, infer _E>
  ? AllOptional<CallInput<W, Caps>> extends true ? {
      (input: CallInput<W, Caps> | undefined, options: AsyncCallOptions): Promise<TaskHandleOf<L>>;
      (input?: CallInput<W, Caps>, options?: CallOptions): CallResult<L>;
    }
  : {
    (input: CallInput<W, Caps>, options: AsyncCallOptions): Promise<TaskHandleOf<L>>;
    (input: CallInput<W, Caps>, options?: CallOptions): CallResult<L>;
  }
  : unknown;

/**
 * The options of a call that asks for a long-running leaf's handle.
 *
 * @example
 * ```ts
 * import type { AsyncCallOptions } from "@ramify/api/client";
 *
 * const detached: AsyncCallOptions = { async: true };
 * ```
 */
export type AsyncCallOptions = CallOptions & { readonly async: true };

/**
 * The handle a leaf's call with `{ async: true }` resolves with: its result
 * typed as the leaf's, its declared errors carried for `safe()`.
 *
 * @example
 * ```ts
 * import type { TaskHandleOf } from "@ramify/api/client";
 * import { op } from "@ramify/api/tree";
 *
 * const reindex = op(() => ({ indexed: 3 }), { tags: { longRunning: true } });
 * const indexed = async (task: TaskHandleOf<typeof reindex>) => (await task.result()).indexed;
 * ```
 */
export type TaskHandleOf<L> = TaskHandle<ReceivedOf<L>, ErrorsOf<L>>;

/**
 * What a leaf's client call returns: a promise of what it receives, carrying
 * (for the types only) the leaf's error declarations, which `safe()` (HTTP)
 * and `safeGraphQL()` turn into their clients' error unions.
 *
 * @example
 * ```ts
 * import type { ClientPromise } from "@ramify/api/client";
 *
 * const pending: ClientPromise<number, { TAKEN: { status: 409 } }> = Promise.resolve(1);
 * ```
 */
export type ClientPromise<T, D> = Promise<T> & { readonly "~errors"?: D };

type CallResult<L> = ClientPromise<ReceivedOf<L>, ErrorsOf<L>>;

/**
 * The errors a leaf declares (`meta.errors`), as its declarations' types.
 *
 * @example
 * ```ts
 * import type { ErrorsOf } from "@ramify/api/client";
 * import { op } from "@ramify/api/tree";
 *
 * const reserve = op(() => 1, { errors: { TAKEN: { status: 409 } } });
 * const taken: keyof ErrorsOf<typeof reserve> = "TAKEN";
 * ```
 */
export type ErrorsOf<L> = L extends Leaf<infer _I, infer _O, infer _W, infer _S, infer E> ? E
  : Record<never, never>;

/**
 * A `ClientError` of an error the leaf declares: its `code` is the literal
 * code and its `data` the JSON form of the declared data schema's type.
 *
 * @example
 * ```ts
 * import type { DeclaredClientError } from "@ramify/api/client";
 *
 * function idOf(error: DeclaredClientError<"NOT_FOUND", { id: string }>): string {
 *   return error.data.id;
 * }
 * ```
 */
export type DeclaredClientError<Code extends string, Data> = ClientError & {
  readonly code: Code;
  readonly data: Data;
};

/**
 * Every `ClientError` a leaf's call may reject with, as a union that narrows
 * on `code`: one member per declared error, and one with `code: undefined` for
 * everything else (validation, 404 routes, 500s, guards).
 *
 * @example
 * ```ts
 * import type { ClientErrorOf } from "@ramify/api/client";
 * import { op } from "@ramify/api/tree";
 *
 * const reserve = op(() => 1, { errors: { TAKEN: { status: 409 } } });
 * function explain(error: ClientErrorOf<typeof reserve>): string {
 *   return error.code === "TAKEN" ? "taken" : error.message;
 * }
 * ```
 */
export type ClientErrorOf<L> = ClientErrorFrom<ErrorsOf<L>>;

/**
 * {@linkcode ClientErrorOf} from error declarations rather than a leaf.
 *
 * @example
 * ```ts
 * import type { ClientErrorFrom } from "@ramify/api/client";
 *
 * type Taken = ClientErrorFrom<{ TAKEN: { status: 409 } }>;
 * const code = (error: Taken) => error.code; // "TAKEN" | undefined
 * ```
 */
export type ClientErrorFrom<D> =
  | { [K in keyof D & string]: DeclaredClientError<K, DeclaredDataOf<D[K]>> }[keyof D & string]
  | (ClientError & { readonly code: undefined; readonly data: undefined });

/**
 * The JSON form of a declared error's data (`undefined` when it declares none).
 *
 * @example
 * ```ts
 * import type { DeclaredDataOf } from "@ramify/api/client";
 * import { z } from "zod";
 *
 * const data: DeclaredDataOf<{ status: 404; data: z.ZodObject<{ id: z.ZodString }> }> = { id: "9" };
 * ```
 */
export type DeclaredDataOf<D> = D extends { readonly data: StandardSchemaV1<infer _In, infer Out> }
  ? JsonOf<Out>
  : undefined;

/**
 * The clients of a node's static children, by name.
 *
 * @example
 * ```ts
 * import type { ChildrenClient } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({ ping: op(() => "pong") });
 * type Children = ChildrenClient<typeof tree, never>; // { ping: ... }
 * ```
 */
export type ChildrenClient<N, Caps extends string> = N extends { readonly children: infer C }
  ? { readonly [K in keyof C]: Client<C[K], Caps> }
  : unknown;

/**
 * The function a node's fallback becomes: the captured value in, the subtree's
 * client out, keyed by the capture name.
 *
 * @example
 * ```ts
 * import type { FallbackClient } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({}, { fallback: { name: "id", subtree: api({ read: op(() => 1) }) } });
 * type ById = FallbackClient<typeof tree, never>; // { id: (value: string) => ... }
 * ```
 */
export type FallbackClient<N, Caps extends string> = N extends { readonly fallback?: infer F }
  // No fallback: nothing (matching `never` against `Fallback` would give every name).
  ? [NonNullable<F>] extends [never] ? unknown
  : NonNullable<F> extends Fallback<infer Name, infer Sub>
    ? { readonly [P in Name]: (value: string) => Client<Sub, Caps | Name> }
  : unknown
  : unknown;

/**
 * A client of a node whose types were lost (a route without its tree): every
 * name is reachable and every leaf takes and returns unknown values.
 *
 * @example
 * ```ts
 * import type { DynamicClient } from "@ramify/api/client";
 *
 * async function ping(client: DynamicClient) {
 *   return await client.health.ping();
 * }
 * ```
 */
export interface DynamicClient {
  /** Calls the leaf at this position. */
  (input?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  /** A child, or a fallback (call it with the captured value). */
  readonly [name: string]: DynamicClient;
}

/**
 * The typed client of a tree: its shape mirrors the tree.
 *
 * @example
 * ```ts
 * import type { Client } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({ ping: op(() => "pong") });
 * type PingClient = Client<typeof tree>; // { ping: (input?, options?) => Promise<string> }
 * ```
 */
export type Client<N, Caps extends string = never> = Node extends N ? DynamicClient
  : LeafClient<N, Caps> & ChildrenClient<N, Caps> & FallbackClient<N, Caps>;

/**
 * Where a task stands, as its status resource says.
 *
 * @example
 * ```ts
 * import type { TaskState } from "@ramify/api/client";
 *
 * const done = (state: TaskState) => ["completed", "failed", "cancelled"].includes(state.status);
 * ```
 */
export interface TaskState {
  /** The task's id (absent for a call the server answered at once). */
  readonly id?: string;
  /** Where it stands. */
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** The operation's label. */
  readonly operation?: string;
  /** When it started and last changed (date-time strings). */
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** The last progress its handler reported. */
  readonly progress?: { readonly done: number; readonly total?: number; readonly message?: string };
  /** Its handler's latest log lines. */
  readonly logs: readonly {
    readonly at: string;
    readonly level: string;
    readonly message: string;
    readonly data?: unknown;
  }[];
  /** What its handler asks first, while `input_required`. */
  readonly question?: TaskQuestionState;
  /** Every question it waits on, while `input_required`, in the order asked. */
  readonly questions?: readonly TaskQuestionState[];
  /** The problem (RFC 9457), once `failed` or `cancelled`. */
  readonly error?: {
    readonly status: number;
    readonly title: string;
    readonly detail?: string;
    readonly code?: string;
  };
}

/**
 * A question a task waits on: `key` names it in {@linkcode TaskHandle.answer},
 * `schema` is the JSON Schema (a flat form) of the answer.
 *
 * @example
 * ```ts
 * import type { TaskQuestionState } from "@ramify/api/client";
 *
 * const prompt = (question: TaskQuestionState) => `${question.message} (${question.key})`;
 * ```
 */
export interface TaskQuestionState {
  /** What names it in an answer. */
  readonly key: string;
  /** What the handler asks. */
  readonly message: string;
  /** The answer's form, as JSON Schema. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * A long-running call's handle, from a call with `{ async: true }`.
 *
 * @example
 * ```ts
 * import type { TaskHandle } from "@ramify/api/client";
 *
 * async function report(task: TaskHandle<{ indexed: number }, Record<never, never>>) {
 *   console.log((await task.status()).progress?.done);
 *   return (await task.result()).indexed;
 * }
 * ```
 */
export interface TaskHandle<T, D> {
  /** The task's id; undefined when the server answered the call at once (no task). */
  readonly id: string | undefined;
  /** Its status resource's URL; undefined likewise. */
  readonly location: string | undefined;
  /** Where it stands now. */
  status(): Promise<TaskState>;
  /**
   * Its result once it ends (polling with backoff): resolves or rejects with
   * a `ClientError` as the call itself would have.
   */
  result(): ClientPromise<T, D>;
  /** Cancels it (its handler's signal aborts); where it stands after. */
  cancel(): Promise<TaskState>;
  /**
   * Answers the question its handler asked while it is `input_required`:
   * the one `key` names, else the first (`status().questions`), with the
   * form's content; where it stands after. Rejects with a `ClientError`:
   * `409` when it is not waiting on that question, `422` when the answer does
   * not fit the question's schema, `404` when it cannot be found.
   */
  answer(answer: Readonly<Record<string, unknown>>, key?: string): Promise<TaskState>;
}
