/**
 * The type IR's GraphQL conversion: JSON Schema (draft 2020-12) to GraphQL
 * types, as pure functions over plain data. {@linkcode toGraphQLType} turns one
 * schema into a type reference (`"Book!"`, `"[String!]"`, `"JSON"`) and collects
 * the named types it needs in a {@linkcode GraphQLTypeRegistry};
 * {@linkcode argumentsOf} turns an input object schema into field arguments;
 * `toGraphQL` (sdl.ts) prints a registry as SDL.
 *
 * The mapping:
 *
 * - `type: "object"` with properties: an object type (output) or an input
 *   object type (input). Its name is the schema's own (its id, the `$defs` key
 *   it was reached by or `$id`, else its `title`, in PascalCase), else one
 *   derived from its nearest named holder (`kind` in `Message` is
 *   `MessageKind`), else from the name hint. Input object type names always
 *   end in `Input`, so that the input and output forms of one title never
 *   collide, whatever the order of conversion. Field names that are no GraphQL
 *   name become the camelCase of their letter-and-digit runs (`_`-prefixed when
 *   that still is no name; numbered on a clash) and keep the JSON key in `key`.
 *   A property is non-null when it is `required` and does not allow null.
 *   Objects without properties (records, `{}`) are `JSON`.
 * - A `string` enum whose values are all GraphQL names: an enum type (named as
 *   objects are); other string enums and string `const`s are `String`.
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

import type { JsonSchema } from "../../tree/schema.ts";
import { typeName } from "./_names.ts";
import {
  type ArgumentDefinition,
  BUILT_IN_SCALARS,
  canonical,
  copyDefinition,
  freezeDefinition,
  type NamedTypeDefinition,
  register,
  type RegistryState,
  sameJson,
  SCALAR_DEFINITIONS,
} from "./_definitions.ts";
import { ANY, interpret, newInterpretation, type Shape, type Use } from "./_interpret.ts";
import { type Emission, emit, newEmission } from "./_emit.ts";
import { planNames } from "./_naming.ts";

export { DATE_TIME_SCALAR, FILE_SCALAR, JSON_SCALAR } from "./_definitions.ts";
export type { ArgumentDefinition, FieldDefinition, NamedTypeDefinition } from "./_definitions.ts";

const STATES = new WeakMap<GraphQLTypeRegistry, RegistryState>();

function stateOf(registry: GraphQLTypeRegistry): RegistryState {
  const state = STATES.get(registry);
  if (state === undefined) throw new TypeError("Not a GraphQLTypeRegistry");
  return state;
}

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
      planned: new Map(),
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
    if (Object.hasOwn(SCALAR_DEFINITIONS, copy.name) && copy.kind !== "scalar") {
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
 * import { toJsonSchema } from "@ramify/api/tree/catalogue";
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
  const use = interpretRoot(schema, options.direction, options.name);
  const memo = new WeakMap<Shape, string>();
  planNames(state, use, options.direction, false, memo);
  return typeOf(use, newEmission(state, options.direction, memo), options.required !== false);
}

/** The type reference of an interpreted, planned schema. */
function typeOf(use: Use, emitting: Emission, required: boolean): string {
  const named = emit(use.shape, emitting);
  return use.nullable || !required ? named : `${named}!`;
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
  const use = interpretRoot(schema, "input", options.name);
  if (use.shape.kind !== "object") return [];
  const memo = new WeakMap<Shape, string>();
  planNames(state, use, "input", true, memo);
  return argumentsFrom(use, newEmission(state, "input", memo));
}

/** The arguments of an interpreted, planned input schema (`[]` unless an object). */
function argumentsFrom(use: Use, inputs: Emission): ArgumentDefinition[] {
  const shape = use.shape;
  if (shape.kind !== "object") return [];
  const args: ArgumentDefinition[] = [];
  for (const field of shape.fields) {
    const named = emit(field.type.shape, inputs);
    const arg: ArgumentDefinition = {
      name: field.name,
      type: field.type.nullable || use.nullable ? named : `${named}!`,
    };
    if (field.description !== undefined) arg.description = field.description;
    if (field.key !== field.name) arg.key = field.key;
    if (field.default !== undefined) arg.defaultValue = field.default;
    args.push(arg);
  }
  return args;
}

