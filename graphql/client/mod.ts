/**
 * The browser's typed GraphQL client: `createGraphQLClientFromManifest<typeof
 * tree>(manifest, { transport })` takes the tree only as a type, and a plain
 * data manifest (from `toGraphQLClientManifest(tree)` in `@ramify/api/graphql`,
 * written to a module by a build step) for the documents. Nothing of the
 * server is imported, nor the `graphql` package.
 *
 * @example
 * ```ts
 * import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
 * import { api, op } from "@ramify/api/tree"; // in the app: `import type { tree }`
 * import { createHttpGraphQLServer, toGraphQLClientManifest } from "@ramify/api/graphql";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const client = createGraphQLClientFromManifest<typeof tree>(toGraphQLClientManifest(tree), {
 *   transport: httpTransport({ url: "http://localhost/graphql", fetch: createHttpGraphQLServer(tree) }),
 * });
 * console.log(await client.ping()); // "pong"
 * ```
 *
 * @module
 */

export { createGraphQLClientFromManifest } from "./remote.ts";
export { GraphQLClientError } from "./remote.ts";
export type {
  GraphQLOperation,
  GraphQLResponse,
  GraphQLTransport,
  GraphQLTransportOptions,
} from "./remote.ts";
export type {
  GraphQLClientManifest,
  GraphQLManifestOperation,
  GraphQLManifestType,
} from "./manifest.ts";
export { httpTransport, wsTransport } from "./transports.ts";
export type { HttpTransportOptions, WsClientLike } from "./transports.ts";
export { safeGraphQL } from "./safe.ts";
export type { GraphQLClientErrorFrom } from "./safe.ts";
