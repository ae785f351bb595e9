/**
 * The default path matcher: a segment trie, walked by index over the raw
 * pathname, with backtracking from static children to the param child.
 *
 * Why this shape:
 *
 * - Static children are bucketed by their first character code and compared in
 *   place (the character after the label must end the segment, then
 *   `startsWith`), so the walk never slices or hashes a segment; `indexOf("/")`
 *   runs only where a param has to find its end. A position whose children
 *   crowd one bucket (`r0` to `r499` share their first character) looks the
 *   segment up in a `Map` instead: one slice and one hash beat a scan of more
 *   than a few labels (500 siblings: 5.1 -> 1.8 µs per request).
 * - There is no `Map` keyed by the whole pathname, although that looks like the
 *   obvious fast path for static routes: a server gets every pathname as a new
 *   string, and hashing it costs more than walking the few static segments of a
 *   typical route (measured in `bench/router.bench.ts`).
 * - A route without params returns one shared, frozen match: no allocation.
 *   For the others, param positions go to a small per-matcher `Int32Array` and
 *   the param strings are sliced once a match is found, so failed branches
 *   allocate nothing.
 * - Only positions that have both static children and a param child can
 *   backtrack, by recursion; everywhere else the walk is a plain loop.
 * - It never generates code, so it runs where `eval` and `new Function` are
 *   forbidden (for example under a strict Content Security Policy).
 *
 * @module
 */

import type { MatcherStrategy, PathMatch, PathMatcher, RouteDefinition } from "../types.ts";
import { checkStatic, duplicate } from "../checks.ts";

/** Labels one bucket may hold before its position looks segments up in a `Map` instead. */
const CROWDED = 8;

/** Shared by every static match so that static hits allocate nothing. */
const NO_PARAMS: readonly string[] = Object.freeze([]);

/** A definition ending at a trie node. */
interface Slot<T> {
  readonly value: T;
  /** How many params the route has: the number of marks a match leaves. */
  readonly count: number;
  /** The one, shared match of a route without params. */
  readonly fixed: PathMatch<T> | null;
}

/** One trie position. Every node has the same shape to keep property access monomorphic. */
class TrieNode<T> {
  /** The static segment leading here (empty for the root and param nodes). */
  readonly label: string;
  /** Static children by label, while building. */
  readonly children = new Map<string, TrieNode<T>>();
  /** Static children bucketed by `firstCharCode & mask`, for matching; null when none or crowded. */
  buckets: TrieNode<T>[][] | null = null;
  /** `children` itself, for matching, when a bucket would hold more than `CROWDED` labels. */
  crowded: Map<string, TrieNode<T>> | null = null;
  mask = 0;
  /** The child matched by any non-empty segment. */
  param: TrieNode<T> | null = null;
  /** The definition ending here. */
  slot: Slot<T> | null = null;

  constructor(label: string) {
    this.label = label;
  }

  child(label: string): TrieNode<T> {
    let node = this.children.get(label);
    if (node === undefined) {
      node = new TrieNode<T>(label);
      this.children.set(label, node);
    }
    return node;
  }

  /** Builds the match-time buckets, once all definitions are in. */
  seal(): void {
    if (this.children.size > 0) {
      let capacity = 1;
      while (capacity < this.children.size) capacity *= 2;
      const buckets: TrieNode<T>[][] = Array.from({ length: capacity }, () => []);
      for (const [label, node] of this.children) {
        buckets[label.charCodeAt(0) & (capacity - 1)].push(node);
        node.seal();
      }
      if (buckets.some((bucket) => bucket.length > CROWDED)) {
        this.crowded = this.children;
      } else {
        this.buckets = buckets;
        this.mask = capacity - 1;
      }
    }
    this.param?.seal();
  }
}

/**
 * Finds the definition below `node` for the segments of `path` from `start`
 * (the index just after a `/`), static first, then param. Each param's start
 * and end go to `marks` at `2 * count`; a branch that fails may leave stale
 * marks beyond the count that its caller goes on with, which get overwritten.
 */
