/**
 * The type IR's GraphQL conversion: JSON Schema (draft 2020-12) to GraphQL
 * types, as pure functions over plain data. {@linkcode toGraphQLType} turns one
 * schema into a type reference (`"Book!"`, `"[String!]"`, `"JSON"`) and collects
 * the named types it needs in a {@linkcode GraphQLTypeRegistry};
 * {@linkcode argumentsOf} turns an input object schema into field arguments;
 * {@linkcode toGraphQL} prints a registry as SDL.
 *
 * The mapping:
 *
 * - `type: "object"` with properties: an object type (output) or an input
 *   object type (input). Its name is the `title` (PascalCase), else the `$defs`
 *   key it was reached by, else the name hint. Input object type names always
 *   end in `Input`, so that the input and output forms of one title never
 *   collide, whatever the order of conversion. Field names that are no GraphQL
 *   name become the camelCase of their letter-and-digit runs (`_`-prefixed when
 *   that still is no name; numbered on a clash) and keep the JSON key in `key`.
 *   A property is non-null when it is `required` and does not allow null.
 *   Objects without properties (records, `{}`) are `JSON`.
 * - A `string` enum whose values are all GraphQL names: an enum type (named by
 *   title or hint); other string enums and string `const`s are `String`.
 * - `array`: a list, its items non-null unless they allow null; tuples
 *   (`prefixItems`) are `JSON`.
 * - `integer`: `Int`, or `Float` when `minimum`/`maximum` go beyond 32 bits
 *   (the safe-integer range zod declares on every `z.number().int()` counts as
 *   no bound, so that is an `Int`: GraphQL's `Int` is 32 bits, and larger
 *   values fail to serialize); `number`: `Float`; `boolean`: `Boolean`;
 *   `string`: `String`, or `DateTime` with `format: "date-time"`.
 * - Null is allowed by `type: [X, "null"]`, a `{ type: "null" }` member of
 *   `anyOf`/`oneOf`, `nullable: true`, a `null` in `enum` or `const: null`; such
 *   a type has no `!`.
 * - In the output direction, `anyOf`/`oneOf` of two or more object schemas is a
 *   union, whose members are named by title or `${union}${n}`;
 *   {@linkcode GraphQLTypeRegistry.resolveUnion} tells them apart. Variants that
 *   are all one scalar are that scalar (`Int` with `Float` is `Float`); all
 *   other variants, and every union in the input direction, are `JSON`.
 * - `$ref` resolves (JSON pointer) within the root schema being converted,
 *   recursion included: a recursive type refers to itself by name. Unknown or
 *   remote references are `JSON`.
 * - Anything else (`{}`, `true`, mixed types, `not`, ...) is `JSON`.
 * - Structurally identical schemas share one named type (within and across
 *   conversions of one registry); a different type that wants a name already
 *   taken gets `Name2`, `Name3`, ... The built-in scalars, `JSON`, `DateTime`,
 *   `Query`, `Mutation` and `Subscription` are never given to a schema's type.
 * - An input object type that would reach itself through non-null fields alone
 *   (which GraphQL forbids) has the closing field made nullable.
 * - `description` becomes the description of the type, field or argument.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, toGraphQL, toGraphQLType } from "@ramify/api/graphql";
 *
 * const registry = new GraphQLTypeRegistry();
 * const type = toGraphQLType({
 *   type: "object",
 *   title: "Book",
 *   properties: { id: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
 *   required: ["id"],
 * }, { direction: "output", name: "BooksReadResult", registry });
 * console.log(type); // "Book!"
 * console.log(toGraphQL(registry));
 * // type Book {
 * //   id: String!
 * //   tags: [String!]
 * // }
 * ```
 *
 * @module
 */

import {
  type ConstValueNode,
  type DefinitionNode,
  type FieldDefinitionNode,
  GraphQLError,
  GraphQLScalarType,
  type InputValueDefinitionNode,
  Kind,
  type NameNode,
  parseType,
  parseValue,
  print,
  type StringValueNode,
  type ValueNode,
} from "graphql";
import type { JsonSchema } from "../../tree/schema.ts";
import { fieldName, freeName, isEnumValueName, isGraphQLName, typeName } from "./_names.ts";

/**
 * The name of the scalar for any JSON value.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, JSON_SCALAR, toGraphQLType } from "@ramify/api/graphql";
 *
 * const type = toGraphQLType(undefined, {
 *   direction: "output",
 *   name: "Anything",
 *   registry: new GraphQLTypeRegistry(),
 * });
 * console.log(type === JSON_SCALAR); // true
 * ```
 */
export const JSON_SCALAR = "JSON";

/**
 * The name of the scalar for RFC 3339 date-time strings (`format: "date-time"`).
 *
 * @example
 * ```ts
 * import { DATE_TIME_SCALAR, GraphQLTypeRegistry, toGraphQLType } from "@ramify/api/graphql";
 *
 * const type = toGraphQLType({ type: "string", format: "date-time" }, {
 *   direction: "input",
 *   name: "Since",
 *   registry: new GraphQLTypeRegistry(),
 * });
 * console.log(type === `${DATE_TIME_SCALAR}!`); // true
 * ```
 */
export const DATE_TIME_SCALAR = "DateTime";

/**
 * A named GraphQL type as plain data.
 *
 * @example
 * ```ts
 * import type { NamedTypeDefinition } from "@ramify/api/graphql";
 *
 * const status: NamedTypeDefinition = { kind: "enum", name: "Status", values: ["OPEN", "CLOSED"] };
 * ```
 */
export type NamedTypeDefinition =
  | {
    kind: "scalar";
    name: string;
    description?: string;
    /** The URL of the scalar's specification, printed as `@specifiedBy(url:)`. */
    specifiedByURL?: string;
  }
  | { kind: "enum"; name: string; values: readonly string[]; description?: string }
  | {
    kind: "object" | "input";
    name: string;
    fields: readonly FieldDefinition[];
    description?: string;
  }
  | { kind: "union"; name: string; members: readonly string[]; description?: string };

