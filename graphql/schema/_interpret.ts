// Phase one of the conversion: a JSON Schema to a shape (what GraphQL type it
// is), no names yet.

import { type DerivedName, nameBelow, ownSchemaName } from "../../tree/schema.ts";
import { DATE_TIME_SCALAR, FILE_SCALAR, JSON_SCALAR } from "./_definitions.ts";
import { fieldName, freeName, isEnumValueName, typeName, upperFirst } from "./_names.ts";
import { deref, isSchemaObject } from "./_refs.ts";
import { resolveRef } from "../../tree/schema_refs.ts";
import { narrowsScalar } from "./_variants.ts";

export interface Use {
  readonly shape: Shape;
  readonly nullable: boolean;
}

export type Shape = ScalarShape | ListShape | ObjectShape | EnumShape | UnionShape;

export interface ScalarShape {
  readonly kind: "scalar";
  readonly name: string;
}

export interface ListShape {
  readonly kind: "list";
  readonly item: Use;
}

export interface ObjectShape {
  readonly kind: "object";
  /** The schema's own name (its id, else its title), sanitised, if any. */
  readonly title: string | undefined;
  /** The name from where the schema sits, for a schema without its own. */
  readonly hint: DerivedName;
  readonly description: string | undefined;
  readonly fields: FieldShape[];
  readonly required: readonly string[];
  readonly consts: readonly (readonly [string, unknown])[];
}

export interface FieldShape {
  readonly key: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly type: Use;
  /** Not required, and its schema does not allow null. */
  readonly optional: boolean;
  /** The schema's `default`, when it has one. */
  readonly default?: unknown;
  /** The one value the property holds (a `const`), when it is a string, number or boolean. */
  readonly literal?: string | number | boolean;
}

export interface EnumShape {
  readonly kind: "enum";
  readonly title: string | undefined;
  readonly hint: DerivedName;
  readonly description: string | undefined;
  readonly values: readonly string[];
}

export interface UnionShape {
  readonly kind: "union";
  readonly title: string | undefined;
  readonly hint: DerivedName;
  readonly description: string | undefined;
  readonly members: readonly ObjectShape[];
}

const SCALARS = new Map<string, ScalarShape>(
  ["String", "Int", "Float", "Boolean", JSON_SCALAR, DATE_TIME_SCALAR, FILE_SCALAR].map((name) => [
    name,
    { kind: "scalar", name },
  ]),
);

function scalar(name: string, nullable: boolean): Use {
  return { shape: SCALARS.get(name)!, nullable };
}

/** Any JSON value: the use of no schema, or of one GraphQL cannot express. */
export const ANY: Use = scalar(JSON_SCALAR, true);

function stringScalar(format: unknown): string {
  if (format === "date-time") return DATE_TIME_SCALAR;
  return format === "binary" ? FILE_SCALAR : "String";
}

interface Interpretation {
  readonly root: unknown;
  readonly direction: "input" | "output";
  /** Object schemas met in this conversion, to their use (recursion and reuse). */
  readonly objects: Map<object, Use>;
  /** Schemas entered since the last object: a loop among them never ends. */
  active: Set<object>;
}

export function newInterpretation(root: unknown, direction: "input" | "output"): Interpretation {
  return { root, direction, objects: new Map(), active: new Set() };
}

type Schema = Readonly<Record<string, unknown>>;

