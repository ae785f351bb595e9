/**
 * A character-level radix tree path matcher (the family of find-my-way and
 * memoirist).
 *
 * Each definition becomes a pattern text such as `/books/` + param +
 * `/comments`. The static text of all patterns is stored in a prefix-compressed
 * tree: an edge holds the longest run of characters its routes share, and a
 * node's static children are told apart by their first character code. A param
 * child hangs off the node whose text ends with `/` and consumes one non-empty
 * segment.
 *
 * Why keep it next to the default trie: it is the reference for what the
 * character-level design of popular routers costs with our matching rules
 * (static first, backtracking, raw params). It can only win where many routes
 * share long prefixes that span segments; on an API-shaped table it measures
 * slower than the trie (see `BENCHMARKS.md`). Like the trie it never generates
 * code, and param values are sliced only once a match is found.
 *
 * @module
 */

import type { MatcherStrategy, PathMatch, PathMatcher, RouteDefinition } from "../types.ts";
import { checkStatic, duplicate } from "../checks.ts";

/** Boxes a value so that a definition whose value is `undefined` still counts. */
interface Slot<T> {
  readonly value: T;
  /** How many params the route has: the number of marks a match leaves. */
  readonly count: number;
}

/** One tree node; `prefix` is the edge text leading into it. */
class RadixNode<T> {
  prefix: string;
  /** First character codes of the static children, index for index with `kids`. */
  codes: number[] = [];
  kids: RadixNode<T>[] = [];
  /** The child that consumes one non-empty segment; its prefix is empty. */
  param: RadixNode<T> | null = null;
  /** The definition ending here. */
  slot: Slot<T> | null = null;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  /** The node at the end of `text` below this one, splitting edges as needed. */
  insert(text: string): RadixNode<T> {
    if (text === "") return this;
    const index = this.codes.indexOf(text.charCodeAt(0));
    if (index === -1) {
      const node = new RadixNode<T>(text);
      this.codes.push(text.charCodeAt(0));
      this.kids.push(node);
      return node;
    }
    let child = this.kids[index];
    const common = commonLength(child.prefix, text);
    if (common < child.prefix.length) {
      // Split the edge: a new node takes the shared part, the old one keeps the rest.
      const upper = new RadixNode<T>(child.prefix.slice(0, common));
      child.prefix = child.prefix.slice(common);
      upper.codes.push(child.prefix.charCodeAt(0));
      upper.kids.push(child);
      this.kids[index] = upper;
      child = upper;
    }
    return child.insert(text.slice(common));
  }
}

function commonLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Finds the definition below `node` (whose prefix ends at `i`), static edges
 * first, then the param child. Each param's start and end go to `marks` at
 * `2 * count`; a failed branch may leave stale marks beyond its caller's
 * count, which later params overwrite.
 */
function find<T>(
  node: RadixNode<T>,
  path: string,
  i: number,
  count: number,
  marks: Int32Array,
): Slot<T> | null {
  const length = path.length;
  descend: for (;;) {
    if (i === length) return node.slot;
    const param = node.param;
    const code = path.charCodeAt(i);
    const codes = node.codes;
    for (let k = 0; k < codes.length; k++) {
      if (codes[k] !== code) continue;
      const child = node.kids[k];
      if (path.startsWith(child.prefix, i)) {
        if (param === null) {
          // No param alternative here: follow the edge without recursion.
          node = child;
          i += child.prefix.length;
          continue descend;
        }
        const found = find(child, path, i + child.prefix.length, count, marks);
        if (found !== null) return found;
      }
      // First characters are distinct: no other static edge can match.
      break;
    }
    if (param === null) return null;
    let end = path.indexOf("/", i);
    if (end === -1) end = length;
    // A param never matches an empty segment.
    if (end === i) return null;
    marks[count * 2] = i;
    marks[count * 2 + 1] = end;
    count++;
    node = param;
    i = end;
  }
}

/**
 * A {@link MatcherStrategy} backed by a character-level, prefix-compressed
 * radix tree with backtracking from static edges to params. No code generation.
 *
 * @example
 * ```ts
 * import { radixMatcher } from "./matcher.ts";
 *
 * const matcher = radixMatcher([
 *   { segments: [{ kind: "static", value: "user" }], value: "user" },
 *   { segments: [{ kind: "static", value: "users" }, { kind: "param", name: "id" }], value: "one" },
 * ]);
 * console.log(matcher.match("/users/7")); // { value: "one", params: ["7"] }
 * console.log(matcher.match("/use")); // undefined
 * ```
 */
export const radixMatcher: MatcherStrategy = <T>(
  definitions: readonly RouteDefinition<T>[],
): PathMatcher<T> => {
  const root = new RadixNode<T>("");
  let most = 0;
  for (const { segments, value } of definitions) {
    let node = root;
    let count = 0;
    // Static text accumulates until a param (or the end) forces an insert.
    let text = "/";
    for (let s = 0; s < segments.length; s++) {
      const segment = segments[s];
      if (s > 0) text += "/";
      if (segment.kind === "param") {
        count++;
        node = node.insert(text);
        node.param ??= new RadixNode<T>("");
        node = node.param;
        text = "";
      } else {
        checkStatic(segment.value);
        text += segment.value;
      }
    }
    node = node.insert(text);
    if (node.slot !== null) throw duplicate(segments);
    node.slot = { value, count };
    most = Math.max(most, count);
  }
  // Reused by every match: matching is synchronous, so calls never overlap.
  const marks = new Int32Array(most * 2);
  return {
    match(path: string): PathMatch<T> | undefined {
      const slot = find(root, path, 0, 0, marks);
      if (slot === null) return undefined;
      const params = new Array<string>(slot.count);
      for (let i = 0; i < params.length; i++) {
        params[i] = path.slice(marks[i * 2], marks[i * 2 + 1]);
      }
      return { value: slot.value, params };
    },
  };
};
