// The named-type definitions as plain data, and what every part of the
// conversion needs of them: the reserved names, the registry's state, copying,
// checking, freezing and comparing definitions.

import { isTypeReference } from "./_type_reference.ts";
import type { DerivedName } from "../../tree/schema.ts";
import { freeName, isEnumValueName, isGraphQLName } from "./_names.ts";

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
 * The name of the scalar for files (`format: "binary"`, zod's `z.file()`):
 * input only, sent as parts of a multipart request.
 *
 * @example
 * ```ts
 * import { FILE_SCALAR, GraphQLTypeRegistry, toGraphQLType } from "@ramify/api/graphql";
 *
 * const type = toGraphQLType({ type: "string", format: "binary" }, {
 *   direction: "input",
 *   name: "Upload",
 *   registry: new GraphQLTypeRegistry(),
 * });
 * console.log(type === `${FILE_SCALAR}!`); // true
 * ```
 */
export const FILE_SCALAR = "File";

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
  /** An input field's default (the schema's `default`), as JSON. */
  defaultValue?: unknown;
  /** The one value the field holds (a schema `const`): typed clients give it a literal type. */
  literal?: string | number | boolean;
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
  /** The argument's default (the schema's `default`), as JSON. */
  defaultValue?: unknown;
  /**
   * The argument is the free-form input of a leaf without an input schema: an
   * object whose own keys are the handler's input (below the captures).
   */
  spread?: boolean;
}

export interface UnionMember {
  readonly name: string;
  readonly required: readonly string[];
  readonly consts: readonly (readonly [string, unknown])[];
}

export interface RegistryState {
  readonly definitions: NamedTypeDefinition[];
  readonly byName: Map<string, NamedTypeDefinition>;
  /** Structural key of a converted schema to the name of its type. */
  readonly byKey: Map<string, string>;
  /** Structural key to the best name met for a type without its own, before it is named. */
  readonly planned: Map<string, DerivedName>;
  readonly unions: Map<string, readonly UnionMember[]>;
}

export const BUILT_IN_SCALARS = new Set(["String", "Int", "Float", "Boolean", "ID"]);
/** Names a schema's type never gets. */
export const RESERVED = new Set([
  ...BUILT_IN_SCALARS,
  JSON_SCALAR,
  DATE_TIME_SCALAR,
  FILE_SCALAR,
  "Query",
  "Mutation",
  "Subscription",
]);

/** The definitions of the custom scalars, registered on first use. */
export const SCALAR_DEFINITIONS: Readonly<Record<string, NamedTypeDefinition>> = {
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
  [FILE_SCALAR]: {
    kind: "scalar",
    name: FILE_SCALAR,
    description: "A file, sent as a part of a multipart request (input only).",
    specifiedByURL: "https://github.com/jaydenseric/graphql-multipart-request-spec",
  },
};

/** A free type name from `base`: never reserved, never taken. */
export function allocate(state: RegistryState, base: string): string {
  return freeName(base, (name) => state.byName.has(name) || RESERVED.has(name));
}

/** Adds a definition to the registry's state, in first-use order. */
export function register(state: RegistryState, definition: NamedTypeDefinition): void {
  state.definitions.push(definition);
  state.byName.set(definition.name, definition);
}

// Copies, validation and comparison of definitions given from outside.

function checkName(name: unknown, what: string): string {
  if (typeof name !== "string" || !isGraphQLName(name)) {
    throw new Error(
      `GraphQLTypeRegistry.define: ${what} ${JSON.stringify(name)} is no GraphQL name`,
    );
  }
  return name;
}

function checkType(type: unknown, what: string): string {
  if (typeof type !== "string" || !isTypeReference(type)) {
    throw new Error(
      `GraphQLTypeRegistry.define: the type ${
        JSON.stringify(type)
      } of ${what} is no type reference`,
    );
  }
  return type;
}

function checkText(value: unknown, what: string): string {
  if (typeof value !== "string") {
    throw new Error(`GraphQLTypeRegistry.define: the description of ${what} is not a string`);
  }
  return value;
}

function optionalText(value: unknown, what: string): { description?: string } {
  return value === undefined ? {} : { description: checkText(value, what) };
}

/** Refuses a list of names that is empty or holds one twice: `noun` says what they are. */
function uniqueNames(names: readonly string[], where: string, noun: string): void {
  if (names.length === 0) throw new Error(`GraphQLTypeRegistry.define: ${where} has no ${noun}s`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new Error(`GraphQLTypeRegistry.define: ${where} has the ${noun} "${name}" twice`);
    }
    seen.add(name);
  }
}

/** A checked copy of a definition, with only the known properties. */
export function copyDefinition(definition: NamedTypeDefinition): NamedTypeDefinition {
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
      uniqueNames(values, where, "value");
      return { kind: "enum", name, values, ...description };
    }
    case "union": {
      const members = [...definition.members].map((member) => checkName(member, "the member"));
      uniqueNames(members, where, "member");
      return { kind: "union", name, members, ...description };
    }
    case "object":
    case "input": {
      const fields = [...definition.fields].map((field) =>
        copyField(field, where, definition.kind)
      );
      uniqueNames(fields.map((field) => field.name), where, "field");
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
  const copy: FieldDefinition = { name, type: checkType(field.type, at) };
  if (field.description !== undefined) copy.description = checkText(field.description, at);
  if (field.key !== undefined) {
    if (typeof field.key !== "string") {
      throw new Error(`GraphQLTypeRegistry.define: the key of ${at} is no string`);
    }
    copy.key = field.key;
  }
  if (field.optional === true) copy.optional = true;
  if (field.defaultValue !== undefined) copy.defaultValue = field.defaultValue;
  const literal = field.literal;
  if (typeof literal === "string" || typeof literal === "number" || typeof literal === "boolean") {
    copy.literal = literal;
  }
  if (field.args !== undefined && field.args.length > 0) {
    if (kind === "input") {
      throw new Error(`GraphQLTypeRegistry.define: ${at} is an input field and takes no arguments`);
    }
    const args = field.args.map((arg) => {
      const argName = checkName(arg?.name, `an argument of ${at}:`);
      const argAt = `${at}(${argName})`;
      const copied: ArgumentDefinition = { name: argName, type: checkType(arg.type, argAt) };
      if (arg.description !== undefined) copied.description = checkText(arg.description, argAt);
      if (arg.key !== undefined) copied.key = String(arg.key);
      if (arg.defaultValue !== undefined) copied.defaultValue = arg.defaultValue;
      return copied;
    });
    // Not empty: `field.args` has one at least.
    if (args.length > 1) uniqueNames(args.map((arg) => arg.name), at, "argument");
    copy.args = args;
  }
  return copy;
}

export function freezeDefinition<T extends NamedTypeDefinition>(definition: T): T {
  if (definition.kind === "object" || definition.kind === "input") {
    for (const field of definition.fields) {
      for (const arg of field.args ?? []) Object.freeze(arg);
      if (field.args !== undefined) Object.freeze(field.args);
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
export function canonical(definition: NamedTypeDefinition): string {
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

export function sameJson(a: unknown, b: unknown): boolean {
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
