/**
 * The custom scalars of the GraphQL projection: `JSON` for any JSON value,
 * `DateTime` for RFC 3339 date-time strings and `File` for uploaded files.
 *
 * @example
 * ```ts
 * import { scalarImplementations } from "@ramify/api/graphql";
 *
 * const { JSON: json } = scalarImplementations();
 * console.log(json.serialize({ a: 1 })); // { a: 1 }
 * ```
 *
 * @module
 */

import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from "graphql";
import { isDateTime } from "../../tree/dates.ts";
import { DATE_TIME_SCALAR, FILE_SCALAR, JSON_SCALAR, SCALAR_DEFINITIONS } from "./_definitions.ts";

/**
 * The implementations of the `JSON`, `DateTime` and `File` scalars, by name. `JSON`
 * passes any JSON value through and reads literals of every kind (objects,
 * lists, strings, numbers, booleans, null, variables inside). `DateTime` is an
 * RFC 3339 date-time string: output accepts a `Date` (as its ISO string) or a
 * valid string; input must be a valid string and stays that string. `File`
 * is input only: a variable holding a `File` (or `Blob`), which a multipart
 * request (the GraphQL multipart request spec) puts there.
 *
 * @example
 * ```ts
 * import { scalarImplementations } from "@ramify/api/graphql";
 *
 * const { DateTime } = scalarImplementations();
 * console.log(DateTime.serialize(new Date(0))); // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function scalarImplementations(): Record<string, GraphQLScalarType> {
  scalars ??= {
    [JSON_SCALAR]: jsonScalar(),
    [DATE_TIME_SCALAR]: dateTimeScalar(),
    [FILE_SCALAR]: fileScalar(),
  };
  return { ...scalars };
}

let scalars: Record<string, GraphQLScalarType> | undefined;

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof Date) return `Date(${value.getTime()})`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function jsonLiteral(node: ValueNode, variables?: Readonly<Record<string, unknown>> | null) {
  const read = (value: ValueNode): unknown => {
    switch (value.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return value.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(value.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return value.values.map((item) => read(item) ?? null);
      case Kind.OBJECT: {
        const object: Record<string, unknown> = {};
        for (const field of value.fields) {
          const item = read(field.value);
          if (item === undefined) continue;
          // defineProperty: a "__proto__" key stays data, never a prototype.
          Object.defineProperty(object, field.name.value, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return object;
      }
      case Kind.VARIABLE:
        return variables?.[value.name.value];
      default:
        throw new GraphQLError(
          `JSON cannot represent the literal ${print(value)}: write strings in quotes`,
          { nodes: value },
        );
    }
  };
  return read(node);
}

function jsonScalar(): GraphQLScalarType {
  const identity = (value: unknown) => value;
  // graphql 17 gives coerceInputLiteral a literal with its variables replaced: none to read.
  return specifiedScalar(JSON_SCALAR, { output: identity, input: identity, literal: jsonLiteral });
}

function dateTimeScalar(): GraphQLScalarType {
  const invalid = (value: unknown) =>
    new GraphQLError(`DateTime cannot represent ${show(value)}: expected an RFC 3339 date-time`);
  const output = (value: unknown): string => {
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw invalid(value);
      return value.toISOString();
    }
    if (typeof value === "string" && isDateTime(value)) return value;
    throw invalid(value);
  };
  const input = (value: unknown): string => {
    if (typeof value === "string" && isDateTime(value)) return value;
    throw invalid(value);
  };
  const literal = (node: ValueNode): string => {
    if (node.kind === Kind.STRING && isDateTime(node.value)) return node.value;
    throw new GraphQLError(
      `DateTime cannot represent the literal ${print(node)}: expected an RFC 3339 date-time string`,
      { nodes: node },
    );
  };
  return specifiedScalar(DATE_TIME_SCALAR, { output, input, literal });
}

function fileScalar(): GraphQLScalarType {
  const input = (value: unknown): Blob => {
    if (value instanceof Blob) return value;
    throw new GraphQLError(
      `File cannot represent ${show(value)}: send the file as a part of a multipart request`,
    );
  };
  const literal = (node: ValueNode): never => {
    throw new GraphQLError(
      `File cannot be written in the document (${
        print(node)
      }): pass it as a variable sent as a part of a multipart request`,
      { nodes: node },
    );
  };
  const output = (): never => {
    throw new GraphQLError("File is an input type: a result cannot hold a file");
  };
  return specifiedScalar(FILE_SCALAR, { output, input, literal });
}

/** A scalar coercing the same way under graphql 16's and 17's names; its specification, if any. */
function specifiedScalar(
  name: string,
  coerce: {
    output: (value: unknown) => unknown;
    input: (value: unknown) => unknown;
    literal: (node: ValueNode, variables?: Readonly<Record<string, unknown>> | null) => unknown;
  },
): GraphQLScalarType {
  const definition = SCALAR_DEFINITIONS[name] as { description: string; specifiedByURL?: string };
  return new GraphQLScalarType({
    name,
    description: definition.description,
    specifiedByURL: definition.specifiedByURL,
    serialize: coerce.output,
    parseValue: coerce.input,
    parseLiteral: coerce.literal,
    coerceOutputValue: coerce.output,
    coerceInputValue: coerce.input,
    coerceInputLiteral: coerce.literal,
  });
}