/**
 * A field of an object or input object type.
 *
 * @example
 * ```ts
 * import type { FieldDefinition } from "@ramify/api/graphql";
 *
 * const field: FieldDefinition = { name: "firstName", type: "String!", key: "first-name" };
 * ```
 */
export interface FieldDefinition {
  /** The GraphQL field name. */
  name: string;
  /** A type reference, like `"[Book!]!"`. */
  type: string;
  /** The field's description. */
  description?: string;
  /** The arguments (object fields only). */
  args?: readonly ArgumentDefinition[];
  /** The JSON property the field stands for, when it differs from `name`. */
  key?: string;
  /**
   * The property may be left out but never holds null: a GraphQL `null` here
   * stands for "absent" (clients drop it to give back the schema's shape).
   */
  optional?: boolean;
}

/**
 * An argument of an object type's field.
 *
 * @example
 * ```ts
 * import type { ArgumentDefinition } from "@ramify/api/graphql";
 *
 * const arg: ArgumentDefinition = { name: "id", type: "ID!", description: "The book" };
 * ```
 */
export interface ArgumentDefinition {
  /** The GraphQL argument name. */
  name: string;
  /** A type reference, like `"String!"`. */
  type: string;
  /** The argument's description. */
  description?: string;
  /** The JSON property the argument fills, when it differs from `name`. */
  key?: string;
}

interface UnionMember {
  readonly name: string;
  readonly required: readonly string[];
  readonly consts: readonly (readonly [string, unknown])[];
}

interface RegistryState {
  readonly definitions: NamedTypeDefinition[];
  readonly byName: Map<string, NamedTypeDefinition>;
  /** Structural key of a converted schema to the name of its type. */
  readonly byKey: Map<string, string>;
  readonly unions: Map<string, readonly UnionMember[]>;
}

const STATES = new WeakMap<GraphQLTypeRegistry, RegistryState>();

function stateOf(registry: GraphQLTypeRegistry): RegistryState {
  const state = STATES.get(registry);
  if (state === undefined) throw new TypeError("Not a GraphQLTypeRegistry");
  return state;
}

const BUILT_IN_SCALARS = new Set(["String", "Int", "Float", "Boolean", "ID"]);
/** Names a schema's type never gets. */
const RESERVED = new Set([
  ...BUILT_IN_SCALARS,
  JSON_SCALAR,
  DATE_TIME_SCALAR,
  "Query",
  "Mutation",
  "Subscription",
]);

/**
 * The named types of one schema build, collected while converting schemas, in
 * first-use order. Conversion results are shared through it: structurally
 * identical schemas get one type, and different types get different names.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, toGraphQLType } from "@ramify/api/graphql";
 *
 * const registry = new GraphQLTypeRegistry();
 * const point = { type: "object", properties: { x: { type: "number" } } };
 * toGraphQLType(point, { direction: "output", name: "Point", registry });
 * toGraphQLType(point, { direction: "output", name: "Other", registry });
 * console.log(registry.definitions.map((d) => d.name)); // ["Point"]
 * ```
 */
export class GraphQLTypeRegistry {
  /** An empty registry. */
  constructor() {
    STATES.set(this, {
      definitions: [],
      byName: new Map(),
      byKey: new Map(),
      unions: new Map(),
    });
  }

  /**
   * Named types collected so far, in first-use order.
   *
   * @example
   * ```ts
   * import { GraphQLTypeRegistry } from "@ramify/api/graphql";
   *
   * console.log(new GraphQLTypeRegistry().definitions); // []
   * ```
   */
  get definitions(): readonly NamedTypeDefinition[] {
    return [...stateOf(this).definitions];
  }

  /**
   * Adds a definition made elsewhere (like a namespace object type). Adding an
   * equal definition again does nothing.
   *
   * @example
   * ```ts
   * import { GraphQLTypeRegistry } from "@ramify/api/graphql";
   *
   * const registry = new GraphQLTypeRegistry();
   * registry.define({ kind: "object", name: "BooksQuery", fields: [{ name: "count", type: "Int!" }] });
   * console.log(registry.definitions.length); // 1
   * ```
   *
   * @throws {Error} when a different type has that name, or a name or type
   * reference in the definition is not valid GraphQL.
   */
  define(definition: NamedTypeDefinition): void {
    const state = stateOf(this);
    const copy = copyDefinition(definition);
    const existing = state.byName.get(copy.name);
    if (existing !== undefined) {
      if (canonical(existing) === canonical(copy)) return;
      throw new Error(
        `GraphQLTypeRegistry.define: a different type named "${copy.name}" is already defined`,
      );
    }
    if (BUILT_IN_SCALARS.has(copy.name)) {
      throw new Error(`GraphQLTypeRegistry.define: "${copy.name}" is a built-in scalar`);
    }
    if ((copy.name === JSON_SCALAR || copy.name === DATE_TIME_SCALAR) && copy.kind !== "scalar") {
      throw new Error(`GraphQLTypeRegistry.define: "${copy.name}" is reserved for a scalar`);
    }
    register(state, freezeDefinition(copy));
  }

  /**
   * Which member of a union a value is: its `__typename` when that names a
   * member, else the first member whose required keys are all present and
   * whose `const` (or single-value `enum`) properties match. `undefined` when
   * none fits or the union was not made by a conversion.
   *
   * @example
   * ```ts
   * import { GraphQLTypeRegistry, toGraphQLType } from "@ramify/api/graphql";
   *
   * const registry = new GraphQLTypeRegistry();
   * const shape = (kind: string) => ({
   *   type: "object",
   *   title: kind,
   *   properties: { kind: { const: kind }, size: { type: "number" } },
   *   required: ["kind"],
   * });
   * const type = toGraphQLType({ anyOf: [shape("Circle"), shape("Square")] }, {
   *   direction: "output",
   *   name: "Shape",
   *   registry,
   * });
   * console.log(type); // "Shape!"
   * console.log(registry.resolveUnion("Shape", { kind: "Square", size: 2 })); // "Square"
   * ```
   */
  resolveUnion(union: string, value: unknown): string | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const state = stateOf(this);
    const record = value as Record<string, unknown>;
    const typename = record.__typename;
    const definition = state.byName.get(union);
    if (
      typeof typename === "string" && definition?.kind === "union" &&
      definition.members.includes(typename)
    ) {
      return typename;
    }
    for (const member of state.unions.get(union) ?? []) {
      if (
        member.required.every((key) => record[key] !== undefined) &&
        member.consts.every(([key, expected]) => sameJson(record[key], expected))
      ) {
        return member.name;
      }
    }
    return undefined;
  }
}

