// Helpers of the JSON Schema to GraphQL tests: conversions in each direction,
// and the SDL of a registry, proven to build and validate.
import assert from "node:assert/strict";
import {
  GraphQLTypeRegistry,
  type NamedTypeDefinition,
  toGraphQL,
  toGraphQLType,
} from "@ramify/api/graphql";
import { type JsonSchema, toJsonSchema } from "@ramify/api/tree/catalogue";
import {
  buildSchema,
  type GraphQLScalarType,
  type GraphQLSchema,
  parseValue,
  validateSchema,
} from "graphql";
import type { z } from "zod";

/** The registry's SDL, after proving it builds and validates next to a dummy Query. */
export function validSDL(registry: GraphQLTypeRegistry): string {
  const sdl = toGraphQL(registry);
  const schema = buildSchema(`${sdl}\n\ntype Query { _: Int }`);
  assert.deepEqual(validateSchema(schema).map((error) => error.message), []);
  return sdl;
}

export function built(registry: GraphQLTypeRegistry): GraphQLSchema {
  return buildSchema(`${validSDL(registry)}\n\ntype Query { _: Int }`);
}

export function output(
  schema: JsonSchema | undefined,
  name = "Result",
  registry = new GraphQLTypeRegistry(),
) {
  return { type: toGraphQLType(schema, { direction: "output", name, registry }), registry };
}

export function input(
  schema: JsonSchema | undefined,
  name = "ArgsInput",
  registry = new GraphQLTypeRegistry(),
) {
  return { type: toGraphQLType(schema, { direction: "input", name, registry }), registry };
}

export const zodOut = (schema: z.ZodType) => toJsonSchema(schema, "output")!;
export const zodIn = (schema: z.ZodType) => toJsonSchema(schema, "input")!;

/** A scalar's reading of a GraphQL literal. */
export function literal(
  scalar: GraphQLScalarType,
  source: string,
  variables?: Record<string, unknown>,
) {
  return scalar.parseLiteral(parseValue(source), variables);
}

export function fieldsOf(definition: NamedTypeDefinition) {
  assert.ok(definition.kind === "object" || definition.kind === "input");
  return definition.fields;
}

export function names(registry: GraphQLTypeRegistry): string[] {
  return registry.definitions.map((definition) => definition.name);
}

export function definition(registry: GraphQLTypeRegistry, name: string): NamedTypeDefinition {
  const found = registry.definitions.find((d) => d.name === name);
  assert.ok(found, `no type ${name} in ${names(registry).join(", ")}`);
  return found;
}
