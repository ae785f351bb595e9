// Phase two of the conversion: shapes to named types in the registry, shared
// where structurally identical, named apart where different.

import {
  allocate,
  copyDefinition,
  type FieldDefinition,
  freezeDefinition,
  type NamedTypeDefinition,
  register,
  type RegistryState,
  SCALAR_DEFINITIONS,
  type UnionMember,
} from "./_definitions.ts";
import type { EnumShape, ObjectShape, Shape, UnionShape } from "./_interpret.ts";

/** One conversion's naming state. */
export interface Emission {
  readonly state: RegistryState;
  readonly direction: "input" | "output";
  /** Shapes named in this conversion. */
  readonly names: Map<Shape, string>;
  /** Input types whose fields are being emitted (a non-null path back to one is a cycle). */
  readonly building: Set<string>;
  readonly fingerprints: WeakMap<Shape, string>;
}

/** `fingerprints`: a memo to share, such as the one the conversion's naming filled. */
export function newEmission(
  state: RegistryState,
  direction: "input" | "output",
  fingerprints: WeakMap<Shape, string> = new WeakMap(),
): Emission {
  return { state, direction, names: new Map(), building: new Set(), fingerprints };
}

/** The type reference of a shape, without the outer `!`. */
export function emit(shape: Shape, emission: Emission): string {
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
      return emission.names.get(shape) ?? emitObject(shape, emission);
    case "enum":
      return emission.names.get(shape) ?? emitEnum(shape, emission);
    case "union":
      return emission.names.get(shape) ?? emitUnion(shape, emission);
  }
}

function described(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

/**
 * The structural key of a named shape: equal for shapes that give one type.
 * Objects are keyed by direction (an input and an output type never merge).
 */
export function keyOf(
  shape: ObjectShape | EnumShape | UnionShape,
  direction: "input" | "output",
  memo: WeakMap<Shape, string>,
): string {
  const kind = shape.kind === "object" && direction === "input" ? "input" : shape.kind;
  return `${kind}:${fingerprint(shape, memo)}`;
}

/** A shape's name before it is made free: its own, else the best one planned, else its hint. */
function baseName(shape: ObjectShape | EnumShape | UnionShape, key: string, state: RegistryState) {
  return shape.title ?? (state.planned.get(key) ?? shape.hint).name;
}

/** The type an equal shape was given, now this shape's too. */
function given(shape: Shape, key: string, emission: Emission): string | undefined {
  const name = emission.state.byKey.get(key);
  if (name !== undefined) emission.names.set(shape, name);
  return name;
}

/** Registers a shape's new type under its key, and as this shape's. */
function define(shape: Shape, key: string, emission: Emission, definition: NamedTypeDefinition) {
  register(emission.state, definition);
  emission.state.byKey.set(key, definition.name);
  emission.names.set(shape, definition.name);
}

function emitObject(shape: ObjectShape, emission: Emission): string {
  const kind = emission.direction === "input" ? "input" : "object";
  const key = keyOf(shape, emission.direction, emission.fingerprints);
  const existing = given(shape, key, emission);
  if (existing !== undefined) return existing;
  let base = baseName(shape, key, emission.state);
  if (kind === "input" && !base.endsWith("Input")) base += "Input";
  const name = allocate(emission.state, base);
  const fields: FieldDefinition[] = [];
  const definition: NamedTypeDefinition = { kind, name, fields, ...described(shape.description) };
  define(shape, key, emission, definition);
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
      ...(kind === "input" && field.default !== undefined ? { defaultValue: field.default } : {}),
      ...(field.literal === undefined ? {} : { literal: field.literal }),
    });
  }
  emission.building.delete(name);
  freezeDefinition(definition);
  return name;
}

function emitEnum(shape: EnumShape, emission: Emission): string {
  const key = keyOf(shape, emission.direction, emission.fingerprints);
  const existing = given(shape, key, emission);
  if (existing !== undefined) return existing;
  const name = allocate(emission.state, baseName(shape, key, emission.state));
  const values = [...shape.values];
  define(
    shape,
    key,
    emission,
    freezeDefinition({ kind: "enum", name, values, ...described(shape.description) }),
  );
  return name;
}

function emitUnion(shape: UnionShape, emission: Emission): string {
  const distinct = new Set(
    shape.members.map((member) => fingerprint(member, emission.fingerprints)),
  );
  if (distinct.size === 1) return emit(shape.members[0], emission);
  const key = keyOf(shape, emission.direction, emission.fingerprints);
  const existing = given(shape, key, emission);
  if (existing !== undefined) return existing;
  const name = allocate(emission.state, baseName(shape, key, emission.state));
  const members: string[] = [];
  const definition: NamedTypeDefinition = {
    kind: "union",
    name,
    members,
    ...described(shape.description),
  };
  define(shape, key, emission, definition);
  const resolution: UnionMember[] = [];
  for (const member of shape.members) {
    const memberName = emit(member, emission);
    if (members.includes(memberName)) continue;
    members.push(memberName);
    resolution.push({ name: memberName, required: member.required, consts: member.consts });
  }
  emission.state.unions.set(name, resolution);
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
      `${
        JSON.stringify([
          field.key,
          field.name,
          field.description ?? null,
          field.default,
          field.literal,
        ])
      }:${inner(field.type.shape)}${field.type.nullable ? "" : "!"}`
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
