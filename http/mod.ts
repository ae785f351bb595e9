/**
 * The HTTP projection: route derivation, the routers, `createFetch`, OpenAPI,
 * auth, CORS, rate limits and the typed client of a tree, with `ClientError`,
 * what it throws. The verb bundles live at `@ramify/api/http/verbs`,
 * `HttpError` at `@ramify/api/tree`, the client's types at `@ramify/api/client`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { createFetch } from "@ramify/api/http";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }));
 * console.log((await handler(new Request("http://localhost/ping"))).status); // 200
 * ```
 *
 * @module
 */
export { listOperations } from "../route/route.ts";
export type { HttpOperation, HttpRoute, ResponseKind } from "../route/route.ts";
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
export { auth } from "../web/auth.ts";
export type { AuthOptions, CredentialSource } from "../web/auth.ts";
export { protectedResourceAnswer } from "../web/protected_resource.ts";
export { applyPolicies, checkPolicies, withHeaders } from "../web/edge.ts";
export type { EdgeHandler, EdgeSurface, Policy, Refusal } from "../web/edge.ts";
export { cors, corsPolicy, withCors } from "../web/cors.ts";
export type { CorsOptions, CorsPolicy } from "../web/cors.ts";
// A `reply()`'s cookie as the header HTTP sends: for servers of their own.
export { setCookieValue } from "../web/respond.ts";
export { rateLimit, tokenBucket } from "../web/rate_limit.ts";
export type {
  RateDecision,
  RateLimit,
  RateLimiter,
  RatePolicy,
  TokenBucketOptions,
} from "../web/rate_limit.ts";
export { memoryIdempotency } from "../web/idempotency.ts";
export type {
  IdempotencyState,
  IdempotencyStore,
  MemoryIdempotencyOptions,
  StoredAnswer,
} from "../web/idempotency.ts";
export type { IdempotencyOptions } from "./server/idempotency.ts";
export { toOpenApi, toOpenApiFromRoute } from "./openapi/openapi.ts";
export type { OpenApiDocument, OpenApiOperation, OpenApiOptions } from "./openapi/openapi.ts";
// The typed client of a tree and what it throws (DESIGN.md: `./http` holds
// `ClientError`). Its types (`Client`), `safe`, extensions and the manifest's
// format live at `@ramify/api/client`.
export { createClient, createClientFromRoute } from "../client/client.ts";
export type { ClientOptions } from "../client/client.ts";
export { ClientError } from "../client/client_error.ts";
export type { ClientErrorInit } from "../client/client_error.ts";
export { toClientManifest } from "../client/to_manifest.ts";
