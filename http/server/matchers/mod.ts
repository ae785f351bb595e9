/**
 * The three routers. Each compiles an `HttpRoute` into a fetch handler; they
 * differ only in how they match paths, never in what they answer.
 *
 * - `toRouter`, the default and fastest: a segment trie walked in place over
 *   the path string, with backtracking; never uses `eval`, so it runs under a
 *   strict Content Security Policy.
 * - `radixRouter`: a character-level compressed radix tree.
 * - `compiledCharRouter`: generates a specialised matcher with `new Function`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { radixRouter } from "@ramify/api/http";
 *
 * const handle = radixRouter(httpProjection(api({ ping: op(() => "pong", http.get) })));
 * console.log((await handle(new Request("http://localhost/ping"))).status); // 200
 * ```
 *
 * @module
 */

import type { HttpRoute } from "../../../route/route.ts";
import { createRouter, type FetchHandler, type RouterOptions } from "../router.ts";
import { trieMatcher } from "./trie/matcher.ts";
import { radixMatcher } from "./radix/matcher.ts";
import { compiledCharMatcher } from "./compiled/matcher.ts";

/**
 * The default router: a segment trie walked in place over the path string,
 * static before capture, with backtracking. No code generation.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { toRouter } from "@ramify/api/http";
 *
 * const handle = toRouter(httpProjection(api({ add: op(({ a, b }: { a: number; b: number }) => a + b) })));
 * const response = await handle(
 *   new Request("http://localhost/add", {
 *     method: "POST",
 *     headers: { "content-type": "application/json" },
 *     body: JSON.stringify({ a: 1, b: 2 }),
 *   }),
 * );
 * console.log(await response.json()); // 3
 * ```
 */
export function toRouter(route: HttpRoute, opts?: RouterOptions): FetchHandler {
  return createRouter(route, trieMatcher, opts);
}

/**
 * A router over a character-level compressed radix tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { radixRouter } from "@ramify/api/http";
 *
 * const handle = radixRouter(httpProjection(api({ add: op(() => 1) })));
 * ```
 */
export function radixRouter(route: HttpRoute, opts?: RouterOptions): FetchHandler {
  return createRouter(route, radixMatcher, opts);
}

/**
 * A router whose matcher is generated JavaScript (`new Function`); not for
 * environments that forbid code generation.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { compiledCharRouter } from "@ramify/api/http";
 *
 * const handle = compiledCharRouter(httpProjection(api({ add: op(() => 1) })));
 * ```
 */
export function compiledCharRouter(route: HttpRoute, opts?: RouterOptions): FetchHandler {
  return createRouter(route, compiledCharMatcher, opts);
}

export { compiledCharMatcher, radixMatcher, trieMatcher };
export type {
  MatcherStrategy,
  PathMatch,
  PathMatcher,
  PatternSegment,
  RouteDefinition,
} from "./types.ts";