/**
 * The GraphQL type reference of a JSON Schema, registering the named types it
 * needs. Without a schema (or for one GraphQL cannot express) it is `JSON`.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, toGraphQLType } from "@ramify/api/graphql";
 * import { toJsonSchema } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const registry = new GraphQLTypeRegistry();
 * const Book = z.object({ title: z.string(), year: z.int32().optional() }).meta({ title: "Book" });
 * const schema = toJsonSchema(z.array(Book), "output");
 * console.log(toGraphQLType(schema, { direction: "output", name: "BooksList", registry }));
 * // "[Book!]!"
 * console.log(toGraphQLType(toJsonSchema(Book, "input"), {
 *   direction: "input",
 *   name: "BooksAddInput",
 *   registry,
 *   required: false,
 * })); // "BookInput"
 * ```
 */
export function toGraphQLType(schema: JsonSchema | undefined, options: {
  /** `output` for results (object types, unions), `input` for arguments (input types). */
  direction: "input" | "output";
  /** A PascalCase name for a type that has no title, like `"BooksAddInput"`. */
  name: string;
  /** The registry of the schema build. */
  registry: GraphQLTypeRegistry;
  /** Whether the reference is non-null unless the schema allows null. Default `true`. */
  required?: boolean;
}): string {
  const state = stateOf(options.registry);
  const hint = typeName(options.name) || "Type";
  const use = interpret(schema, newInterpretation(schema, options.direction, hint), hint);
  const named = emit(use.shape, newEmission(state, options.direction));
  return use.nullable || options.required === false ? named : `${named}!`;
}

/**
 * The properties of an input object schema as field arguments, in property
 * order; required ones (that do not allow null) are non-null. Types they need
 * are registered in the input direction, named after `name` (`BooksAddInput`
 * gives `BooksAddAuthorInput` for an `author` object). `[]` without a schema
 * or for a schema that is not an object with properties.
 *
 * @example
 * ```ts
 * import { argumentsOf, GraphQLTypeRegistry } from "@ramify/api/graphql";
 *
 * const args = argumentsOf({
 *   type: "object",
 *   properties: { title: { type: "string" }, "page-count": { type: "integer" } },
 *   required: ["title"],
 * }, { name: "BooksAddInput", registry: new GraphQLTypeRegistry() });
 * console.log(args);
 * // [{ name: "title", type: "String!" }, { name: "pageCount", type: "Int", key: "page-count" }]
 * ```
 */
export function argumentsOf(schema: JsonSchema | undefined, options: {
  /** A PascalCase name the argument types are named after, like `"BooksAddInput"`. */
  name: string;
  /** The registry of the schema build. */
  registry: GraphQLTypeRegistry;
}): ArgumentDefinition[] {
  if (schema === undefined) return [];
  const state = stateOf(options.registry);
  const hint = typeName(options.name) || "Type";
  const use = interpret(schema, newInterpretation(schema, "input", hint), hint);
  if (use.shape.kind !== "object") return [];
  const emission = newEmission(state, "input");
  return use.shape.fields.map((field) => {
    const named = emit(field.type.shape, emission);
    return {
      name: field.name,
      type: field.type.nullable || use.nullable ? named : `${named}!`,
      ...(field.description === undefined ? {} : { description: field.description }),
      ...(field.key === field.name ? {} : { key: field.key }),
    };
  });
}

/**
 * The SDL of every named type in a registry, in first-use order, with
 * descriptions as block strings. The same registry gives the same text.
 *
 * @example
 * ```ts
 * import { GraphQLTypeRegistry, toGraphQL } from "@ramify/api/graphql";
 *
 * const registry = new GraphQLTypeRegistry();
 * registry.define({ kind: "enum", name: "Status", values: ["OPEN", "CLOSED"], description: "State" });
 * console.log(toGraphQL(registry));
 * // """State"""
 * // enum Status {
 * //   OPEN
 * //   CLOSED
 * // }
 * ```
 */
export function toGraphQL(registry: GraphQLTypeRegistry): string {
  const definitions = stateOf(registry).definitions.map(definitionNode);
  if (definitions.length === 0) return "";
  return print({ kind: Kind.DOCUMENT, definitions });
}

/**
 * The implementations of the `JSON` and `DateTime` scalars, by name. `JSON`
 * passes any JSON value through and reads literals of every kind (objects,
 * lists, strings, numbers, booleans, null, variables inside). `DateTime` is an
 * RFC 3339 date-time string: output accepts a `Date` (as its ISO string) or a
 * valid string; input must be a valid string and stays that string.
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
  scalars ??= { [JSON_SCALAR]: jsonScalar(), [DATE_TIME_SCALAR]: dateTimeScalar() };
  return { ...scalars };
}

// ---------------------------------------------------------------------------
// Phase one: a schema to a shape (what GraphQL type it is), no names yet.

/** A use of a type: the type and whether this position allows null. */
interface Use {
  readonly shape: Shape;
  readonly nullable: boolean;
}

type Shape = ScalarShape | ListShape | ObjectShape | EnumShape | UnionShape;

interface ScalarShape {
  readonly kind: "scalar";
  readonly name: string;
}

interface ListShape {
  readonly kind: "list";
  readonly item: Use;
}

interface ObjectShape {
  readonly kind: "object";
  /** The sanitised title, if any. */
  readonly title: string | undefined;
  readonly hint: string;
  readonly description: string | undefined;
  readonly fields: FieldShape[];
  readonly required: readonly string[];
  readonly consts: readonly (readonly [string, unknown])[];
}

interface FieldShape {
  readonly key: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly type: Use;
  /** Not required, and its schema does not allow null. */
  readonly optional: boolean;
}

