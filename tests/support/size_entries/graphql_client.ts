/**
 * What a browser app imports of the GraphQL client: the manifest-driven
 * client and its HTTP transport.
 *
 * @module
 */
export { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
