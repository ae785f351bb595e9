/**
 * The one small interface behind every router strategy: a path matcher compiled
 * from route definitions. The strategies (`trie`, `radix`, `compiled`) differ in
 * how they search, never in what they answer; one shared case suite and a
 * property test hold them to the same answers.
 *
 * Matching rules, for every strategy:
 *
 * 1. `path` is the raw pathname of a request: it starts with `/`, has no query,
 *    and is not percent-decoded. `/` is the root (zero segments); otherwise the
 *    segments are the parts between slashes.
 * 2. A static pattern segment matches a path segment that is equal to it,
 *    byte for byte (pattern values are given in wire form).
 * 3. A param pattern segment matches any non-empty segment. Empty segments (from
 *    `//` or a trailing slash) match nothing, so `/books/list/` does not match
 *    `/books/list`.
 * 4. Static beats param at every position, and matching backtracks: when the
 *    static branch fails deeper down, the param branch is tried.
 * 5. `params` holds the raw values of the param segments, in path order.
 * 6. Definitions have distinct shapes (the caller merges methods beforehand).
 *
 * @module
 */

/**
 * One segment of a route pattern.
 *
 * @example
 * ```ts
 * import type { PatternSegment } from "./types.ts";
 *
 * const segments: PatternSegment[] = [
 *   { kind: "static", value: "books" },
 *   { kind: "param", name: "bookId" },
 * ];
 * ```
 */
export type PatternSegment =
  | { readonly kind: "static"; readonly value: string }
  | { readonly kind: "param"; readonly name: string };

/**
 * A route pattern and the value its matches return.
 *
 * @example
 * ```ts
 * import type { RouteDefinition } from "./types.ts";
 *
 * const definition: RouteDefinition<string> = {
 *   segments: [{ kind: "static", value: "health" }],
 *   value: "health",
 * };
 * ```
 */
export interface RouteDefinition<T> {
  /** The pattern, root first; empty for `/`. */
  readonly segments: readonly PatternSegment[];
  /** What a match returns. */
  readonly value: T;
}

/**
 * A successful match.
 *
 * @example
 * ```ts
 * import type { PathMatch } from "./types.ts";
 *
 * const found: PathMatch<string> = { value: "book", params: ["42"] };
 * ```
 */
export interface PathMatch<T> {
  /** The matched definition's value. */
  readonly value: T;
  /** The raw (not decoded) values of the param segments, in path order. */
  readonly params: readonly string[];
}

/**
 * A compiled matcher.
 *
 * @example
 * ```ts
 * import type { PathMatcher } from "./types.ts";
 *
 * const never: PathMatcher<string> = { match: () => undefined };
 * ```
 */
export interface PathMatcher<T> {
  /** The match for a raw pathname, or `undefined` when nothing matches. */
  match(path: string): PathMatch<T> | undefined;
}

/**
 * A router strategy: compiles definitions into a matcher.
 *
 * @example
 * ```ts
 * import type { MatcherStrategy } from "./types.ts";
 *
 * const none: MatcherStrategy = () => ({ match: () => undefined });
 * ```
 */
export type MatcherStrategy = <T>(
  definitions: readonly RouteDefinition<T>[],
) => PathMatcher<T>;
