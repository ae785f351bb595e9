// Definitions to graphql-js AST nodes, for printing SDL.

import {
  type DefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  type NameNode,
  parseType,
  parseValue,
  print,
  type StringValueNode,
} from "graphql";
import type { ArgumentDefinition, NamedTypeDefinition } from "./_definitions.ts";

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

/** The AST node of one named type's definition. */
export function definitionNode(definition: NamedTypeDefinition): DefinitionNode {
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