interface EnumShape {
  readonly kind: "enum";
  readonly title: string | undefined;
  readonly hint: string;
  readonly description: string | undefined;
  readonly values: readonly string[];
}

interface UnionShape {
  readonly kind: "union";
  readonly title: string | undefined;
  readonly hint: string;
  readonly description: string | undefined;
  readonly members: readonly ObjectShape[];
}

const SCALARS = new Map<string, ScalarShape>(
  ["String", "Int", "Float", "Boolean", JSON_SCALAR, DATE_TIME_SCALAR].map((name) => [
    name,
    { kind: "scalar", name },
  ]),
);

function scalar(name: string, nullable: boolean): Use {
  return { shape: SCALARS.get(name)!, nullable };
}

const ANY: Use = scalar(JSON_SCALAR, true);

interface Interpretation {
  readonly root: unknown;
  readonly rootHint: string;
  readonly direction: "input" | "output";
  /** Object schemas met in this conversion, to their use (recursion and reuse). */
  readonly objects: Map<object, Use>;
  /** Schemas entered since the last object: a loop among them never ends. */
  active: Set<object>;
}

function newInterpretation(
  root: unknown,
  direction: "input" | "output",
  rootHint: string,
): Interpretation {
  return { root, rootHint, direction, objects: new Map(), active: new Set() };
}

type Schema = Readonly<Record<string, unknown>>;

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function titleOf(schema: Schema): string | undefined {
  const title = text(schema.title);
  return title === undefined ? undefined : typeName(title) || undefined;
}

function interpret(schema: unknown, ctx: Interpretation, hint: string): Use {
  if (!isSchemaObject(schema)) return ANY;
  const known = ctx.objects.get(schema);
  if (known !== undefined) return known;
  if (ctx.active.has(schema)) return ANY;
  ctx.active.add(schema);
  try {
    return interpretSchema(schema, ctx, hint);
  } finally {
    ctx.active.delete(schema);
  }
}

function orNull(use: Use, nullable: boolean): Use {
  return nullable && !use.nullable ? { shape: use.shape, nullable: true } : use;
}

function interpretSchema(schema: Schema, ctx: Interpretation, hint: string): Use {
  const flaggedNull = schema.nullable === true;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, ctx);
    if (target === undefined) return ANY;
    return orNull(interpret(target.schema, ctx, target.hint ?? hint), flaggedNull);
  }
  const types = typeof schema.type === "string"
    ? [schema.type]
    : Array.isArray(schema.type)
    ? schema.type.filter((type): type is string => typeof type === "string")
    : undefined;
  const nullable = flaggedNull || (types?.includes("null") ?? false);
  if ("const" in schema) return orNull(constUse(schema.const), nullable);
  if (Array.isArray(schema.enum)) return orNull(enumUse(schema, schema.enum, hint), nullable);
  const variants = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
    ? schema.oneOf
    : undefined;
  if (variants !== undefined) return orNull(variantsUse(schema, variants, ctx, hint), nullable);
  if (types === undefined) {
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
      return orNull(interpret(schema.allOf[0], ctx, hint), nullable);
    }
    if (isSchemaObject(schema.properties)) return objectUse(schema, ctx, hint, nullable);
    if ("items" in schema || "prefixItems" in schema) return arrayUse(schema, ctx, hint, nullable);
    return ANY;
  }
  const concrete = types.filter((type) => type !== "null");
  if (concrete.length === 0) return ANY;
  if (concrete.length > 1) {
    const numeric = concrete.every((type) => type === "integer" || type === "number");
    return scalar(numeric ? "Float" : JSON_SCALAR, nullable);
  }
  switch (concrete[0]) {
    case "string":
      return scalar(schema.format === "date-time" ? DATE_TIME_SCALAR : "String", nullable);
    case "integer":
      return scalar(integerFits(schema) ? "Int" : "Float", nullable);
    case "number":
      return scalar("Float", nullable);
    case "boolean":
      return scalar("Boolean", nullable);
    case "array":
      return arrayUse(schema, ctx, hint, nullable);
    case "object":
      return objectUse(schema, ctx, hint, nullable);
    default:
      return scalar(JSON_SCALAR, nullable);
  }
}

const MIN_INT = -2147483648;
const MAX_INT = 2147483647;

/**
 * Whether an integer schema's bounds keep it within 32 bits (no bounds: yes).
 * The safe-integer range counts as no bound: zod declares it on every
 * `z.number().int()`, and users of such a schema mean GraphQL's `Int`.
 */
function integerFits(schema: Schema): boolean {
  const lows: number[] = [];
  const highs: number[] = [];
  const bound = (value: unknown) =>
    typeof value === "number" && Math.abs(value) !== Number.MAX_SAFE_INTEGER;
  if (bound(schema.minimum)) lows.push(schema.minimum as number);
  if (typeof schema.exclusiveMinimum === "number") {
    lows.push(Math.floor(schema.exclusiveMinimum) + 1);
  }
  if (bound(schema.maximum)) highs.push(schema.maximum as number);
  if (typeof schema.exclusiveMaximum === "number") {
    highs.push(Math.ceil(schema.exclusiveMaximum) - 1);
  }
  const low = lows.length === 0 ? MIN_INT : Math.max(...lows);
  const high = highs.length === 0 ? MAX_INT : Math.min(...highs);
  return low >= MIN_INT && high <= MAX_INT;
}

function numberName(values: readonly number[]): string {
  return values.every((value) => Number.isInteger(value) && value >= MIN_INT && value <= MAX_INT)
    ? "Int"
    : "Float";
}

function constUse(value: unknown): Use {
  if (value === null) return ANY;
  if (typeof value === "string") return scalar("String", false);
  if (typeof value === "number") return scalar(numberName([value]), false);
  if (typeof value === "boolean") return scalar("Boolean", false);
  return scalar(JSON_SCALAR, false);
}

