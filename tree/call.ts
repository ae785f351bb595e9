/**
 * The one call path of a leaf, shared by every surface (HTTP, GraphQL over
 * HTTP and WebSocket, tools, command line): validate the input against
 * `meta.input`, run the handler with its context, and pass the result through
 * `meta.output`. Surfaces differ only in how they read the input and write the
 * result, so a leaf answers alike wherever it is called from.
 *
 * - A failed input check throws {@linkcode InputError} (the caller's fault:
 *   HTTP 422, GraphQL `BAD_USER_INPUT`).
 * - The value sent is the output schema's parsed value, so unknown keys are
 *   stripped (with zod's `z.object`, as FastAPI's response model does). A result
 *   that does not satisfy it throws {@linkcode OutputError}: a server fault that
 *   surfaces report to `onError` and never show (HTTP 500, masked GraphQL error).
 * - A stream (an async iterable result) is checked item by item.
 * - A `Response` a handler returns passes through unchecked (the HTTP escape hatch).
 * - The leaf's middleware (`meta.use`) wraps the input check and the handler;
 *   the output check wraps them all, so a middleware's own answer is checked too.
 * - A `LeafError` is matched with `meta.errors` (its status filled in).
 * - A `reply()` result keeps its settings only for callers that ask (HTTP).
 *
 * Everything that can be decided per leaf is decided once, by
 * {@linkcode createCall}: a leaf with no schema is called as its bare handler.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const me = op(() => ({ id: "7", name: "Ann", passwordHash: "x" }), {
 *   output: z.object({ id: z.string(), name: z.string() }),
 * });
 * console.log(await createCall(me)({}, {})); // { id: "7", name: "Ann" }
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { HandlerContext, Node } from "./node.ts";
import {
  datePathsOf,
  holdsFile,
  normalizeIssue,
  toJsonSchema,
  type ValidationIssue,
} from "./schema.ts";
import { reviveDates } from "./dates.ts";
import { checkingBytes, isBytes } from "./bytes.ts";
import { isAsyncIterable, isPlainObject, setOwn } from "./plain_data.ts";
import { positioned, StreamEvent, StreamGap } from "./stream_events.ts";
import { chained, middlewareOf } from "./middleware.ts";
import { declared, type ErrorDeclarations } from "./errors.ts";
import { Reply } from "./reply.ts";
import { tagsOf } from "./tags.ts";

/**
 * The input did not satisfy the leaf's `meta.input`: the caller's fault, with
 * the issues found. HTTP answers 422, GraphQL `BAD_USER_INPUT`.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall, InputError } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const add = op(({ title }) => title, { input: z.object({ title: z.string() }) });
 * try {
 *   await createCall(add)({ title: 1 }, {});
 * } catch (error) {
 *   if (error instanceof InputError) console.log(error.issues[0].path); // ["title"]
 * }
 * ```
 */
export class InputError extends Error {
  /** What is wrong, with the path to each offending value. */
  readonly issues: readonly ValidationIssue[];

  /** An input error with the issues a schema reported. */
  constructor(issues: readonly ValidationIssue[]) {
    super("The input does not match the operation's schema");
    this.name = "InputError";
    this.issues = issues;
  }
}

/**
 * The handler's result did not satisfy the leaf's `meta.output`: a server
 * fault. Surfaces report it to their `onError` and never send the result or
 * these issues to the caller.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall, OutputError } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const count = op(() => "three" as unknown as number, { output: z.number() });
 * try {
 *   await createCall(count)({}, {});
 * } catch (error) {
 *   if (error instanceof OutputError) console.log(error.issues.length > 0); // true
 * }
 * ```
 */
export class OutputError extends Error {
  /** What is wrong with the result, for the server's logs only. */
  readonly issues: readonly ValidationIssue[];

  /** An output error with the issues a schema reported. */
  constructor(issues: readonly ValidationIssue[]) {
    super(
      `The handler's result does not match the operation's output schema: ${
        issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")
      }`,
    );
    this.name = "OutputError";
    this.issues = issues;
  }
}

