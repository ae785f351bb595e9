/**
 * The HTTP projection: route derivation, the routers, `createFetch`, OpenAPI,
 * problem responses and the verb bundles.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createFetch, http } from "@ramify/api/http";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }));
 * console.log((await handler(new Request("http://localhost/ping"))).status); // 200
 * ```
 *
 * @module
 */
export { http } from "./verbs.ts";
export type { HttpHelpers, MoveBundle, VerbBundle } from "./verbs.ts";
export { listOperations } from "./route/route.ts";
export type { HttpOperation, HttpRoute, ResponseKind } from "./route/route.ts";
export type { TreeStep } from "../tree/node.ts";
export { createFetch } from "./server/fetch.ts";
export type { CreateFetchOptions } from "./server/fetch.ts";
export { createRouter } from "./server/router.ts";
export type { FetchHandler, RouterOptions } from "./server/router.ts";
export {
  compiledCharMatcher,
  compiledCharRouter,
  radixMatcher,
  radixRouter,
  toRouter,
  trieMatcher,
} from "./server/matchers/mod.ts";
export type {
  MatcherStrategy,
  PathMatch,
  PathMatcher,
  PatternSegment,
  RouteDefinition,
} from "./server/matchers/mod.ts";
export { HttpError } from "./web/problem.ts";
export { auth } from "./web/auth.ts";
export type { AuthOptions, CredentialSource } from "./web/auth.ts";
export type { HttpErrorOptions, Problem } from "./web/problem.ts";
export { corsPolicy, withCors } from "./web/cors.ts";
export type { CorsOptions, CorsPolicy } from "./web/cors.ts";
export { tokenBucket } from "./web/rate_limit.ts";
export type { RateLimit, RateLimiter, TokenBucketOptions } from "./web/rate_limit.ts";
export { toOpenApi, toOpenApiFromRoute } from "./openapi/openapi.ts";
export type { OpenApiDocument, OpenApiOperation, OpenApiOptions } from "./openapi/openapi.ts";
export { ClientError } from "./client/client_error.ts";
export { safe } from "./client/safe.ts";
export type { Outcome } from "./client/safe.ts";
export type { ClientErrorInit } from "./client/client_error.ts";
export type {
  CallOptions,
  ClientExtension,
  ClientOperation,
  ClientRequest,
  Send,
} from "./client/extension.ts";
export { createClient, createClientFromRoute } from "./client/client.ts";
export { toClientManifest } from "./client/to_manifest.ts";
export type { ClientManifest, ManifestOperation } from "./client/manifest.ts";
export type { ClientTransportOptions } from "./client/remote.ts";
export type { ClientOptions, FetchLike } from "./client/client.ts";
export type {
  AllOptional,
  CallInput,
  ChildrenClient,
  Client,
  ClientErrorFrom,
  ClientErrorOf,
  ClientPromise,
  DeclaredClientError,
  DeclaredDataOf,
  DynamicClient,
  ErrorsOf,
  FallbackClient,
  JsonOf,
  LeafClient,
  ReceivedOf,
  ResultOf,
} from "./client/client_types.ts";