function enumUse(schema: Schema, values: readonly unknown[], hint: string): Use {
  const nullable = values.includes(null);
  const rest = values.filter((value) => value !== null);
  if (rest.length === 0) return ANY;
  if (rest.every((value): value is string => typeof value === "string")) {
    const unique = [...new Set(rest)];
    if (!unique.every(isEnumValueName)) return scalar("String", nullable);
    const shape: EnumShape = {
      kind: "enum",
      title: titleOf(schema),
      hint,
      description: text(schema.description),
      values: unique,
    };
    return { shape, nullable };
  }
  if (rest.every((value): value is number => typeof value === "number")) {
    return scalar(numberName(rest), nullable);
  }
  if (rest.every((value) => typeof value === "boolean")) return scalar("Boolean", nullable);
  return scalar(JSON_SCALAR, nullable);
}

function isNullOnly(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  if (schema.type === "null" || schema.const === null) return true;
  if (Array.isArray(schema.type) && schema.type.length > 0) {
    return schema.type.every((type) => type === "null");
  }
  return Array.isArray(schema.enum) && schema.enum.length > 0 &&
    schema.enum.every((value) => value === null);
}

/** The scalar that every one of these shapes fits, if any. */
function commonScalar(shapes: readonly Shape[]): string | undefined {
  const names = new Set(
    shapes.map((shape) =>
      shape.kind === "enum" ? "String" : shape.kind === "scalar" ? shape.name : undefined
    ),
  );
  if (names.has(undefined) || names.has(JSON_SCALAR)) return undefined;
  if (names.size === 1) return [...names][0];
  if ([...names].every((name) => name === "Int" || name === "Float")) return "Float";
  if ([...names].every((name) => name === "String" || name === DATE_TIME_SCALAR)) return "String";
  return undefined;
}

function variantsUse(
  schema: Schema,
  variants: readonly unknown[],
  ctx: Interpretation,
  hint: string,
): Use {
  const rest = variants.filter((variant) => !isNullOnly(variant));
  const withNull = rest.length < variants.length;
  if (rest.length === 0) return ANY;
  if (rest.length === 1) return orNull(interpret(rest[0], ctx, hint), withNull);
  const title = titleOf(schema);
  const base = title ?? hint;
  const uses = rest.map((variant, index) => interpret(variant, ctx, `${base}${index + 1}`));
  const nullable = withNull || uses.some((use) => use.nullable);
  const shapes = uses.map((use) => use.shape);
  if (
    ctx.direction === "output" &&
    shapes.every((shape): shape is ObjectShape => shape.kind === "object")
  ) {
    const members = [...new Set(shapes)];
    if (members.length === 1) return { shape: members[0], nullable };
    const shape: UnionShape = {
      kind: "union",
      title,
      hint,
      description: text(schema.description),
      members,
    };
    return { shape, nullable };
  }
  return scalar(commonScalar(shapes) ?? JSON_SCALAR, nullable);
}

function arrayUse(schema: Schema, ctx: Interpretation, hint: string, nullable: boolean): Use {
  if (schema.prefixItems !== undefined) return scalar(JSON_SCALAR, nullable);
  const items = schema.items;
  const item = isSchemaObject(items) ? interpret(items, ctx, hint) : ANY;
  return { shape: { kind: "list", item }, nullable };
}

function objectUse(schema: Schema, ctx: Interpretation, hint: string, nullable: boolean): Use {
  const properties = isSchemaObject(schema.properties)
    ? Object.entries(schema.properties).filter(([, property]) => property !== false)
    : [];
  if (properties.length === 0) return scalar(JSON_SCALAR, nullable);
  const required = Array.isArray(schema.required)
    ? [...new Set(schema.required.filter((key): key is string => typeof key === "string"))]
    : [];
  const consts: (readonly [string, unknown])[] = [];
  for (const [key, property] of properties) {
    const target = deref(property, ctx);
    if (!isSchemaObject(target)) continue;
    if ("const" in target) consts.push([key, target.const]);
    else if (Array.isArray(target.enum) && target.enum.length === 1) {
      consts.push([key, target.enum[0]]);
    }
  }
  const title = titleOf(schema);
  const shape: ObjectShape = {
    kind: "object",
    title,
    hint,
    description: text(schema.description),
    fields: [],
    required,
    consts,
  };
  const use: Use = { shape, nullable };
  ctx.objects.set(schema, use);
  let base = title ?? hint;
  if (ctx.direction === "input" && base.endsWith("Input") && base !== "Input") {
    base = base.slice(0, -"Input".length);
  }
  const requiredKeys = new Set(required);
  const taken = new Set<string>();
  const outer = ctx.active;
  ctx.active = new Set();
  try {
    for (const [key, property] of properties) {
      const name = freeName(fieldName(key), (candidate) => taken.has(candidate));
      taken.add(name);
      const type = interpret(property, ctx, base + upperFirst(name.replace(/^_+/, "")));
      shape.fields.push({
        key,
        name,
        description: describeProperty(property),
        type: orNull(type, !requiredKeys.has(key)),
        optional: !requiredKeys.has(key) && !type.nullable,
      });
    }
  } finally {
    ctx.active = outer;
  }
  return use;
}

function upperFirst(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** A property's own description, or that of the one non-null variant it wraps. */
function describeProperty(property: unknown): string | undefined {
  if (!isSchemaObject(property)) return undefined;
  const own = text(property.description);
  if (own !== undefined) return own;
  const variants = Array.isArray(property.anyOf)
    ? property.anyOf
    : Array.isArray(property.oneOf)
    ? property.oneOf
    : [];
  const rest = variants.filter((variant) => !isNullOnly(variant));
  if (rest.length === 1 && isSchemaObject(rest[0]) && rest[0].$ref === undefined) {
    return text(rest[0].description);
  }
  return undefined;
}

/** A schema with `$ref`s and single-member `allOf`s followed. */
function deref(schema: unknown, ctx: Interpretation): unknown {
  let current = schema;
  for (let hops = 0; hops < 64 && isSchemaObject(current); hops++) {
    if (typeof current.$ref === "string") {
      current = resolveRef(current.$ref, ctx)?.schema;
    } else if (
      current.type === undefined && Array.isArray(current.allOf) && current.allOf.length === 1
    ) {
      current = current.allOf[0];
    } else {
      return current;
    }
  }
  return undefined;
}

/** A local reference's target and the type name its last segment suggests. */
function resolveRef(
  ref: string,
  ctx: Interpretation,
): { schema: unknown; hint: string | undefined } | undefined {
  if (ref === "#") return { schema: ctx.root, hint: ctx.rootHint };
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = ctx.root;
  let last = "";
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) {
      current = current[Number(segment)];
    } else if (isSchemaObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
    last = segment;
  }
  if (current === undefined) return undefined;
  // zod names extracted schemas `__schema0`: no name worth keeping.
  const hint = last.startsWith("__") || /^[0-9]+$/.test(last) ? undefined : typeName(last);
  return { schema: current, hint: hint || undefined };
}