/** A schema's `anyOf`, else its `oneOf`, if it has either. */
function variantsOf(schema: Schema): readonly unknown[] | undefined {
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  return Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * How a schema is named where it is met: `defKey`, the `$defs` key a
 * reference reached it by; `inherited`, the name of a wrapper around it (a
 * reference, a nullable `anyOf`, a one-member `allOf`), used when the schema
 * has none of its own.
 */
interface Naming {
  readonly defKey?: string;
  readonly inherited?: string;
}

const SCALAR_USES = new WeakMap<Schema, Use>();

function ownName(schema: Schema, naming: Naming): string | undefined {
  const own = ownSchemaName(schema, naming.defKey);
  return (own === undefined ? undefined : typeName(own) || undefined) ?? naming.inherited;
}

export function interpret(
  schema: unknown,
  ctx: Interpretation,
  hint: DerivedName,
  naming: Naming = {},
): Use {
  if (!isSchemaObject(schema)) return ANY;
  const known = ctx.objects.get(schema) ?? SCALAR_USES.get(schema);
  if (known !== undefined) return known;
  if (ctx.active.has(schema)) return ANY;
  ctx.active.add(schema);
  try {
    const use = interpretSchema(schema, ctx, hint, ownName(schema, naming));
    // A scalar reached by no reference or variant is one wherever it is met.
    const alone =
      !("$ref" in schema || "anyOf" in schema || "oneOf" in schema || "allOf" in schema);
    if (use.shape.kind === "scalar" && alone) SCALAR_USES.set(schema, use);
    return use;
  } finally {
    ctx.active.delete(schema);
  }
}

function orNull(use: Use, nullable: boolean): Use {
  return nullable && !use.nullable ? { shape: use.shape, nullable: true } : use;
}

function interpretSchema(
  schema: Schema,
  ctx: Interpretation,
  hint: DerivedName,
  own: string | undefined,
): Use {
  const flaggedNull = schema.nullable === true;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, ctx.root);
    if (target === undefined) return ANY;
    const naming = { defKey: target.key, inherited: own };
    return orNull(interpret(target.schema, ctx, hint, naming), flaggedNull);
  }
  const types = typeof schema.type === "string"
    ? [schema.type]
    : Array.isArray(schema.type)
    ? schema.type.filter((type): type is string => typeof type === "string")
    : undefined;
  const nullable = flaggedNull || (types?.includes("null") ?? false);
  if ("const" in schema) return orNull(constUse(schema.const), nullable);
  if (Array.isArray(schema.enum)) {
    return orNull(enumUse(schema, schema.enum, hint, own), nullable);
  }
  const variants = variantsOf(schema);
  if (variants !== undefined && !narrowsScalar(types, variants)) {
    return orNull(variantsUse(schema, variants, ctx, hint, own), nullable);
  }
  if (types === undefined) {
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
      return orNull(interpret(schema.allOf[0], ctx, hint, { inherited: own }), nullable);
    }
    if (isSchemaObject(schema.properties)) return objectUse(schema, ctx, hint, own, nullable);
    if ("items" in schema || "prefixItems" in schema) {
      return arrayUse(schema, ctx, hint, own, nullable);
    }
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
      return scalar(stringScalar(schema.format), nullable);
    case "integer":
      return scalar(integerFits(schema) ? "Int" : "Float", nullable);
    case "number":
      return scalar("Float", nullable);
    case "boolean":
      return scalar("Boolean", nullable);
    case "array":
      return arrayUse(schema, ctx, hint, own, nullable);
    case "object":
      return objectUse(schema, ctx, hint, own, nullable);
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