/**
 * A prepared call of one leaf: the input in, the output-checked result out
 * (a value, a promise of one, or an async iterable of checked items). It may
 * throw synchronously (a synchronous handler or schema fails at once), so
 * callers `await` it inside their `try`.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall, type LeafCall } from "@ramify/api/tree/catalogue";
 *
 * const call: LeafCall = createCall(op(() => "pong"));
 * console.log(await call({}, {})); // "pong"
 * ```
 */
export type LeafCall = (input: unknown, context: HandlerContext) => unknown;

/**
 * Options of {@linkcode createCall}.
 *
 * @example
 * ```ts
 * import type { CreateCallOptions } from "@ramify/api/tree/catalogue";
 *
 * const opts: CreateCallOptions = { captures: ["bookId"] };
 * ```
 */
export interface CreateCallOptions {
  /**
   * Keys bound by fallbacks above the leaf. The handler receives them even when
   * the input schema does not name them (and would strip them).
   */
  readonly captures?: readonly string[];
  /**
   * What becomes of a `reply()` result: `"unwrap"` gives its value (GraphQL,
   * tools, the command line), `"keep"` gives the checked `Reply` (HTTP, which
   * sends its status, headers and cookies). Default `"unwrap"`.
   */
  readonly replies?: "keep" | "unwrap";
}

/**
 * Prepares the call of a leaf, once per leaf: the returned function validates
 * the input, runs the handler and checks the result. Without schemas it adds
 * only what every leaf gets: the merged input as sent (an object), and a walk
 * of the result that finds a promise left inside it. A leaf is prepared once
 * per process for its captures, whichever surfaces ask (`serve()` mounts
 * several): later asks get the same prepared call.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { createCall } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const add = op(({ a, b }) => a + b, {
 *   input: z.object({ a: z.coerce.number(), b: z.coerce.number() }),
 *   output: z.number(),
 * });
 * console.log(await createCall(add)({ a: "1", b: "2" }, {})); // 3
 * ```
 *
 * @throws {TypeError} when the node has no handler.
 */
export function createCall(leaf: Node, opts: CreateCallOptions = {}): LeafCall {
  const captures = opts.captures ?? [];
  const key = captures.join("\u0000");
  let byCaptures = prepared.get(leaf);
  if (byCaptures === undefined) prepared.set(leaf, byCaptures = new Map());
  let call = byCaptures.get(key);
  if (call === undefined) {
    call = prepare(leaf, captures);
    byCaptures.set(key, call);
  }
  return opts.replies === "keep" ? call.keep : call.unwrap;
}

/** A leaf's prepared call, by its captures: the same for every surface that asks. */
const prepared = new WeakMap<Node, Map<string, Prepared>>();

/** One prepared call, with `reply()` results kept (HTTP) or unwrapped (every other surface). */
interface Prepared {
  readonly keep: LeafCall;
  readonly unwrap: LeafCall;
}

/**
 * How many calls of a leaf this process has prepared: the architecture test
 * holds `serve()` to one per leaf. Internal, not exported by `./tree`.
 */
export function timesPrepared(leaf: Node): number {
  return prepared.get(leaf)?.size ?? 0;
}

/** Where a context holds the hook of `onAdmitted` (engine/admission.ts). */
export const ADMITTED: unique symbol = Symbol("ramify.admitted");

/** What `onAdmitted` (engine/admission.ts) is told: the context the leaf's guards made. */
export type Admission = (context: HandlerContext) => void | Promise<void>;

/** A context that may hold the `onAdmitted` (engine/admission.ts) hook. */
type Admitting = HandlerContext & { readonly [ADMITTED]?: Admission };

