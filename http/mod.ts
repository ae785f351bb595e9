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
export { listOperations } from "./route.ts";
export type { HttpOperation, HttpRoute, ResponseKind, TreeStep } from "./route.ts";
export { createFetch } from "./fetch.ts";
export type { CreateFetchOptions } from "./fetch.ts";
export { createRouter } from "./dispatch.ts";
export type { FetchHandler, RouterOptions } from "./dispatch.ts";
export {
  compiledCharMatcher,
  compiledCharRouter,
  radixMatcher,
  radixRouter,
  toRouter,
  trieMatcher,
} from "./router/mod.ts";
export type {
  MatcherStrategy,
  PathMatch,
  PathMatcher,
  PatternSegment,
  RouteDefinition,
} from "./router/mod.ts";
export { HttpError } from "./problem.ts";
export type { HttpErrorOptions, Problem } from "./problem.ts";
export { corsPolicy } from "./cors.ts";
export type { CorsOptions, CorsPolicy } from "./cors.ts";
export { toOpenApi, toOpenApiFromRoute } from "./openapi.ts";
export type { OpenApiDocument, OpenApiOperation, OpenApiOptions } from "./openapi.ts";
export { ClientError } from "./client_error.ts";
export type { ClientErrorInit } from "./client_error.ts";
export type {
  CallOptions,
  ClientExtension,
  ClientOperation,
  ClientRequest,
  Send,
} from "./extension.ts";
export { createClient, createClientFromRoute } from "./client.ts";
export type {
  AllOptional,
  CallInput,
  ChildrenClient,
  Client,
  ClientOptions,
  DynamicClient,
  FallbackClient,
  FetchLike,
  LeafClient,
  ResultOf,
} from "./client.ts";
