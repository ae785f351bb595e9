// Definitions to SDL text, printed directly: the same bytes as graphql-js's
// `print` of their AST (the rules of its printer for the nodes we make), at a
// fraction of the cost for trees of thousands of fields. The few parts with
// rules of their own (descriptions, strings, default values, type references)
// still go through graphql-js, once per distinct text.

import { type ConstValueNode, Kind, parseValue, print } from "graphql";
import type { ArgumentDefinition, FieldDefinition, NamedTypeDefinition } from "./_definitions.ts";
import { typeNode } from "./_type_nodes.ts";
import { isEnumValueName, isGraphQLName } from "./_names.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MAX_REMEMBERED = 10_000;
const descriptions = new Map<string, string>();
const types = new Map<string, string>();

function remember(memory: Map<string, string>, key: string, value: string): string {
  if (memory.size >= MAX_REMEMBERED) memory.clear();
  memory.set(key, value);
  return value;
}

/**
 * A description as a block string, or as a quoted string when a block string
 * would change it (block strings drop common indentation and blank first and
 * last lines, and normalise line ends). A lone surrogate becomes U+FFFD.
 */
function descriptionText(text: string): string {
  const known = descriptions.get(text);
  if (known !== undefined) return known;
  // GraphQL source cannot hold a lone surrogate, not even escaped.
  const value = text.replace(LONE_SURROGATE, "\uFFFD");
  const block = print({ kind: Kind.STRING, value, block: true });
  let exact = false;
  try {
    const read = parseValue(block);
    exact = read.kind === Kind.STRING && read.value === value;
  } catch {
    // No block string at all: quoted.
  }
  return remember(
    descriptions,
    text,
    exact ? block : print({ kind: Kind.STRING, value, block: false }),
  );
}

/** The description and its line break, or nothing. */
function described(text: string | undefined): string {
  return text === undefined ? "" : `${descriptionText(text)}\n`;
}

/** A type reference as graphql-js prints it; throws a `GraphQLError` for text that is none. */
function typeText(reference: string): string {
  return types.get(reference) ?? remember(types, reference, print(typeNode(reference)));
}

/** Two spaces before every line, as graphql-js indents a block. */
function indent(text: string): string {
  return `  ${text.replaceAll("\n", "\n  ")}`;
}

/** `{`, the lines indented, `}`; nothing for no lines. */
function block(lines: readonly string[]): string {
  return lines.length === 0 ? "" : ` {\n${indent(lines.join("\n"))}\n}`;
}

function argumentText(
  arg: ArgumentDefinition | FieldDefinition,
  enums: ReadonlySet<string>,
): string {
  const defaultValue = arg.defaultValue === undefined
    ? undefined
    : constValue(arg.defaultValue, arg.type, enums);
  return `${described(arg.description)}${arg.name}: ${typeText(arg.type)}${
    defaultValue === undefined ? "" : ` = ${print(defaultValue)}`
  }`;
}

function fieldText(field: FieldDefinition, enums: ReadonlySet<string>): string {
  let args = "";
  if (field.args !== undefined && field.args.length > 0) {
    const printed = field.args.map((arg) => argumentText(arg, enums));
    args = printed.some((text) => text.includes("\n"))
      ? `(\n${indent(printed.join("\n"))}\n)`
      : `(${printed.join(", ")})`;
  }
  return `${described(field.description)}${field.name}${args}: ${typeText(field.type)}`;
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
          name: { kind: Kind.NAME, value: key },
          value: item as ConstValueNode,
        })),
      };
    }
    default:
      return undefined;
  }
}

/** The SDL of these definitions, in order (the enum types among them type their defaults). */
export function printDefinitions(all: readonly NamedTypeDefinition[]): string {
  const enums = new Set(all.filter((d) => d.kind === "enum").map((d) => d.name));
  return all.map((definition) => definitionText(definition, enums)).join("\n\n");
}

/** The SDL of one named type's definition, as graphql-js prints its AST. */
function definitionText(
  definition: NamedTypeDefinition,
  enums: ReadonlySet<string>,
): string {
  const head = described(definition.description);
  switch (definition.kind) {
    case "scalar":
      return `${head}scalar ${definition.name}${
        definition.specifiedByURL === undefined
          ? ""
          : ` @specifiedBy(url: ${print({ kind: Kind.STRING, value: definition.specifiedByURL })})`
      }`;
    case "enum":
      return `${head}enum ${definition.name}${block(definition.values)}`;
    case "union":
      return `${head}union ${definition.name}${
        definition.members.length === 0 ? "" : ` = ${definition.members.join(" | ")}`
      }`;
    case "input":
      return `${head}input ${definition.name}${
        block(definition.fields.map((field) => argumentText(field, enums)))
      }`;
    case "object":
      return `${head}type ${definition.name}${
        block(definition.fields.map((field) => fieldText(field, enums)))
      }`;
  }
}