function prepare(leaf: Node, captures: readonly string[]): Prepared {
  const own = leaf.handler as
    | ((input: unknown, context: HandlerContext) => unknown)
    | undefined;
  if (typeof own !== "function") {
    throw new TypeError("createCall(): the node has no handler");
  }
  // Only a long-running leaf's call tells when its handler begins: others pay nothing.
  const handler = tagsOf(leaf).longRunning === true
    ? (input: unknown, context: Admitting) => {
      const waiting = context[ADMITTED]?.(context);
      return waiting instanceof Promise
        ? waiting.then(() => own(input, context))
        : own(input, context);
    }
    : own;
  const input = leaf.meta?.input;
  const output = leaf.meta?.output;
  const errors = leaf.meta?.errors;
  const middleware = middlewareOf(leaf);
  // Dates arrive as date-time strings; the schema gets `Date`s.
  const inputDates = input === undefined ? [] : datePathsOf(input, "input");
  const checkInput = input === undefined
    ? undefined
    : inputDates.length === 0
    ? (value: unknown) => parsed(input, value, InputError, captures)
    : (value: unknown) => parsed(input, reviveDates(value, inputDates), InputError, captures);
  // No input schema: the handler receives the merged input as sent (captures,
  // body and query, merged by the surface), an object of own keys.
  let call: LeafCall = checkInput === undefined
    ? (value, context) => handler(openInput(value), context)
    : (value, context) => {
      const checked = checkInput(value);
      return checked instanceof Promise
        ? checked.then((valid) => handler(valid, context))
        : handler(checked, context);
    };
  if (middleware.length > 0) call = chained(leaf, middleware, call);
  if (errors !== undefined && Object.keys(errors).length > 0) call = raising(call, errors);
  const handled = call;
  call = (value, context) => withoutPromises(handled(value, context));
  const checkResult = output === undefined ? undefined : resultChecker(output);
  const checked: LeafCall = checkResult === undefined
    ? call
    : (value, context) => checkResult(call(value, context));
  return { keep: checked, unwrap: (value, context) => unwrapped(checked(value, context)) };
}

/**
 * The input of a leaf without an input schema: the object a surface merged
 * (its own keys only, as every surface builds it), `{}` for none; anything
 * else is the caller's fault. Also GraphQL's rule for its free-form `input`
 * argument. Internal, not exported by `./tree`.
 *
 * @example
 * ```ts
 * import { openInput } from "./call.ts";
 *
 * console.log(openInput(undefined)); // {}
 * ```
 */
export function openInput(value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  if (value === undefined || value === null) return {};
  throw new InputError([{ message: "The input must be an object of named values", path: [] }]);
}

/**
 * A result (or a stream's item) as it is, unless it holds a promise: that is
 * no value to send, and left alone it could reject with nobody listening and
 * take the process down. Every promise found is given a handler, and the
 * call is a server fault naming where the first one was.
 */
function withoutPromises(result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  // The common result, a plain object or array, is walked at once.
  const prototype = Object.getPrototypeOf(result);
  const plain = prototype === Object.prototype || prototype === Array.prototype;
  if (!plain) {
    if (result instanceof Promise) return result.then(withoutPromises);
    if (isBytes(result)) return result;
  }
  // An object literal may be a stream too (`[Symbol.asyncIterator]`).
  if (isAsyncIterable(result) && !(result instanceof Reply)) {
    return promiseFreeItems(positioned(result));
  }
  const value = result instanceof Reply ? result.value : result;
  if (!holdsPromise(value, 0)) return result;
  const at = promisePath(value, 0);
  throw new TypeError(
    `The result holds a promise at ${at === "" ? "(root)" : at}; await it before returning`,
  );
}

const MAX_RESULT_DEPTH = 64;

/**
 * Whether a plain value holds a promise (or other thenable); every promise in
 * it is given a handler. No path is built: every result pays for this walk.
 */
function holdsPromise(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null || depth > MAX_RESULT_DEPTH) return false;
  if (typeof (value as { then?: unknown }).then === "function") {
    if (value instanceof Promise) value.catch(() => {});
    return true;
  }
  let found = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) found = holdsPromise(value[i], depth + 1) || found;
  } else if (isPlainObject(value)) {
    for (const key in value) {
      if (Object.hasOwn(value, key)) found = holdsPromise(value[key], depth + 1) || found;
    }
  }
  return found;
}

/** The path of the first promise in a value that holds one (`books.0.author`), for the message. */
function promisePath(value: unknown, depth: number): string {
  if (typeof (value as { then?: unknown }).then === "function") return "";
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    if (!holdsPromise(item, depth + 1)) continue;
    const rest = promisePath(item, depth + 1);
    return rest === "" ? key : `${key}.${rest}`;
  }
  return "";
}

async function* promiseFreeItems(source: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  for await (const item of source) {
    yield item instanceof StreamEvent
      ? item.with(await withoutPromises(item.value))
      : withoutPromises(item);
  }
}

