// Field resolvers over the tree's handlers: one flat input (arguments plus
// captures) through the leaf's call path (input and output schemas) and the
// call runner (the caller's signal, the deadline), each failure rendered as
// the tree classifies it (`clientError`). Shared by `createResolver` (a
// resolver map for any executor) and `toSchema`.

import type { HandlerContext } from "../../tree/node.ts";
import { StreamEvent } from "../../tree/stream_events.ts";
import { openInput } from "../../tree/call.ts";
import { labelOf } from "../../tree/leaves.ts";
import { perform } from "../../engine/engine.ts";
import { bytesOf } from "../../tree/bytes.ts";
import { resultKindOf } from "../../tree/result_kind.ts";
import { GraphQLError } from "graphql";
import { isPlainObject, setOwn } from "../../tree/plain_data.ts";
import type { GraphQLLeafField } from "./projection.ts";
import type { ArgumentDefinition, NamedTypeDefinition } from "./types.ts";
import { type ClientError, observer, type ResolveOptions } from "./errors.ts";

export type Resolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: unknown,
) => unknown;

/**
 * Input object types by name: where a schema's property name had to be changed
 * to be a GraphQL name, the definition keeps the original as `key`.
 */
export type InputTypes = ReadonlyMap<string, NamedTypeDefinition>;

/** The input types of a registry's definitions. */
export function inputTypesOf(definitions: readonly NamedTypeDefinition[]): InputTypes {
  return new Map(definitions.filter((d) => d.kind === "input").map((d) => [d.name, d]));
}

/**
 * The resolver of a query or mutation field, its call prepared once. A
 * handler that answers at once is answered at once: no promise for
 * graphql-js to wait on.
 */
export function leafResolver(
  field: GraphQLLeafField,
  opts: ResolveOptions,
  inputs: InputTypes,
  toClient: ClientError,
): Resolver {
  const call = field.entry.call;
  const timeoutMs = opts.timeoutMs;
  const report = observer(opts.onError, "ramify: GraphQL resolver returned bytes:");
  const done = (value: unknown) => {
    if (field.voidResult) return true;
    if (carriesNoJson(value)) throw notJson(field, value, report);
    return value;
  };
  return (_parent, args, context) => {
    const ctx = handlerContext(context);
    let result: unknown;
    try {
      result = perform(call, inputOf(field, args, inputs), ctx, timeoutMs);
    } catch (error) {
      throw toClient(error, ctx);
    }
    if (result instanceof Promise) {
      return result.then(done, (error) => {
        throw toClient(error, ctx);
      });
    }
    return done(result);
  };
}

/** Whether a result is bytes or a `Response`, which no GraphQL type carries. */
function carriesNoJson(value: unknown): boolean {
  const kind = resultKindOf(value);
  return kind === "bytes" || kind === "response";
}

/**
 * A handler answered with bytes or a `Response`, which no GraphQL type
 * carries (the JSON scalar would make either `{}`): its field is an error
 * saying what to do, its siblings keep their data. A mistake of the server's,
 * so it is observed as a fault is; the message names only the leaf and the
 * media type.
 */
function notJson(
  field: GraphQLLeafField,
  value: unknown,
  report: (error: unknown) => void,
): GraphQLError {
  const response = value instanceof Response;
  const type = response
    ? value.headers.get("content-type") ?? "no media type"
    : bytesOf(value).type;
  const body = response ? value.body : value instanceof ReadableStream ? value : null;
  // Nobody will read the body: let its source stop.
  body?.cancel().catch(() => {});
  const error = new GraphQLError(
    `${labelOf(field.steps)} answered with ${
      response ? "a Response" : "bytes"
    } (${type}), which GraphQL cannot carry; ${
      response ? "return the value itself, or" : "serve it over HTTP and"
    } keep it out of GraphQL with meta.graphql: false`,
    { extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } },
  );
  report(error);
  return error;
}

/** The `subscribe` of a subscription field: the handler's async iterable, its failures rendered. */
export function subscriptionResolver(
  field: GraphQLLeafField,
  opts: ResolveOptions,
  inputs: InputTypes,
  toClient: ClientError,
): Resolver {
  const call = field.entry.call;
  const timeoutMs = opts.timeoutMs;
  const report = observer(opts.onError, "ramify: GraphQL resolver returned bytes:");
  return async (_parent, args, context) => {
    const ctx = handlerContext(context);
    let source: unknown;
    try {
      source = await perform(call, inputOf(field, args, inputs), ctx, timeoutMs);
    } catch (error) {
      throw toClient(error, ctx);
    }
    if (carriesNoJson(source)) throw notJson(field, source, report);
    if (resultKindOf(source) !== "stream") {
      throw toClient(
        new TypeError(`${labelOf(field.steps)}: a streaming handler must return an async iterable`),
        ctx,
      );
    }
    return rendered(
      source as AsyncIterable<unknown>,
      toClient,
      ctx,
      (value) => notJson(field, value, report),
    );
  };
}

/**
 * Re-yields a stream, rendering its failure; returning early closes the
 * source (its `finally` runs). An item of bytes or a `Response` ends it with
 * `refuse`'s error, as such a result fails a query's field.
 */
async function* rendered(
  source: AsyncIterable<unknown>,
  toClient: ClientError,
  context: HandlerContext,
  refuse: (value: unknown) => GraphQLError,
): AsyncGenerator<unknown> {
  let refused: unknown;
  try {
    for await (const item of source) {
      const value = item instanceof StreamEvent ? item.value : item;
      if (carriesNoJson(value)) {
        refused = value;
        break;
      }
      yield item;
    }
  } catch (error) {
    throw toClient(error, context);
  }
  if (refused !== undefined) throw refuse(refused);
}

/** The one flat input: arguments plus captures. */
export function inputOf(
  field: GraphQLLeafField,
  args: Record<string, unknown>,
  inputs: InputTypes,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const arg of field.args) {
    if (!Object.hasOwn(args, arg.name) || field.captures.includes(arg.name)) continue;
    if (arg.spread === true) spreadInto(input, args[arg.name], inputs);
    else setOwn(input, arg.key ?? arg.name, withKeys(args[arg.name], arg, inputs));
  }
  for (const capture of field.captures) setOwn(input, capture, args[capture]);
  return input;
}

/** The free-form input of a leaf without an input schema: its own keys are the input's. */
function spreadInto(input: Record<string, unknown>, value: unknown, inputs: InputTypes): void {
  const named = openInput(value);
  for (const key of Object.keys(named)) setOwn(input, key, withKeys(named[key], UNTYPED, inputs));
}

/** No input type: a value of it is any JSON, copied with ordinary objects throughout. */
const UNTYPED = { type: "" };

/**
 * An argument value as the handler expects it: ordinary objects (graphql-js
 * gives them without a prototype), and original property names where the
 * GraphQL names had to differ.
 */
function withKeys(
  value: unknown,
  typed: Pick<ArgumentDefinition, "type">,
  inputs: InputTypes,
): unknown {
  if (Array.isArray(value)) return value.map((item) => withKeys(item, typed, inputs));
  if (!isPlainObject(value)) return value;
  const definition = inputs.get(typed.type.replace(/[[\]!]/g, ""));
  const fields = definition?.kind === "input" ? definition.fields : [];
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = fields.find((f) => f.name === key);
    setOwn(copy, field?.key ?? key, withKeys(value[key], field ?? UNTYPED, inputs));
  }
  return copy;
}

/** The handler context of a resolver's context value (an empty one when it is none). */
export function handlerContext(context: unknown): HandlerContext {
  return typeof context === "object" && context !== null ? context as HandlerContext : {};
}
