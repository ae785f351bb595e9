// Definitions to graphql-js AST nodes, for printing SDL.

import {
  type ConstValueNode,
  type DefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  type NameNode,
  parseValue,
  print,
  type StringValueNode,
} from "graphql";
import type { ArgumentDefinition, NamedTypeDefinition } from "./_definitions.ts";
import { typeNode } from "./_type_nodes.ts";
import { isEnumValueName, isGraphQLName } from "./_names.ts";

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

function argumentNode(
  arg: ArgumentDefinition,
  enums: ReadonlySet<string>,
): InputValueDefinitionNode {
  const defaultValue = arg.defaultValue === undefined
    ? undefined
    : constValue(arg.defaultValue, arg.type, enums);
  return {
    kind: Kind.INPUT_VALUE_DEFINITION,
    ...descriptionNode(arg.description),
    name: nameNode(arg.name),
    type: typeNode(arg.type),
    ...(defaultValue === undefined ? {} : { defaultValue }),
  };
}

/**
 * A default as a GraphQL literal of its type: strings of an enum type are enum
 * values, lists hold their items; `undefined` for what GraphQL cannot write
 * (an object key that is no GraphQL name), which then prints no default.
 */
function constValue(
  value: unknown,
  typeRef: string,
  enums: ReadonlySet<string>,
): ConstValueNode | undefined {
  const inner = typeRef.endsWith("!") ? typeRef.slice(0, -1) : typeRef;
  if (value === null) return { kind: Kind.NULL };
  if (Array.isArray(value)) {
    const itemType = inner.startsWith("[") ? inner.slice(1, -1) : inner;
    const values = value.map((item) => constValue(item, itemType, enums));
    return values.every((item) => item !== undefined)
      ? { kind: Kind.LIST, values: values as ConstValueNode[] }
      : undefined;
  }
  switch (typeof value) {
    case "string":
      return enums.has(inner) && isEnumValueName(value)
        ? { kind: Kind.ENUM, value }
        : { kind: Kind.STRING, value };
    case "boolean":
      return { kind: Kind.BOOLEAN, value };
    case "number":
      if (!Number.isFinite(value)) return undefined;
      return Number.isInteger(value) && inner !== "Float"
        ? { kind: Kind.INT, value: String(value) }
        : { kind: Kind.FLOAT, value: String(value) };
    case "object": {
      const entries = Object.entries(value as Record<string, unknown>);
      if (!entries.every(([key]) => isGraphQLName(key))) return undefined;
      const fields = entries.map(([key, item]) => [key, constValue(item, "JSON", enums)] as const);
      if (fields.some(([, item]) => item === undefined)) return undefined;
      return {
        kind: Kind.OBJECT,
        fields: fields.map(([key, item]) => ({
          kind: Kind.OBJECT_FIELD,
          name: nameNode(key),
          value: item as ConstValueNode,
        })),
      };
    }
    default:
      return undefined;
  }
}

/** The AST node of one named type's definition. */
export function definitionNode(
  definition: NamedTypeDefinition,
  enums: ReadonlySet<string>,
): DefinitionNode {
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
        fields: definition.fields.map((field) => argumentNode(field, enums)),
      };
    case "object":
      return {
        kind: Kind.OBJECT_TYPE_DEFINITION,
        ...common,
        fields: definition.fields.map((field): FieldDefinitionNode => ({
          kind: Kind.FIELD_DEFINITION,
          ...descriptionNode(field.description),
          name: nameNode(field.name),
          arguments: (field.args ?? []).map((arg) => argumentNode(arg, enums)),
          type: typeNode(field.type),
        })),
      };
  }
}
