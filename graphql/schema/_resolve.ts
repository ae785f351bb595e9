// Field resolvers over the tree's handlers: one flat input (arguments plus
// captures) through the leaf's call path (input and output schemas), the
// handler's errors mapped or masked. Shared by `createResolver` (a resolver map
// for any executor) and `toSchema`.

import { GraphQLError } from "graphql";
import type { HandlerContext } from "../../tree/node.ts";
import { createCall, InputError, OutputError } from "../../tree/call.ts";
import { isAsyncIterable, isPlainObject, setOwn } from "../../tree/object.ts";
import type { GraphQLLeafField } from "./projection.ts";
import type { ArgumentDefinition, NamedTypeDefinition } from "./types.ts";
import { graphqlErrors, type ResolveOptions } from "./errors.ts";
import { isCancellation } from "../../tree/deadline.ts";

type Resolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: unknown,
) => Promise<unknown>;

const httpErrorsOnly = graphqlErrors({});

/**
 * Input object types by name: where a schema's property name had to be changed
 * to be a GraphQL name, the definition keeps the original as `key`.
 */
export type InputTypes = ReadonlyMap<string, NamedTypeDefinition>;

/** The input types of a registry's definitions. */
export function inputTypesOf(definitions: readonly NamedTypeDefinition[]): InputTypes {
  return new Map(definitions.filter((d) => d.kind === "input").map((d) => [d.name, d]));
}

/** The resolver of a query or mutation field. */
export function leafResolver(
  field: GraphQLLeafField,
  opts: ResolveOptions,
  inputs: InputTypes,
): Resolver {
  const run = handlerCall(field, opts, inputs);
  return async (_parent, args, context) => {
    const result = await run(args, context);
    return field.voidResult ? true : result;
  };
}

/** The `subscribe` of a subscription field: the handler's async iterable, errors mapped. */
export function subscriptionResolver(
  field: GraphQLLeafField,
  opts: ResolveOptions,
  inputs: InputTypes,
): Resolver {
  const run = handlerCall(field, opts, inputs);
  const toClient = clientError(opts);
  return async (_parent, args, context) => {
    const source = await run(args, context);
    if (!isAsyncIterable(source)) {
      throw toClient(
        new TypeError(`${field.name}: a streaming handler must return an async iterable`),
      );
    }
    return mapped(source, toClient);
  };
}

/** Calls the leaf through its call path; its errors reach clients mapped or masked. */
function handlerCall(field: GraphQLLeafField, opts: ResolveOptions, inputs: InputTypes) {
  const toClient = clientError(opts);
  const call = createCall(field.node, { captures: field.captures });
  return async (args: Record<string, unknown>, context: unknown): Promise<unknown> => {
    try {
      return await call(inputOf(field, args, inputs), handlerContext(context));
    } catch (error) {
      throw toClient(error);
    }
  };
}

/** Re-yields a stream, mapping its error; returning early closes the source (its `finally` runs). */
async function* mapped(
  source: AsyncIterable<unknown>,
  toClient: (error: unknown) => GraphQLError,
): AsyncGenerator<unknown> {
  try {
    for await (const value of source) yield value;
  } catch (error) {
    throw toClient(error);
  }
}

function clientError(opts: ResolveOptions): (error: unknown) => GraphQLError {
  const map = opts.errors ?? httpErrorsOnly;
  const observe = opts.onError ??
    ((error: unknown) => console.error("ramify: resolver crashed:", error));
  return (error) => {
    if (error instanceof InputError) {
      return new GraphQLError("The arguments do not match the operation's schema", {
        extensions: { code: "BAD_USER_INPUT", issues: error.issues },
      });
    }
    // A handler giving up because its signal aborted (a timeout, a client gone) did not crash.
    if (isCancellation(error)) {
      return new GraphQLError("The operation was cancelled", { extensions: { code: "CANCELLED" } });
    }
    // A result that breaks its output schema is the server's fault: never mapped, never shown.
    const mappedError = error instanceof OutputError ? undefined : map(error);
    if (mappedError !== undefined) return mappedError;
    try {
      observe(error);
    } catch {
      // An observer that throws must not change what the client sees.
    }
    return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  };
}

/** The one flat input: arguments (or the `input` JSON) plus captures. */
function inputOf(
  field: GraphQLLeafField,
  args: Record<string, unknown>,
  inputs: InputTypes,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (field.jsonInput) {
    const json = isObject(args.input) ? args.input : {};
    for (const key of Object.keys(json)) setOwn(input, key, plain(json[key]));
  } else {
    for (const arg of field.args) {
      if (!Object.hasOwn(args, arg.name) || field.captures.includes(arg.name)) continue;
      setOwn(input, arg.key ?? arg.name, withKeys(args[arg.name], arg, inputs));
    }
  }
  for (const capture of field.captures) setOwn(input, capture, args[capture]);
  return input;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
  return isObject(context) ? context as HandlerContext : {};
}
