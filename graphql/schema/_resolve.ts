// Field resolvers over the tree's handlers: one flat input (arguments plus
// captures) through the leaf's call path (input and output schemas) and the
// call runner (the caller's signal, the deadline), each failure rendered as
// the tree classifies it (`clientError`). Shared by `createResolver` (a
// resolver map for any executor) and `toSchema`.

import type { HandlerContext } from "../../tree/node.ts";
import { createCall } from "../../tree/call.ts";
import { labelOf } from "../../tree/leaves.ts";
import { runCall } from "../../tree/run.ts";
import { isAsyncIterable, isPlainObject, setOwn } from "../../tree/plain_data.ts";
import type { GraphQLLeafField } from "./projection.ts";
import type { ArgumentDefinition, NamedTypeDefinition } from "./types.ts";
import type { ClientError, ResolveOptions } from "./errors.ts";

type Resolver = (
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
  const call = createCall(field.node, { captures: field.captures });
  const timeoutMs = opts.timeoutMs;
  const done = field.voidResult ? () => true : undefined;
  return (_parent, args, context) => {
    const ctx = handlerContext(context);
    let result: unknown;
    try {
      result = runCall(call, inputOf(field, args, inputs), ctx, timeoutMs);
    } catch (error) {
      throw toClient(error, ctx);
    }
    if (result instanceof Promise) {
      return result.then(done, (error) => {
        throw toClient(error, ctx);
      });
    }
    return done === undefined ? result : true;
  };
}

/** The `subscribe` of a subscription field: the handler's async iterable, its failures rendered. */
export function subscriptionResolver(
  field: GraphQLLeafField,
  opts: ResolveOptions,
  inputs: InputTypes,
  toClient: ClientError,
): Resolver {
  const call = createCall(field.node, { captures: field.captures });
  const timeoutMs = opts.timeoutMs;
  return async (_parent, args, context) => {
    const ctx = handlerContext(context);
    let source: unknown;
    try {
      source = await runCall(call, inputOf(field, args, inputs), ctx, timeoutMs);
    } catch (error) {
      throw toClient(error, ctx);
    }
    if (!isAsyncIterable(source)) {
      throw toClient(
        new TypeError(`${labelOf(field.steps)}: a streaming handler must return an async iterable`),
        ctx,
      );
    }
    return rendered(source, toClient, ctx);
  };
}

/** Re-yields a stream, rendering its failure; returning early closes the source (its `finally` runs). */
async function* rendered(
  source: AsyncIterable<unknown>,
  toClient: ClientError,
  context: HandlerContext,
): AsyncGenerator<unknown> {
  try {
    for await (const value of source) yield value;
  } catch (error) {
    throw toClient(error, context);
  }
}

/** The one flat input: arguments plus captures. */
function inputOf(
  field: GraphQLLeafField,
  args: Record<string, unknown>,
  inputs: InputTypes,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const arg of field.args) {
    if (!Object.hasOwn(args, arg.name) || field.captures.includes(arg.name)) continue;
    setOwn(input, arg.key ?? arg.name, withKeys(args[arg.name], arg, inputs));
  }
  for (const capture of field.captures) setOwn(input, capture, args[capture]);
  return input;
}

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
    setOwn(
      copy,
      field?.key ?? key,
      field === undefined ? plain(value[key]) : withKeys(value[key], field, inputs),
    );
  }
  return copy;
}

/** A JSON value with ordinary objects throughout. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, plain(value[key]));
  return copy;
}

function handlerContext(context: unknown): HandlerContext {
  return typeof context === "object" && context !== null ? context as HandlerContext : {};
}