/** A declared error thrown by the call (at once or later) comes out matched with its declaration. */
function raising(call: LeafCall, errors: ErrorDeclarations): LeafCall {
  return (value, context) => {
    let result: unknown;
    try {
      result = call(value, context);
    } catch (error) {
      return declared(error, errors);
    }
    if (result instanceof Promise) {
      return result.then(
        (settled) => isAsyncIterable(settled) ? raisingItems(settled, errors) : settled,
        (error) => declared(error, errors),
      );
    }
    return isAsyncIterable(result) ? raisingItems(result, errors) : result;
  };
}

/** A stream whose failure is matched with the declarations too. */
async function* raisingItems(
  source: AsyncIterable<unknown>,
  errors: ErrorDeclarations,
): AsyncGenerator<unknown> {
  try {
    yield* positioned(source);
  } catch (error) {
    await declared(error, errors);
  }
}

/** A `reply()`'s value, for surfaces that have no status or headers to set. */
function unwrapped(result: unknown): unknown {
  if (result instanceof Promise) return result.then(unwrapped);
  return result instanceof Reply ? result.value : result;
}

/** Whether an output schema may hold a file: it does, or its JSON Schema cannot tell. */
function mayHoldFile(schema: StandardSchemaV1): boolean {
  try {
    const json = toJsonSchema(schema, "output");
    return json === undefined || holdsFile(json);
  } catch {
    return true;
  }
}

/** Checks a handler's result: awaits a promise, checks a value or each item of a stream. */
function resultChecker(schema: StandardSchemaV1): (result: unknown) => unknown {
  const plain = (value: unknown) => parsed(schema, value, OutputError, []);
  // A Blob is a file to a schema of files (`z.file()`), as a handler may return either:
  // decided once per leaf, so that other results pay nothing for it.
  const check = mayHoldFile(schema) ? checkingBytes(plain) : plain;
  const checkSettled = (result: unknown): unknown => {
    if (isPassThrough(result)) return result;
    if (result instanceof Reply) {
      const value = check(result.value);
      return value instanceof Promise ? value.then((v) => result.with(v)) : result.with(value);
    }
    if (isAsyncIterable(result)) return checkedItems(result, check);
    return check(result);
  };
  return (result) => result instanceof Promise ? result.then(checkSettled) : checkSettled(result);
}

/**
 * A schema's parsed value, or the error of the side that failed. Synchronous
 * schemas (most are) give a value, not a promise: one microtask less per call.
 */
function parsed(
  schema: StandardSchemaV1,
  value: unknown,
  Failure: typeof InputError | typeof OutputError,
  captures: readonly string[],
): unknown {
  const result = schema["~standard"].validate(value);
  return result instanceof Promise
    ? result.then((settled) => valueOf(settled, value, Failure, captures))
    : valueOf(result, value, Failure, captures);
}

function valueOf(
  result: StandardSchemaV1.Result<unknown>,
  raw: unknown,
  Failure: typeof InputError | typeof OutputError,
  captures: readonly string[],
): unknown {
  if (result.issues !== undefined) throw new Failure(result.issues.map(normalizeIssue));
  return captures.length === 0 ? result.value : withCaptures(result.value, raw, captures);
}

/** A schema that does not name a capture would strip it; the handler still gets it. */
function withCaptures(value: unknown, raw: unknown, captures: readonly string[]): unknown {
  if (!isPlainObject(value) || !isPlainObject(raw)) return value;
  for (const name of captures) {
    if (!Object.hasOwn(value, name) && Object.hasOwn(raw, name)) setOwn(value, name, raw[name]);
  }
  return value;
}

/** Re-yields a stream's items checked; leaving early (or failing) closes the source. */
async function* checkedItems(
  source: AsyncIterable<unknown>,
  check: (item: unknown) => unknown,
): AsyncGenerator<unknown> {
  for await (const item of source) {
    if (item instanceof StreamGap) yield item;
    else if (item instanceof StreamEvent) yield item.with(await check(item.value));
    else yield await check(item);
  }
}

// A web `Response` is the HTTP surface's escape hatch: it is sent as it is.
function isPassThrough(value: unknown): boolean {
  return typeof Response === "function" && value instanceof Response;
}
