/**
 * `createResolver(tree, opts?)`: a resolver map, in the shape standard executors
 * take (`makeExecutableSchema` from `@graphql-tools/schema`, Apollo, Yoga), that
 * dispatches every field of `toSDL(tree)` onto the tree's handlers.
 *
 * @example
 * ```ts
 * import { makeExecutableSchema } from "@graphql-tools/schema";
 * import { graphql } from "graphql";
 * import { api, op } from "@ramify/api/tree";
 * import { createResolver, toSDL } from "@ramify/api/graphql";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const schema = makeExecutableSchema({ typeDefs: toSDL(tree), resolvers: createResolver(tree) });
 * console.log((await graphql({ schema, source: "{ ping }" })).data); // { ping: "pong" }
 * ```
 *
 * @module
 */

import type { GraphQLScalarType } from "graphql";
import type { Node } from "../../tree/node.ts";
import { projectGraphQL, type ProjectGraphQLOptions } from "./projection.ts";
import type { ProjectGraphQLResult } from "./projection.ts";
import { inputTypesOf, leafResolver, subscriptionResolver } from "./_resolve.ts";
import { eventPayload } from "./stream_events.ts";
import { clientError } from "./errors.ts";
import type { ResolveOptions } from "./errors.ts";
import { scalarImplementations } from "./scalars.ts";
import { taskResolvers } from "./_task_resolve.ts";

/**
 * A resolver map: type name to field resolvers (or a scalar implementation).
 *
 * @example
 * ```ts
 * import type { ResolverMap } from "@ramify/api/graphql";
 *
 * const resolvers: ResolverMap = { Query: { ping: () => "pong" } };
 * ```
 */
export type ResolverMap = Record<string, Record<string, unknown> | GraphQLScalarType>;

/**
 * Options of {@linkcode createResolver}: the projection's, the failures' and the leaves' deadline.
 *
 * @example
 * ```ts
 * import { graphqlErrors, type CreateResolverOptions } from "@ramify/api/graphql";
 *
 * const opts: CreateResolverOptions = { errors: graphqlErrors({ NotFound: "NOT_FOUND" }) };
 * ```
 */
export interface CreateResolverOptions extends ProjectGraphQLOptions, ResolveOptions {}

/**
 * The resolver map of a tree, matching `toSDL(tree, opts)`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createResolver } from "@ramify/api/graphql";
 *
 * const resolvers = createResolver(api({ books: api({ list: op(() => []) }) }));
 * console.log(Object.keys(resolvers)); // ["Query", "BooksQuery", "JSON"]
 * ```
 */
export function createResolver(tree: Node, opts: CreateResolverOptions = {}): ResolverMap {
  return resolversOf(projectGraphQL(tree, opts), opts);
}

const NAMESPACE = Object.freeze({});

/** The resolver map of a projection. */
export function resolversOf(projection: ProjectGraphQLResult, opts: ResolveOptions): ResolverMap {
  const map: Record<string, Record<string, unknown>> = {};
  const on = (type: string) => map[type] ??= {};
  const inputs = inputTypesOf(projection.types.definitions);
  const toClient = clientError(opts);
  const tasks = projection.tasks.length > 0
    ? taskResolvers(opts, inputs, toClient, projection.fields)
    : undefined;
  for (const namespace of projection.namespaces) {
    on(namespace.parent)[namespace.name] = () => NAMESPACE;
  }
  for (const field of projection.fields) {
    if (field.kind === "subscription") {
      on("Subscription")[field.name] = {
        subscribe: subscriptionResolver(field, opts, inputs, toClient),
        resolve: (payload: unknown, _args: unknown, context: unknown) => {
          const value = eventPayload(payload, context);
          return field.voidResult ? true : value;
        },
      };
    } else {
      on(field.parent)[field.name] = tasks !== undefined && field.longRunning === true
        ? tasks.start(field)
        : leafResolver(field, opts, inputs, toClient);
    }
  }
  if (tasks !== undefined) {
    on("Query").task = tasks.get;
    on("Mutation").cancelTask = tasks.cancel;
    on("Mutation").answerTask = tasks.answer;
    on("Subscription").task = tasks.watch;
  }
  for (const definition of projection.types.definitions) {
    if (definition.kind === "object") {
      // A property renamed to be a GraphQL name is read under its own name.
      for (const field of definition.fields) {
        const key = field.key;
        if (key !== undefined && key !== field.name) {
          on(definition.name)[field.name] = (parent: Record<string, unknown>) => parent[key];
        }
      }
    }
    if (definition.kind === "union") {
      on(definition.name).__resolveType = (value: unknown) =>
        projection.types.resolveUnion(definition.name, value) ?? null;
    }
  }
  const scalars: ResolverMap = {};
  const used = new Set(projection.types.definitions.map((d) => d.name));
  for (const [name, scalar] of Object.entries(scalarImplementations())) {
    if (used.has(name)) scalars[name] = scalar;
  }
  return { ...map, ...scalars };
}