function enumUse(
  schema: Schema,
  values: readonly unknown[],
  hint: DerivedName,
  own: string | undefined,
): Use {
  const nullable = values.includes(null);
  const rest = values.filter((value) => value !== null);
  if (rest.length === 0) return ANY;
  if (rest.every((value): value is string => typeof value === "string")) {
    const unique = [...new Set(rest)];
    if (!unique.every(isEnumValueName)) return scalar("String", nullable);
    const shape: EnumShape = {
      kind: "enum",
      title: own,
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
  hint: DerivedName,
  title: string | undefined,
): Use {
  const rest = variants.filter((variant) => !isNullOnly(variant));
  const withNull = rest.length < variants.length;
  if (rest.length === 0) return ANY;
  if (rest.length === 1) {
    return orNull(interpret(rest[0], ctx, hint, { inherited: title }), withNull);
  }
  const uses = rest.map((variant, index) =>
    interpret(variant, ctx, nameBelow(title, hint, String(index + 1)))
  );
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

function arrayUse(
  schema: Schema,
  ctx: Interpretation,
  hint: DerivedName,
  own: string | undefined,
  nullable: boolean,
): Use {
  if (schema.prefixItems !== undefined) return scalar(JSON_SCALAR, nullable);
  const items = schema.items;
  // A list is no type of its own: a named list names its items, else they take its hint.
  const itemHint = own === undefined ? hint : nameBelow(own, hint, "");
  const item = isSchemaObject(items) ? interpret(items, ctx, itemHint) : ANY;
  return { shape: { kind: "list", item }, nullable };
}

/** What an object schema's fields are wherever it is met: its own, the same for every holder. */
interface ObjectPlan {
  /** The root its `$ref`s were followed in (for `consts`). */
  readonly root: unknown;
  readonly required: readonly string[];
  readonly consts: readonly (readonly [string, unknown])[];
  readonly fields: readonly FieldPlan[];
}

interface FieldPlan {
  readonly key: string;
  readonly name: string;
  /** The step its type's derived name takes, like `Kind`. */
  readonly part: string;
  readonly property: unknown;
  readonly required: boolean;
  readonly description: string | undefined;
  readonly default: unknown;
  readonly literal: string | number | boolean | undefined;
}

// Schemas are shared (one per library schema, met by many leaves): each is planned once.
const OBJECT_PLANS = new WeakMap<Schema, ObjectPlan>();

function objectPlan(schema: Schema, root: unknown): ObjectPlan {
  const known = OBJECT_PLANS.get(schema);
  if (known !== undefined && known.root === root) return known;
  const properties = isSchemaObject(schema.properties)
    ? Object.entries(schema.properties).filter(([, property]) => property !== false)
    : [];
  const required = Array.isArray(schema.required)
    ? [...new Set(schema.required.filter((key): key is string => typeof key === "string"))]
    : [];
  const consts: (readonly [string, unknown])[] = [];
  const fields: FieldPlan[] = [];
  const taken = new Set<string>();
  for (const [key, property] of properties) {
    const target = deref(property, root);
    if (isSchemaObject(target)) {
      if ("const" in target) consts.push([key, target.const]);
      else if (Array.isArray(target.enum) && target.enum.length === 1) {
        consts.push([key, target.enum[0]]);
      }
    }
    const name = freeName(fieldName(key), (candidate) => taken.has(candidate));
    taken.add(name);
    const own = isSchemaObject(property) ? property : undefined;
    const literal = own?.const;
    fields.push({
      key,
      name,
      part: upperFirst(name.replace(/^_+/, "")),
      property,
      required: required.includes(key),
      description: describeProperty(property),
      default: own?.default,
      literal: typeof literal === "string" || typeof literal === "number" ||
          typeof literal === "boolean"
        ? literal
        : undefined,
    });
  }
  const plan = { root, required, consts, fields };
  OBJECT_PLANS.set(schema, plan);
  return plan;
}

function objectUse(
  schema: Schema,
  ctx: Interpretation,
  hint: DerivedName,
  title: string | undefined,
  nullable: boolean,
): Use {
  const plan = objectPlan(schema, ctx.root);
  if (plan.fields.length === 0) return scalar(JSON_SCALAR, nullable);
  const shape: ObjectShape = {
    kind: "object",
    title,
    hint,
    description: text(schema.description),
    fields: [],
    required: plan.required,
    consts: plan.consts,
  };
  const use: Use = { shape, nullable };
  ctx.objects.set(schema, use);
  // Fields are named after the object, less the `Input` every input type ends in.
  const bare = (name: string) =>
    ctx.direction === "input" && name.endsWith("Input") && name !== "Input"
      ? name.slice(0, -"Input".length)
      : name;
  const holder = { ...hint, name: bare(hint.name) };
  const base = title === undefined ? undefined : bare(title);
  const outer = ctx.active;
  ctx.active = new Set();
  try {
    for (const field of plan.fields) {
      const type = interpret(field.property, ctx, nameBelow(base, holder, field.part));
      const made: { -readonly [K in keyof FieldShape]: FieldShape[K] } = {
        key: field.key,
        name: field.name,
        description: field.description,
        type: orNull(type, !field.required),
        optional: !field.required && !type.nullable,
      };
      if (field.default !== undefined) made.default = field.default;
      if (field.literal !== undefined) made.literal = field.literal;
      shape.fields.push(made);
    }
  } finally {
    ctx.active = outer;
  }
  return use;
}

/** A property's own description, or that of the one non-null variant it wraps. */
function describeProperty(property: unknown): string | undefined {
  if (!isSchemaObject(property)) return undefined;
  const own = text(property.description);
  if (own !== undefined) return own;
  const rest = (variantsOf(property) ?? []).filter((variant) => !isNullOnly(variant));
  if (rest.length === 1 && isSchemaObject(rest[0]) && rest[0].$ref === undefined) {
    return text(rest[0].description);
  }
  return undefined;
}