function walk<T>(
  node: TrieNode<T>,
  path: string,
  start: number,
  count: number,
  marks: Int32Array,
): Slot<T> | null {
  const length = path.length;
  descend: for (;;) {
    const param = node.param;
    const buckets = node.buckets;
    if (buckets !== null) {
      // At `length` (a trailing slash) charCodeAt is NaN, bucket 0: no label fits there.
      const bucket = buckets[path.charCodeAt(start) & node.mask];
      for (let i = 0; i < bucket.length; i++) {
        const next = bucket[i];
        const label = next.label;
        const end = start + label.length;
        // The label must fill the whole segment; checking its boundary first is cheap.
        if (end < length ? path.charCodeAt(end) !== 47 : end !== length) continue;
        if (!path.startsWith(label, start)) continue;
        if (param === null) {
          // No param alternative here: nothing to come back to.
          if (end === length) return next.slot;
          node = next;
          start = end + 1;
          continue descend;
        }
        const found = end === length ? next.slot : walk(next, path, end + 1, count, marks);
        if (found !== null) return found;
        // Labels are distinct: no other static child can match this segment.
        break;
      }
    } else if (node.crowded !== null) {
      let end = path.indexOf("/", start);
      if (end === -1) end = length;
      const next = node.crowded.get(path.slice(start, end));
      // A bucket's match, written out again: through shared variables, every
      // request's walk cost ~1% more (bench/serve/count.ts).
      if (next !== undefined) {
        if (param === null) {
          if (end === length) return next.slot;
          node = next;
          start = end + 1;
          continue descend;
        }
        const found = end === length ? next.slot : walk(next, path, end + 1, count, marks);
        if (found !== null) return found;
      }
    }
    if (param === null) return null;
    let end = path.indexOf("/", start);
    if (end === -1) end = length;
    // Empty segments (`//`, a trailing slash) match nothing.
    if (end === start) return null;
    marks[count * 2] = start;
    marks[count * 2 + 1] = end;
    count++;
    if (end === length) return param.slot;
    node = param;
    start = end + 1;
  }
}

/**
 * The default {@link MatcherStrategy}: a segment trie with in-place segment
 * comparison and backtracking from static to param. No code generation.
 *
 * @example
 * ```ts
 * import { trieMatcher } from "./matcher.ts";
 *
 * const matcher = trieMatcher([
 *   { segments: [{ kind: "static", value: "books" }, { kind: "static", value: "list" }], value: "list" },
 *   { segments: [{ kind: "static", value: "books" }, { kind: "param", name: "id" }], value: "read" },
 * ]);
 * console.log(matcher.match("/books/list")); // { value: "list", params: [] }
 * console.log(matcher.match("/books/42")); // { value: "read", params: ["42"] }
 * console.log(matcher.match("/books/42/")); // undefined
 * ```
 */
export const trieMatcher: MatcherStrategy = <T>(
  definitions: readonly RouteDefinition<T>[],
): PathMatcher<T> => {
  const root = new TrieNode<T>("");
  let most = 0;
  for (const { segments, value } of definitions) {
    let node = root;
    let count = 0;
    for (const segment of segments) {
      if (segment.kind === "param") {
        count++;
        node.param ??= new TrieNode<T>("");
        node = node.param;
      } else {
        checkStatic(segment.value);
        node = node.child(segment.value);
      }
    }
    if (node.slot !== null) throw duplicate(segments);
    node.slot = {
      value,
      count,
      fixed: count === 0 ? Object.freeze({ value, params: NO_PARAMS }) : null,
    };
    most = Math.max(most, count);
  }
  root.seal();
  // Reused by every match: matching is synchronous, so calls never overlap.
  const marks = new Int32Array(most * 2);
  return {
    match(path: string): PathMatch<T> | undefined {
      // Not a pathname: rule 1 guarantees the leading slash the walk relies on.
      if (path.charCodeAt(0) !== 47) return undefined;
      const slot = path.length === 1 ? root.slot : walk(root, path, 1, 0, marks);
      if (slot === null) return undefined;
      if (slot.fixed !== null) return slot.fixed;
      const params = new Array<string>(slot.count);
      for (let i = 0; i < params.length; i++) {
        params[i] = path.slice(marks[i * 2], marks[i * 2 + 1]);
      }
      return { value: slot.value, params };
    },
  };
};
