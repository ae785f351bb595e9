// Field resolvers over the tree's handlers: one flat input (arguments plus
// captures) validated by `meta.input`, the handler's errors mapped or masked.
// Shared by `createResolver` (a resolver map for any executor) and `toSchema`.

import { GraphQLError } from "graphql";
import type { HandlerContext } from "../tree/node.ts";
import { validateInput } from "../tree/schema.ts";
import { isPlainObject, setOwn } from "../tree/_object.ts";
import type { GraphQLLeafField } from "./projection.ts";
import { type ErrorMapper, graphqlErrors } from "./errors.ts";

/** How resolvers treat errors. */
export interface ResolveOptions {
  /** Maps handler errors to GraphQL errors; unmapped ones are masked. Default: `HttpError`s only. */
  readonly errors?: ErrorMapper;
  /** Observes an error that was masked. Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

type Resolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: unknown,
) => Promise<unknown>;

const httpErrorsOnly = graphqlErrors({});

/** The resolver of a query or mutation field. */
export function leafResolver(field: GraphQLLeafField, opts: ResolveOptions): Resolver {
  const toClient = clientError(opts);
  const handler = field.node.handler as (input: unknown, context: HandlerContext) => unknown;
  return async (_parent, args, context) => {
    try {
      const input = await inputOf(field, args);
      const result = await handler(input, handlerContext(context));
      return field.voidResult ? true : result;
    } catch (error) {
      throw toClient(error);
    }
  };
}

/** The `subscribe` of a subscription field: the handler's async iterable, errors mapped. */
export function subscriptionResolver(field: GraphQLLeafField, opts: ResolveOptions): Resolver {
  const toClient = clientError(opts);
  const handler = field.node.handler as (input: unknown, context: HandlerContext) => unknown;
  return async (_parent, args, context) => {
    let source: unknown;
    try {
      source = await handler(await inputOf(field, args), handlerContext(context));
    } catch (error) {
      throw toClient(error);
    }
    if (typeof source !== "object" || source === null || !(Symbol.asyncIterator in source)) {
      throw toClient(
        new TypeError(`${field.name}: a streaming handler must return an async iterable`),
      );
    }
    return mapped(source as AsyncIterable<unknown>, toClient);
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
    if (error instanceof GraphQLError && error.extensions.code === "BAD_USER_INPUT") return error;
    const mappedError = map(error);
    if (mappedError !== undefined) return mappedError;
    try {
      observe(error);
    } catch {
      // An observer that throws must not change what the client sees.
    }
    return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  };
}

/** The one flat input: arguments (or the `input` JSON) plus captures, then validated. */
async function inputOf(field: GraphQLLeafField, args: Record<string, unknown>): Promise<unknown> {
  const input: Record<string, unknown> = {};
  const source = field.jsonInput ? (isObject(args.input) ? args.input : {}) : args;
  for (const key of Object.keys(source)) setOwn(input, key, plain(source[key]));
  for (const capture of field.captures) setOwn(input, capture, args[capture]);
  const schema = field.node.meta?.input;
  if (schema === undefined) return input;
  const result = await validateInput(schema, input);
  if (!result.ok) {
    throw new GraphQLError("The arguments do not match the operation's schema", {
      extensions: { code: "BAD_USER_INPUT", issues: result.issues },
    });
  }
  const value = result.value;
  if (isPlainObject(value)) {
    for (const capture of field.captures) {
      if (!Object.hasOwn(value, capture)) setOwn(value, capture, args[capture]);
    }
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** graphql-js gives input objects without a prototype; handlers get ordinary objects. */
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
