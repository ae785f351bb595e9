/**
 * A path matcher compiled to JavaScript: the definitions are arranged in a
 * segment trie, and the trie is emitted as a specialised function with
 * `new Function` (large subtrees become helper functions it calls).
 *
 * Each trie position becomes straight-line code: find the segment end with
 * `indexOf("/")`, `switch` on the segment's first character code, compare the
 * segment's length and text against the static labels, then try the param
 * branch. Backtracking is free: a failed static branch simply falls through to
 * the param code that follows it. Param values are sliced only when a match is
 * returned, from index variables that are in scope at that point, so a failed
 * branch allocates nothing.
 *
 * Why it is not the default: it needs `new Function`, which a strict Content
 * Security Policy forbids, and in our benchmark it does not beat the trie,
 * whose per-node work is about the same without the generated code. Static labels enter the generated source only as
 * `JSON.stringify` literals and route values are passed in as data, so nothing
 * from a request or a value ever becomes code.
 *
 * @module
 */

import type { MatcherStrategy, PathMatch, PathMatcher, RouteDefinition } from "../types.ts";
import { checkStatic, duplicate } from "../checks.ts";

/** Shared by every static match so that static hits allocate nothing. */
const NO_PARAMS: readonly string[] = Object.freeze([]);

/** A trie position as the generator sees it. */
interface Position {
  readonly statics: Map<string, Position>;
  param: Position | null;
  /** Index into the value table of the definition ending here, or -1. */
  index: number;
  /** Whether the path to here contains a param. */
  readonly dynamic: boolean;
}

function position(dynamic: boolean): Position {
  return { statics: new Map(), param: null, index: -1, dynamic };
}

/**
 * A subtree whose source is larger than this goes into a helper function: V8's
 * optimising compiler skips very large functions, so one function for a few
 * hundred routes would never leave the baseline tiers. (A single node with
 * hundreds of children still makes one large function.)
 */
const SPLIT_SIZE = 6_000;

/** Generates the body of the matcher factory: helper functions, then `match`. */
function generate(root: Position): string {
  const helpers: string[] = [];

  /**
   * The code for the children of `node`; the segment being matched starts at
   * `s{depth}`. `captures` lists the depths whose segments are params so far.
   */
  const children = (node: Position, depth: number, captures: readonly number[]): string => {
    const s = `s${depth}`;
    const e = `e${depth}`;
    let code = `let ${e} = path.indexOf("/", ${s});\nif (${e} === -1) ${e} = n;\n`;
    // Empty segments match nothing.
    code += `if (${e} !== ${s}) {\n`;
    if (node.statics.size > 0) {
      const byCode = new Map<number, [string, Position][]>();
      for (const entry of node.statics) {
        const first = entry[0].charCodeAt(0);
        byCode.set(first, [...byCode.get(first) ?? [], entry]);
      }
      code += `const l${depth} = ${e} - ${s};\nswitch (path.charCodeAt(${s})) {\n`;
      for (const [first, entries] of byCode) {
        code += `case ${first}:\n`;
        // Labels are distinct: at most one can equal the segment, hence `else if`.
        code += entries.map(([label, next]) =>
          `if (l${depth} === ${label.length} && path.startsWith(${
            JSON.stringify(label)
          }, ${s})) {\n${child(next, depth, captures)}}`
        ).join(" else ");
        code += "\nbreak;\n";
      }
      code += "}\n";
    }
    if (node.param !== null) code += `{\n${child(node.param, depth, [...captures, depth])}}\n`;
    return code + "}\n";
  };

  /** The code for `next`, entered by the segment `s{depth}`..`e{depth}`. */
  const child = (next: Position, depth: number, captures: readonly number[]): string => {
    let code = "";
    if (next.index !== -1) {
      const result = next.dynamic
        ? `{ value: V[${next.index}], params: [${
          captures.map((d) => `path.slice(s${d}, e${d})`).join(", ")
        }] }`
        : `S[${next.index}]`;
      code += `if (e${depth} === n) return ${result};\n`;
    }
    if (next.statics.size > 0 || next.param !== null) {
      const inner = children(next, depth + 1, captures);
      if (inner.length > SPLIT_SIZE) {
        // The helper gets the segment start and every param's bounds it may return.
        const bounds = captures.flatMap((d) => [`s${d}`, `e${d}`]);
        const name = `f${helpers.length}`;
        helpers.push(
          `function ${name}(${["path", "n", `s${depth + 1}`, ...bounds].join(", ")}) {\n` +
            `${inner}return undefined;\n}\n`,
        );
        code += `if (e${depth} !== n) {\nconst r = ${name}(${
          ["path", "n", `e${depth} + 1`, ...bounds].join(", ")
        });\nif (r !== undefined) return r;\n}\n`;
      } else {
        code += `if (e${depth} !== n) {\nconst s${depth + 1} = e${depth} + 1;\n${inner}}\n`;
      }
    }
    return code;
  };

  const main = children(root, 0, []);
  return `"use strict";
${helpers.join("")}return function match(path) {
const n = path.length;
if (n === 0 || path.charCodeAt(0) !== 47) return undefined;
${root.index === -1 ? "" : `if (n === 1) return S[${root.index}];\n`}const s0 = 1;
${main}return undefined;
};`;
}

/**
 * A {@link MatcherStrategy} that compiles the definitions into specialised
 * JavaScript (`new Function`), with static labels as `JSON.stringify`
 * literals and params as index bookkeeping. Requires an environment that
 * allows code generation.
 *
 * @example
 * ```ts
 * import { compiledCharMatcher } from "./matcher.ts";
 *
 * const matcher = compiledCharMatcher([
 *   { segments: [{ kind: "static", value: "a" }, { kind: "static", value: "b" }], value: 1 },
 *   { segments: [{ kind: "static", value: "a" }, { kind: "param", name: "x" }], value: 2 },
 * ]);
 * console.log(matcher.match("/a/b")); // { value: 1, params: [] }
 * console.log(matcher.match("/a/c")); // { value: 2, params: ["c"] }
 * ```
 */
export const compiledCharMatcher: MatcherStrategy = <T>(
  definitions: readonly RouteDefinition<T>[],
): PathMatcher<T> => {
  const root = position(false);
  const values: T[] = [];
  const statics: PathMatch<T>[] = [];
  for (const { segments, value } of definitions) {
    let node = root;
    for (const segment of segments) {
      if (segment.kind === "param") {
        node.param ??= position(true);
        node = node.param;
      } else {
        checkStatic(segment.value);
        let child = node.statics.get(segment.value);
        if (child === undefined) {
          child = position(node.dynamic);
          node.statics.set(segment.value, child);
        }
        node = child;
      }
    }
    if (node.index !== -1) throw duplicate(segments);
    if (node.dynamic) {
      node.index = values.length;
      values.push(value);
    } else {
      node.index = statics.length;
      statics.push(Object.freeze({ value, params: NO_PARAMS }));
    }
  }
  const match = new Function("V", "S", generate(root))(values, statics) as PathMatcher<T>["match"];
  return { match };
};