// ---------------------------------------------------------------------------
// Phase two: shapes to named types in the registry.

interface Emission {
  readonly state: RegistryState;
  readonly direction: "input" | "output";
  /** Shapes named in this conversion. */
  readonly names: Map<Shape, string>;
  /** Input types whose fields are being emitted (a non-null path back to one is a cycle). */
  readonly building: Set<string>;
  readonly fingerprints: WeakMap<Shape, string>;
}

function newEmission(state: RegistryState, direction: "input" | "output"): Emission {
  return { state, direction, names: new Map(), building: new Set(), fingerprints: new WeakMap() };
}

const SCALAR_DEFINITIONS: Readonly<Record<string, NamedTypeDefinition>> = {
  [JSON_SCALAR]: {
    kind: "scalar",
    name: JSON_SCALAR,
    description: "Any JSON value: an object, a list, a string, a number, a boolean or null.",
  },
  [DATE_TIME_SCALAR]: {
    kind: "scalar",
    name: DATE_TIME_SCALAR,
    description: "A date and time as an RFC 3339 string, like 2024-05-01T12:30:00Z.",
    specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339",
  },
};

/** The type reference of a shape, without the outer `!`. */
function emit(shape: Shape, emission: Emission): string {
  switch (shape.kind) {
    case "scalar": {
      const definition = SCALAR_DEFINITIONS[shape.name];
      if (definition !== undefined && !emission.state.byName.has(shape.name)) {
        register(emission.state, freezeDefinition(copyDefinition(definition)));
      }
      return shape.name;
    }
    case "list": {
      const item = emit(shape.item.shape, emission);
      return `[${shape.item.nullable ? item : `${item}!`}]`;
    }
    case "object":
      return emitObject(shape, emission);
    case "enum":
      return emitEnum(shape, emission);
    case "union":
      return emitUnion(shape, emission);
  }
}

function allocate(state: RegistryState, base: string): string {
  return freeName(base, (name) => state.byName.has(name) || RESERVED.has(name));
}

function register(state: RegistryState, definition: NamedTypeDefinition): void {
  state.definitions.push(definition);
  state.byName.set(definition.name, definition);
}

