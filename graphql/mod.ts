/**
 * The GraphQL projection: one walk of the tree (`projectGraphQL`) gives the SDL
 * (`toSDL`), an executable schema (`toSchema`), a resolver map for any executor
 * (`createResolver`), a server (`createGraphQLServer`) and its HTTP transport
 * (`createHttpGraphQLServer`), with failures rendered as the tree classifies
 * them (`graphqlErrors` exposes a fault) and the JSON Schema to GraphQL type
 * conversion (`toGraphQL`, `toGraphQLType`).
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
  FILE_SCALAR,
  GraphQLTypeRegistry,
  JSON_SCALAR,
  toGraphQLType,
} from "./schema/types.ts";
export { scalarImplementations } from "./schema/scalars.ts";
export type { ArgumentDefinition, FieldDefinition, NamedTypeDefinition } from "./schema/types.ts";
export { projectGraphQL } from "./schema/projection.ts";
export type {
  GraphQLLeafField,
  GraphQLNamespace,
  GraphQLTaskField,
  OperationKind,
  ProjectGraphQLOptions,
  ProjectGraphQLResult,
} from "./schema/projection.ts";
export { toGraphQL, toSDL } from "./schema/sdl.ts";
export { toSchema } from "./schema/executable.ts";
export type { ToSchemaOptions } from "./schema/executable.ts";
export { createResolver } from "./schema/resolvers.ts";
export type { CreateResolverOptions, ResolverMap } from "./schema/resolvers.ts";
export { graphqlErrors } from "./schema/errors.ts";
export type { ErrorMapper, ErrorMapping, ResolveOptions } from "./schema/errors.ts";
export { createGraphQLServer } from "./execution/server.ts";
export type {
  GraphQLLimits,
  GraphQLRequest,
  GraphQLServer,
  GraphQLServerOptions,
  GraphQLServerStats,
  PreparedDocument,
  TrustedDocumentsOptions,
} from "./execution/server.ts";
export { createHttpGraphQLServer } from "./transport/http.ts";
export type {
  HttpGraphQLServerOptions,
  HttpGraphQLTransportOptions,
} from "./transport/http_options.ts";
export { buildDocument } from "./client/document.ts";
export type { BuildDocumentOptions, BuiltDocument } from "./client/document.ts";
export { createGraphQLClient } from "./client/client.ts";
export type { GraphQLClientOptions } from "./client/client.ts";
export { toGraphQLClientManifest } from "./client/to_manifest.ts";
export { serverTransport } from "./client/transports.ts";
export { generateGraphQLClient } from "./client/generate.ts";
export { toTrustedDocuments } from "./client/trusted_documents.ts";
export type { GenerateGraphQLClientOptions } from "./client/generate.ts";
