/**
 * The GraphQL projection: one walk of the tree (`projectGraphQL`) gives the SDL
 * (`toSDL`), an executable schema (`toSchema`), a resolver map for any executor
 * (`createResolver`), a server (`createGraphQLServer`) and its HTTP transport
 * (`createHttpGraphQLServer`), with error mapping (`graphqlErrors`) and the
 * JSON Schema to GraphQL type conversion (`toGraphQL`, `toGraphQLType`).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createGraphQLServer } from "@ramify/api/graphql";
 *
 * const server = createGraphQLServer(api({
 *   books: api({ list: op(() => [{ id: "1" }]) }),
 * }));
 * console.log((await server.execute({ query: "{ books { list } }" })).data);
 * // { books: { list: [{ id: "1" }] } }
 * ```
 *
 * @module
 */
export {
  argumentsOf,
  DATE_TIME_SCALAR,
  GraphQLTypeRegistry,
  JSON_SCALAR,
  scalarImplementations,
  toGraphQL,
  toGraphQLType,
} from "./types.ts";
export type { ArgumentDefinition, FieldDefinition, NamedTypeDefinition } from "./types.ts";
export { projectGraphQL } from "./projection.ts";
export type {
  GraphQLLeafField,
  GraphQLNamespace,
  OperationKind,
  ProjectGraphQLOptions,
  ProjectGraphQLResult,
} from "./projection.ts";
export { toSDL } from "./sdl.ts";
export { toSchema } from "./schema.ts";
export type { ToSchemaOptions } from "./schema.ts";
export { createResolver } from "./resolvers.ts";
export type { CreateResolverOptions, ResolverMap } from "./resolvers.ts";
export { graphqlErrors } from "./errors.ts";
export type { ErrorMapper, ErrorMapping, ResolveOptions } from "./errors.ts";
export { createGraphQLServer } from "./server.ts";
export type {
  GraphQLLimits,
  GraphQLRequest,
  GraphQLServer,
  GraphQLServerOptions,
  PreparedDocument,
} from "./server.ts";
export { createHttpGraphQLServer } from "./http.ts";
export type { HttpGraphQLContextFunction, HttpGraphQLServerOptions } from "./http.ts";
export { buildDocument } from "./document.ts";
export type { BuildDocumentOptions, BuiltDocument } from "./document.ts";
export { createGraphQLClient, GraphQLClientError } from "./client.ts";
export type {
  GraphQLClientOptions,
  GraphQLOperation,
  GraphQLResponse,
  GraphQLTransport,
} from "./client.ts";
export { httpTransport, serverTransport, wsTransport } from "./transports.ts";
export type { HttpTransportOptions, WsClientLike } from "./transports.ts";
export { generateGraphQLClient } from "./generate.ts";
export type { GenerateGraphQLClientOptions } from "./generate.ts";