/** A root schema's interpretation, named after `name` where it names nothing itself. */
function interpretRoot(
  schema: JsonSchema | undefined,
  direction: "input" | "output",
  name: string,
): Use {
  if (schema === undefined) return ANY;
  const hint = { name: typeName(name) || "Type", depth: 0, fromOperation: true };
  return interpret(schema, newInterpretation(schema, direction), hint);
}

/**
 * One schema of a schema build, converted as {@linkcode toGraphQLType}
 * (`output` or `input`) or {@linkcode argumentsOf} (`arguments`) would.
 */
export interface SchemaConversion {
  /** The schema. */
  readonly schema: JsonSchema | undefined;
  /** How it is converted. */
  readonly as: "input" | "output" | "arguments";
  /** The name hint the conversion is given. */
  readonly name: string;
  /** As {@linkcode toGraphQLType}'s `required` (not for `arguments`). Default `true`. */
  readonly required?: boolean;
}

/**
 * Converts schemas together, in order: the names of the types they need are
 * settled over all of them first, so a type without a name of its own that
 * several hold is named after its nearest named holder, else its nearest
 * operation, whatever the order. Each schema is interpreted once, for naming
 * and conversion both. Gives, for each, its arguments (`arguments`) or its
 * type reference; types already named keep their names.
 *
 * @example
 * ```ts
 * import { convertSchemas, GraphQLTypeRegistry } from "./types.ts";
 *
 * const kind = { type: "string", enum: ["text", "image"] };
 * const message = {
 *   type: "object",
 *   title: "Message",
 *   properties: { kind },
 *   required: ["kind"],
 * };
 * const filter = { type: "array", items: kind };
 * const [kinds] = convertSchemas(new GraphQLTypeRegistry(), [
 *   { schema: filter, as: "output", name: "SearchKinds" },
 *   { schema: message, as: "output", name: "PostResult" },
 * ]);
 * console.log(kinds); // "[MessageKind!]!"
 * ```
 */
export function convertSchemas(
  registry: GraphQLTypeRegistry,
  conversions: readonly SchemaConversion[],
): (string | ArgumentDefinition[])[] {
  const state = stateOf(registry);
  // Shapes are never shared between interpretations, so one fingerprint memo and one emission
  // per direction serve every conversion here: fewer objects than one each.
  const memo = new WeakMap<Shape, string>();
  const emissions = {
    input: newEmission(state, "input", memo),
    output: newEmission(state, "output", memo),
  };
  // Kept for conversion only when planned: an interpretation kept until then costs the collector.
  const uses = conversions.map(({ schema, as, name }) => {
    // Without a schema there is nothing to name (and no arguments).
    if (schema === undefined || NOTHING_TO_PLAN[as].has(schema)) return undefined;
    const direction = as === "output" ? "output" : "input";
    const use = interpretRoot(schema, direction, name);
    if (!planNames(state, use, direction, as === "arguments", memo)) {
      NOTHING_TO_PLAN[as].add(schema);
    }
    return use;
  });
  return conversions.map(({ schema, as, name, required }, index) => {
    const use = uses[index] ?? interpretRoot(schema, as === "output" ? "output" : "input", name);
    if (as === "arguments") {
      return schema === undefined ? [] : argumentsFrom(use, emissions.input);
    }
    return typeOf(use, emissions[as], required !== false);
  });
}

/**
 * Root schemas, by how they are converted, that hold no type named by where it
 * sits (which depends on the schema alone): their planning is skipped.
 */
const NOTHING_TO_PLAN = {
  input: new WeakSet<JsonSchema>(),
  output: new WeakSet<JsonSchema>(),
  arguments: new WeakSet<JsonSchema>(),
};