function described(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

function emitObject(shape: ObjectShape, emission: Emission): string {
  const known = emission.names.get(shape);
  if (known !== undefined) return known;
  const kind = emission.direction === "input" ? "input" : "object";
  const key = `${kind}:${fingerprint(shape, emission.fingerprints)}`;
  const { state } = emission;
  const existing = state.byKey.get(key);
  if (existing !== undefined) {
    emission.names.set(shape, existing);
    return existing;
  }
  let base = shape.title ?? shape.hint;
  if (kind === "input" && !base.endsWith("Input")) base += "Input";
  const name = allocate(state, base);
  const fields: FieldDefinition[] = [];
  const definition: NamedTypeDefinition = { kind, name, fields, ...described(shape.description) };
  register(state, definition);
  state.byKey.set(key, name);
  emission.names.set(shape, name);
  emission.building.add(name);
  for (const field of shape.fields) {
    const type = emit(field.type.shape, emission);
    // A non-null field back to an input type being built closes a cycle.
    const nullable = field.type.nullable || (kind === "input" && emission.building.has(type));
    fields.push({
      name: field.name,
      type: nullable ? type : `${type}!`,
      ...described(field.description),
      ...(field.key === field.name ? {} : { key: field.key }),
      ...(field.optional ? { optional: true } : {}),
    });
  }
  emission.building.delete(name);
  freezeDefinition(definition);
  return name;
}

function emitEnum(shape: EnumShape, emission: Emission): string {
  const known = emission.names.get(shape);
  if (known !== undefined) return known;
  const { state } = emission;
  const key = `enum:${fingerprint(shape, emission.fingerprints)}`;
  let name = state.byKey.get(key);
  if (name === undefined) {
    name = allocate(state, shape.title ?? shape.hint);
    register(
      state,
      freezeDefinition({
        kind: "enum",
        name,
        values: [...shape.values],
        ...described(shape.description),
      }),
    );
    state.byKey.set(key, name);
  }
  emission.names.set(shape, name);
  return name;
}

function emitUnion(shape: UnionShape, emission: Emission): string {
  const known = emission.names.get(shape);
  if (known !== undefined) return known;
  const distinct = new Set(
    shape.members.map((member) => fingerprint(member, emission.fingerprints)),
  );
  if (distinct.size === 1) return emitObject(shape.members[0], emission);
  const { state } = emission;
  const key = `union:${fingerprint(shape, emission.fingerprints)}`;
  const existing = state.byKey.get(key);
  if (existing !== undefined) {
    emission.names.set(shape, existing);
    return existing;
  }
  const name = allocate(state, shape.title ?? shape.hint);
  const members: string[] = [];
  const definition: NamedTypeDefinition = {
    kind: "union",
    name,
    members,
    ...described(shape.description),
  };
  register(state, definition);
  state.byKey.set(key, name);
  emission.names.set(shape, name);
  const resolution: UnionMember[] = [];
  for (const member of shape.members) {
    const memberName = emitObject(member, emission);
    if (members.includes(memberName)) continue;
    members.push(memberName);
    resolution.push({ name: memberName, required: member.required, consts: member.consts });
  }
  state.unions.set(name, resolution);
  freezeDefinition(definition);
  return name;
}

/**
 * A string equal for shapes that give the same GraphQL type: titles,
 * descriptions, fields (keys, names, types, nullability), enum values, union
 * members. Recursion is written as the distance back to the enclosing object.
 */
function fingerprint(shape: Shape, memo: WeakMap<Shape, string>): string {
  return printShape(shape, [], memo).text;
}

function printShape(
  shape: Shape,
  stack: Shape[],
  memo: WeakMap<Shape, string>,
): { text: string; reach: number } {
  switch (shape.kind) {
    case "scalar":
      return { text: shape.name, reach: Infinity };
    case "list": {
      const item = printShape(shape.item.shape, stack, memo);
      return { text: `[${item.text}${shape.item.nullable ? "" : "!"}]`, reach: item.reach };
    }
    case "enum":
      return {
        text: `enum${
          JSON.stringify([shape.title ?? null, shape.description ?? null, shape.values])
        }`,
        reach: Infinity,
      };
  }
  const at = stack.indexOf(shape);
  if (at !== -1) return { text: `^${stack.length - 1 - at}`, reach: at };
  const cached = memo.get(shape);
  if (cached !== undefined) return { text: cached, reach: Infinity };
  const depth = stack.length;
  stack.push(shape);
  let reach = Infinity;
  const inner = (child: Shape) => {
    const printed = printShape(child, stack, memo);
    reach = Math.min(reach, printed.reach);
    return printed.text;
  };
  let text: string;
  if (shape.kind === "object") {
    const head = JSON.stringify([
      shape.title ?? null,
      shape.description ?? null,
      shape.required,
      shape.consts,
    ]);
    const fields = shape.fields.map((field) =>
      `${JSON.stringify([field.key, field.name, field.description ?? null])}:${
        inner(field.type.shape)
      }${field.type.nullable ? "" : "!"}`
    );
    text = `object${head}{${fields.join(",")}}`;
  } else {
    const head = JSON.stringify([shape.title ?? null, shape.description ?? null]);
    text = `union${head}(${shape.members.map(inner).join("|")})`;
  }
  stack.pop();
  // Back references only to itself or deeper: the same text in any context.
  if (reach >= depth) {
    memo.set(shape, text);
    reach = Infinity;
  }
  return { text, reach };
}

// ---------------------------------------------------------------------------
// Definitions: copies, validation, comparison, printing.

function checkName(name: unknown, what: string): string {
  if (typeof name !== "string" || !isGraphQLName(name)) {
    throw new Error(
      `GraphQLTypeRegistry.define: ${what} ${JSON.stringify(name)} is no GraphQL name`,
    );
  }
  return name;
}

function checkType(type: unknown, what: string): string {
  let valid = typeof type === "string";
  if (valid) {
    try {
      parseType(type as string);
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw new Error(
      `GraphQLTypeRegistry.define: the type ${
        JSON.stringify(type)
      } of ${what} is no type reference`,
    );
  }
  return type as string;
}

function optionalText(value: unknown, what: string): { description?: string } {
  if (value === undefined) return {};
  if (typeof value !== "string") {
    throw new Error(`GraphQLTypeRegistry.define: the description of ${what} is not a string`);
  }
  return { description: value };
}

function uniqueNames(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`GraphQLTypeRegistry.define: ${what} "${name}" twice`);
    seen.add(name);
  }
}

/** A checked copy of a definition, with only the known properties. */
function copyDefinition(definition: NamedTypeDefinition): NamedTypeDefinition {
  const name = checkName(definition?.name, "the type name");
  const where = `type ${name}`;
  const description = optionalText(definition.description, where);
  switch (definition.kind) {
    case "scalar": {
      const url = definition.specifiedByURL;
      if (url !== undefined && typeof url !== "string") {
        throw new Error(`GraphQLTypeRegistry.define: the specifiedByURL of ${where} is no string`);
      }
      return {
        kind: "scalar",
        name,
        ...description,
        ...(url === undefined ? {} : { specifiedByURL: url }),
      };
    }
    case "enum": {
      const values = [...definition.values].map((value) => {
        if (typeof value !== "string" || !isEnumValueName(value)) {
          throw new Error(
            `GraphQLTypeRegistry.define: ${JSON.stringify(value)} in ${where} is no enum value`,
          );
        }
        return value;
      });
      if (values.length === 0) {
        throw new Error(`GraphQLTypeRegistry.define: ${where} has no values`);
      }
      uniqueNames(values, `${where} has the value`);
      return { kind: "enum", name, values, ...description };
    }
    case "union": {
      const members = [...definition.members].map((member) => checkName(member, "the member"));
      if (members.length === 0) {
        throw new Error(`GraphQLTypeRegistry.define: ${where} has no members`);
      }
      uniqueNames(members, `${where} has the member`);
      return { kind: "union", name, members, ...description };
    }
    case "object":
    case "input": {
      const fields = [...definition.fields].map((field) =>
        copyField(field, where, definition.kind)
      );
      if (fields.length === 0) {
        throw new Error(`GraphQLTypeRegistry.define: ${where} has no fields`);
      }
      uniqueNames(fields.map((field) => field.name), `${where} has the field`);
      return { kind: definition.kind, name, fields, ...description };
    }
    default:
      throw new Error(
        `GraphQLTypeRegistry.define: unknown kind ${
          JSON.stringify((definition as { kind: unknown }).kind)
        }`,
      );
  }
}

function copyField(field: FieldDefinition, where: string, kind: "object" | "input") {
  const name = checkName(field?.name, `a field of ${where}:`);
  const at = `${where}.${name}`;
  const copy: FieldDefinition = {
    name,
    type: checkType(field.type, at),
    ...optionalText(field.description, at),
  };
  if (field.key !== undefined) {
    if (typeof field.key !== "string") {
      throw new Error(`GraphQLTypeRegistry.define: the key of ${at} is no string`);
    }
    copy.key = field.key;
  }
  if (field.optional === true) copy.optional = true;
  if (field.args !== undefined && field.args.length > 0) {
    if (kind === "input") {
      throw new Error(`GraphQLTypeRegistry.define: ${at} is an input field and takes no arguments`);
    }
    const args = field.args.map((arg) => {
      const argName = checkName(arg?.name, `an argument of ${at}:`);
      const argAt = `${at}(${argName})`;
      return {
        name: argName,
        type: checkType(arg.type, argAt),
        ...optionalText(arg.description, argAt),
        ...(arg.key === undefined ? {} : { key: String(arg.key) }),
      };
    });
    uniqueNames(args.map((arg) => arg.name), `${at} has the argument`);
    copy.args = args;
  }
  return copy;
}

