/**
 * The default path matcher: a hash map for fully static routes plus a segment
 * trie for the routes with params.
 *
 * Why this shape:
 *
 * - Most traffic in a typical API hits either a static route or a route whose
 *   params sit between static segments. A static route is answered by one `Map`
 *   lookup on the whole pathname and returns a shared, frozen match, so it costs
 *   no allocation at all.
 * - Routes with params live in a trie keyed by whole segments. The walk scans
 *   the pathname by index (`indexOf("/")`) instead of splitting it, so the only
 *   strings it creates are the segments it has to look up in a large fan-out and
 *   the param values it returns. Small fan-outs are compared in place.
 * - Only positions that have both static children and a param child can
 *   backtrack; everywhere else the walk is a plain loop.
 * - It never generates code, so it runs where `eval` and `new Function` are
 *   forbidden (for example under a strict Content Security Policy).
 *
 * @module
 */

import type { MatcherStrategy, PathMatch, PathMatcher, RouteDefinition } from "../types.ts";

/** Shared by every static match so that static hits allocate nothing. */
const NO_PARAMS: readonly string[] = Object.freeze([]);

/**
 * Up to this many static children are compared in place (length check, then
 * `startsWith`); beyond it a `Map` lookup on the segment wins.
 */
const SCAN_LIMIT = 6;

/** Boxes a value so that a definition whose value is `undefined` still counts. */
interface Slot<T> {
  readonly value: T;
}

/** One trie position. Every node has the same shape to keep property access monomorphic. */
class TrieNode<T> {
  /** Static child labels when the fan-out is small, scanned in order. */
  labels: string[] = [];
  /** The children matching `labels`, index for index. */
  kids: TrieNode<T>[] = [];
  /** Static children by label once the fan-out exceeds {@link SCAN_LIMIT}. */
  table: Map<string, TrieNode<T>> | null = null;
  /** The child matched by any non-empty segment. */
  param: TrieNode<T> | null = null;
  /** The definition ending here. */
  slot: Slot<T> | null = null;

  child(label: string): TrieNode<T> {
    const index = this.labels.indexOf(label);
    if (index !== -1) return this.kids[index];
    const node = new TrieNode<T>();
    this.labels.push(label);
    this.kids.push(node);
    if (this.labels.length > SCAN_LIMIT) {
      this.table = new Map(this.labels.map((l, i) => [l, this.kids[i]]));
    }
    return node;
  }
}

/**
 * Finds the definition below `node` for the segments of `path` from `start`
 * (the index just after a `/`), static first, pushing param values on
 * `params`. A failed walk may leave stray values behind; each branch point
 * truncates them before trying its param child.
 */
function walk<T>(
  node: TrieNode<T>,
  path: string,
  start: number,
  params: string[],
): Slot<T> | null {
  const length = path.length;
  for (;;) {
    let end = path.indexOf("/", start);
    if (end === -1) end = length;
    const size = end - start;
    // Empty segments (`//`, a trailing slash) match nothing.
    if (size === 0) return null;
    const param = node.param;
    let next: TrieNode<T> | undefined;
    let segment: string | undefined;
    if (node.table !== null) {
      segment = path.slice(start, end);
      next = node.table.get(segment);
    } else {
      const labels = node.labels;
      for (let i = 0; i < labels.length; i++) {
        const label = labels[i];
        if (label.length === size && path.startsWith(label, start)) {
          next = node.kids[i];
          break;
        }
      }
    }
    if (next !== undefined) {
      if (param === null) {
        // No param alternative here: nothing to come back to.
        if (end === length) return next.slot;
        node = next;
        start = end + 1;
        continue;
      }
      const depth = params.length;
      const found = end === length ? next.slot : walk(next, path, end + 1, params);
      if (found !== null) return found;
      params.length = depth;
    }
    if (param === null) return null;
    params.push(segment ?? path.slice(start, end));
    if (end === length) return param.slot;
    node = param;
    start = end + 1;
  }
}

/**
 * The default {@link MatcherStrategy}: a `Map` for fully static routes and a
 * segment trie with backtracking for routes with params. No code generation.
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
  const statics = new Map<string, PathMatch<T>>();
  const root = new TrieNode<T>();
  for (const { segments, value } of definitions) {
    let node = root;
    let key = "";
    let dynamic = false;
    for (const segment of segments) {
      if (segment.kind === "param") {
        dynamic = true;
        node.param ??= new TrieNode<T>();
        node = node.param;
      } else {
        checkStatic(segment.value);
        key += "/" + segment.value;
        node = node.child(segment.value);
      }
    }
    if (dynamic) {
      // Static-only routes stay out of the trie: the map answers them first.
      if (node.slot !== null) throw duplicate(segments);
      node.slot = { value };
    } else {
      key ||= "/";
      if (statics.has(key)) throw duplicate(segments);
      statics.set(key, Object.freeze({ value, params: NO_PARAMS }));
    }
  }
  return {
    match(path: string): PathMatch<T> | undefined {
      const hit = statics.get(path);
      if (hit !== undefined) return hit;
      // Not a pathname: rule 1 guarantees the leading slash the walk relies on.
      if (path.charCodeAt(0) !== 47) return undefined;
      const params: string[] = [];
      const slot = walk(root, path, 1, params);
      return slot === null ? undefined : { value: slot.value, params };
    },
  };
};

/** A static segment must be one non-empty path segment, or no path could equal it. */
function checkStatic(value: string): void {
  if (value === "" || value.includes("/")) {
    throw new TypeError(
      `Static segment ${JSON.stringify(value)} must be non-empty and contain no "/"`,
    );
  }
}

function duplicate(segments: RouteDefinition<unknown>["segments"]): TypeError {
  const shape = segments.map((s) => (s.kind === "static" ? s.value : `{${s.name}}`)).join("/");
  return new TypeError(`Two definitions share the shape /${shape}`);
}
