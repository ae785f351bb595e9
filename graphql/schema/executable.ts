/**
 * `toSchema(projection, opts?)`: an executable graphql-js schema from a
 * projection: the SDL built, and every field, union and scalar given its
 * implementation from the resolver map.
 *
 * @example
 * ```ts
 * import { graphql } from "graphql";
 * import { api, op } from "@ramify/api/tree";
 * import { projectGraphQL, toSchema } from "@ramify/api/graphql";
 *
 * const schema = toSchema(projectGraphQL(api({ ping: op(() => "pong", { tags: { readOnly: true } }) })));
 * console.log((await graphql({ schema, source: "{ ping }" })).data?.ping); // "pong"
 * ```
 *
 * @module
 */

import {
  buildSchema,
  type GraphQLFieldResolver,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  GraphQLUnionType,
} from "graphql";
import type { ProjectGraphQLResult } from "./projection.ts";
import { printProjection } from "./sdl.ts";
import { resolversOf } from "./resolvers.ts";
import type { ResolveOptions } from "./errors.ts";

/**
 * Options of {@linkcode toSchema}: how resolvers treat errors.
 *
 * @example
 * ```ts
 * import { graphqlErrors, type ToSchemaOptions } from "@ramify/api/graphql";
 *
 * const opts: ToSchemaOptions = { errors: graphqlErrors({ NotFound: "NOT_FOUND" }) };
 * ```
 */
export interface ToSchemaOptions extends ResolveOptions {}

// A scalar's coercions: graphql 17 coerces through the last three, graphql 16 has no such fields.
const SCALAR_BEHAVIOUR = [
  "serialize",
  "parseValue",
  "parseLiteral",
  "coerceOutputValue",
  "coerceInputValue",
  "coerceInputLiteral",
] as const;

/**
 * The executable schema of a projection.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { projectGraphQL, toSchema } from "@ramify/api/graphql";
 *
 * const schema = toSchema(projectGraphQL(api({ books: api({ list: op(() => []) }) })));
 * console.log(Object.keys(schema.getQueryType()!.getFields())); // ["books"]
 * ```
 */
export function toSchema(
  projection: ProjectGraphQLResult,
  opts: ToSchemaOptions = {},
): GraphQLSchema {
  const schema = buildSchema(printProjection(projection));
  const resolvers = resolversOf(projection, opts);
  for (const [typeName, implementation] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (type instanceof GraphQLScalarType && implementation instanceof GraphQLScalarType) {
      // buildSchema gives identity scalars; take the implementation's behaviour.
      for (const key of SCALAR_BEHAVIOUR) Reflect.set(type, key, Reflect.get(implementation, key));
    } else if (type instanceof GraphQLUnionType) {
      Object.assign(type, {
        resolveType: (implementation as Record<string, unknown>).__resolveType,
      });
    } else if (type instanceof GraphQLObjectType) {
      const fields = type.getFields();
      for (const [fieldName, resolver] of Object.entries(implementation)) {
        const field = fields[fieldName];
        if (typeof resolver === "function") {
          field.resolve = resolver as GraphQLFieldResolver<unknown, unknown>;
        } else {
          const { subscribe, resolve } = resolver as {
            subscribe: GraphQLFieldResolver<unknown, unknown>;
            resolve: GraphQLFieldResolver<unknown, unknown>;
          };
          field.subscribe = subscribe;
          field.resolve = resolve;
        }
      }
    }
  }
  return schema;
}