function freezeDefinition<T extends NamedTypeDefinition>(definition: T): T {
  if (definition.kind === "object" || definition.kind === "input") {
    for (const field of definition.fields) {
      if (field.args !== undefined) {
        for (const arg of field.args) Object.freeze(arg);
        Object.freeze(field.args);
      }
      Object.freeze(field);
    }
    Object.freeze(definition.fields);
  } else if (definition.kind === "enum") {
    Object.freeze(definition.values);
  } else if (definition.kind === "union") {
    Object.freeze(definition.members);
  }
  return Object.freeze(definition);
}

/** A definition as text with a fixed property order, for comparison. */
function canonical(definition: NamedTypeDefinition): string {
  const field = (f: FieldDefinition) => [
    f.name,
    f.type,
    f.description ?? null,
    f.key ?? null,
    (f.args ?? []).map((a) => [a.name, a.type, a.description ?? null, a.key ?? null]),
  ];
  return JSON.stringify([
    definition.kind,
    definition.name,
    definition.description ?? null,
    definition.kind === "scalar" ? definition.specifiedByURL ?? null : null,
    definition.kind === "enum" ? definition.values : null,
    definition.kind === "union" ? definition.members : null,
    definition.kind === "object" || definition.kind === "input"
      ? definition.fields.map(field)
      : null,
  ]);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) =>
    Object.hasOwn(b, key) &&
    sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
  );
}

function nameNode(value: string): NameNode {
  return { kind: Kind.NAME, value };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A description as a block string, or as a quoted string when a block string
 * would change it (block strings drop common indentation and blank first and
 * last lines, and normalise line ends). A lone surrogate becomes U+FFFD.
 */
function descriptionNode(text: string | undefined): { description?: StringValueNode } {
  if (text === undefined) return {};
  // GraphQL source cannot hold a lone surrogate, not even escaped.
  const description = text.replace(LONE_SURROGATE, "\uFFFD");
  const block: StringValueNode = { kind: Kind.STRING, value: description, block: true };
  let exact = false;
  try {
    const read = parseValue(print(block));
    exact = read.kind === Kind.STRING && read.value === description;
  } catch {
    exact = false;
  }
  return { description: exact ? block : { kind: Kind.STRING, value: description, block: false } };
}

function argumentNode(arg: ArgumentDefinition): InputValueDefinitionNode {
  return {
    kind: Kind.INPUT_VALUE_DEFINITION,
    ...descriptionNode(arg.description),
    name: nameNode(arg.name),
    type: parseType(arg.type),
  };
}

function definitionNode(definition: NamedTypeDefinition): DefinitionNode {
  const common = { ...descriptionNode(definition.description), name: nameNode(definition.name) };
  switch (definition.kind) {
    case "scalar":
      return {
        kind: Kind.SCALAR_TYPE_DEFINITION,
        ...common,
        directives: definition.specifiedByURL === undefined ? [] : [{
          kind: Kind.DIRECTIVE,
          name: nameNode("specifiedBy"),
          arguments: [{
            kind: Kind.ARGUMENT,
            name: nameNode("url"),
            value: { kind: Kind.STRING, value: definition.specifiedByURL },
          }],
        }],
      };
    case "enum":
      return {
        kind: Kind.ENUM_TYPE_DEFINITION,
        ...common,
        values: definition.values.map((value) => ({
          kind: Kind.ENUM_VALUE_DEFINITION,
          name: nameNode(value),
        })),
      };
    case "union":
      return {
        kind: Kind.UNION_TYPE_DEFINITION,
        ...common,
        types: definition.members.map((member) => ({
          kind: Kind.NAMED_TYPE,
          name: nameNode(member),
        })),
      };
    case "input":
      return {
        kind: Kind.INPUT_OBJECT_TYPE_DEFINITION,
        ...common,
        fields: definition.fields.map(argumentNode),
      };
    case "object":
      return {
        kind: Kind.OBJECT_TYPE_DEFINITION,
        ...common,
        fields: definition.fields.map((field): FieldDefinitionNode => ({
          kind: Kind.FIELD_DEFINITION,
          ...descriptionNode(field.description),
          name: nameNode(field.name),
          arguments: (field.args ?? []).map(argumentNode),
          type: parseType(field.type),
        })),
      };
  }
}

// ---------------------------------------------------------------------------
// Scalars.

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

function jsonLiteral(node: ValueNode, variables: Readonly<Record<string, unknown>> | undefined) {
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
  return new GraphQLScalarType({
    name: JSON_SCALAR,
    description: (SCALAR_DEFINITIONS[JSON_SCALAR] as { description: string }).description,
    serialize: identity,
    parseValue: identity,
    parseLiteral: (node, variables) => jsonLiteral(node, variables ?? undefined),
    coerceOutputValue: identity,
    coerceInputValue: identity,
    coerceInputLiteral: (node: ConstValueNode) => jsonLiteral(node, undefined),
  });
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether a string is an RFC 3339 `date-time`, with real dates and times. */
function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[7] !== undefined && (Number(match[7]) > 23 || Number(match[8]) > 59)) return false;
  return true;
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
  const definition = SCALAR_DEFINITIONS[DATE_TIME_SCALAR] as {
    description: string;
    specifiedByURL: string;
  };
  return new GraphQLScalarType({
    name: DATE_TIME_SCALAR,
    description: definition.description,
    specifiedByURL: definition.specifiedByURL,
    serialize: output,
    parseValue: input,
    parseLiteral: literal,
    coerceOutputValue: output,
    coerceInputValue: input,
    coerceInputLiteral: literal,
  });
}
