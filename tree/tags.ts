/**
 * The standard behavioural tags, their implications, and `mapNodes`, the
 * pre-order tree transform with which anything that must push tags down a tree
 * is done explicitly. Tags are never inherited from ancestors.
 *
 * @example Pushing a branch's tags down to its leaves, explicitly
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { mapNodes, tagsOf } from "@ramify/api/tree/tags";
 *
 * const tree = api({ list: op(() => []) }, { meta: { tags: { openWorld: true } } });
 * const pushed = mapNodes(tree, (node) =>
 *   node.handler ? { ...node, meta: { ...node.meta, tags: { ...node.meta?.tags, openWorld: true } } } : node
 * );
 * console.log(tagsOf(tree.children.list).openWorld); // undefined
 * console.log(tagsOf(pushed.children!.list).openWorld); // true
 * ```
 *
 * @module
 */

import type { Node, Tags } from "./node.ts";

/**
 * What a standard tag means and how it relates to the others.
 *
 * @example
 * ```ts
 * import { standardTags } from "@ramify/api/tree/tags";
 *
 * console.log(standardTags.readOnly.implies); // { idempotent: true }
 * ```
 */
export interface TagDefinition {
  /** What asserting the tag promises. */
  readonly description: string;
  /** Tags that asserting this one asserts too. */
  readonly implies: Tags;
  /** Tags that cannot be asserted together with this one. */
  readonly excludes: readonly StandardTag[];
}

/**
 * The name of a standard tag.
 *
 * @example
 * ```ts
 * import type { StandardTag } from "@ramify/api/tree/tags";
 *
 * const safe: StandardTag[] = ["readOnly", "idempotent"];
 * ```
 */
export type StandardTag =
  | "readOnly"
  | "idempotent"
  | "destructive"
  | "openWorld"
  | "streaming"
  | "longRunning";

/**
 * The six standard tags. Custom tags need no definition.
 *
 * @example
 * ```ts
 * import { standardTags } from "@ramify/api/tree/tags";
 *
 * console.log(Object.keys(standardTags));
 * // ["readOnly", "idempotent", "destructive", "openWorld", "streaming", "longRunning"]
 * ```
 */
export const standardTags: Readonly<Record<StandardTag, TagDefinition>> = Object
  .freeze({
    readOnly: {
      description: "No observable side effects; safe to call any number of times.",
      implies: { idempotent: true },
      excludes: ["destructive"],
    },
    idempotent: {
      description: "The same arguments give the same state regardless of call count.",
      implies: {},
      excludes: [],
    },
    destructive: {
      description: "Irrevocably removes or destroys state.",
      implies: {},
      excludes: ["readOnly"],
    },
    openWorld: {
      description: "May reach external systems or networks.",
      implies: {},
      excludes: [],
    },
    streaming: {
      description: "Yields a sequence over time, not a single value.",
      implies: {},
      excludes: ["longRunning"],
    },
    // A tag, not a meta key: it says how a call behaves (it outlives a
    // request), as the other tags do, so every surface reads it where it
    // reads them, and `longRunning: false` can negate a bundle's.
    longRunning: {
      description:
        "Outlives a request: every surface answers a call with a durable task handle (status, progress, result, cancel).",
      implies: {},
      excludes: ["streaming"],
    },
  });

/**
 * Applies the implications of the standard tags to authored tags: an asserted
 * tag asserts what it implies, unless that was authored too.
 *
 * @example
 * ```ts
 * import { withImplications } from "@ramify/api/tree/tags";
 *
 * console.log(withImplications({ readOnly: true })); // { readOnly: true, idempotent: true }
 * ```
 */
export function withImplications(tags: Tags | undefined): Tags {
  const resolved: Record<string, boolean | undefined> = { ...tags };
  for (const [name, implied, value] of IMPLICATIONS) {
    if (resolved[name] === true && resolved[implied] === undefined) resolved[implied] = value;
  }
  return resolved;
}

const EXCLUDED = Symbol("excluded");

// Every exclusion and implication in the order of the definitions, listed once:
// `op()` checks each leaf's tags against them (walking the definitions per leaf
// was a sixth of building a large tree), and every surface resolves each
// leaf's implications as it builds.
const TAG_RULES: readonly (readonly [string, string, boolean | undefined | typeof EXCLUDED])[] =
  Object.entries(standardTags).flatMap(([name, { excludes, implies }]) => [
    ...excludes.map((excluded) => [name, excluded, EXCLUDED] as const),
    ...Object.entries(implies).map(([implied, value]) => [name, implied, value] as const),
  ]);

const IMPLICATIONS = TAG_RULES.filter(
  (rule): rule is readonly [string, string, boolean | undefined] => rule[2] !== EXCLUDED,
);

/**
 * A node's own tags with the standard implications applied. Only `meta.tags` of
 * this node is read: tags on ancestors never reach it.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { tagsOf } from "@ramify/api/tree/tags";
 *
 * const remove = op(() => undefined, { tags: { readOnly: true } });
 * console.log(tagsOf(remove).idempotent); // true
 * ```
 */
export function tagsOf(node: Node): Tags {
  const tags = node.meta?.tags;
  if (tags === undefined) return NO_TAGS;
  let resolved = resolvedTags.get(tags);
  if (resolved === undefined) {
    resolved = Object.freeze(withImplications(tags));
    resolvedTags.set(tags, resolved);
  }
  return resolved;
}

// A node's tags never change (nodes are frozen), so each is resolved once for every surface.
const resolvedTags = new WeakMap<Tags, Tags>();
const NO_TAGS: Tags = Object.freeze({});

/**
 * Describes the first contradiction among authored tags, or gives `undefined`
 * when they are consistent: two tags that exclude each other, or a tag negated
 * that an asserted one implies.
 *
 * @example
 * ```ts
 * import { tagConflict } from "@ramify/api/tree/tags";
 *
 * console.log(tagConflict({ readOnly: true, destructive: true }));
 * // "readOnly and destructive exclude each other"
 * console.log(tagConflict({ readOnly: true })); // undefined
 * ```
 */
export function tagConflict(tags: Tags | undefined): string | undefined {
  if (tags === undefined) return undefined;
  for (const [name, other, implied] of TAG_RULES) {
    if (tags[name] !== true) continue;
    if (implied === EXCLUDED) {
      if (tags[other] === true) return `${name} and ${other} exclude each other`;
    } else if (tags[other] !== undefined && tags[other] !== implied) {
      return `${name} implies ${other}: ${implied}, but ${other} is ${tags[other]}`;
    }
  }
  return undefined;
}

/**
 * Where `mapNodes` is in the tree: the segment names from the root, a fallback
 * written `{name}`.
 *
 * @example
 * ```ts
 * import type { NodePath } from "@ramify/api/tree/tags";
 *
 * const path: NodePath = ["books", "{bookId}", "read"];
 * ```
 */
export type NodePath = readonly string[];

/**
 * Transforms a tree pre-order: `visit` sees a node before its descendants, and
 * the descendants visited are those of the node it returned. Returning the node
 * unchanged keeps it; the input tree is never modified, and subtrees that did
 * not change are shared with the result.
 *
 * @example Visiting in pre-order
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { mapNodes } from "@ramify/api/tree/tags";
 *
 * const tree = api({ admin: api({ stats: op(() => 1) }) });
 * const seen: string[] = [];
 * mapNodes(tree, (node, path) => {
 *   seen.push(path.join("/"));
 *   return node;
 * });
 * console.log(seen); // ["", "admin", "admin/stats"]
 * ```
 */
export function mapNodes<T extends Node>(
  tree: T,
  visit: (node: Node, path: NodePath) => Node,
): Node {
  return mapAt(tree, [], visit);
}

function mapAt(
  node: Node,
  path: NodePath,
  visit: (node: Node, path: NodePath) => Node,
): Node {
  const visited = visit(node, path);
  let children = visited.children;
  let changed = false;
  if (children !== undefined) {
    const mapped: Record<string, Node> = {};
    for (const [name, child] of Object.entries(children)) {
      const next = mapAt(child, [...path, name], visit);
      if (next !== child) changed = true;
      Object.defineProperty(mapped, name, { value: next, enumerable: true });
    }
    if (changed) children = Object.freeze(mapped);
  }
  let fallback = visited.fallback;
  if (fallback !== undefined) {
    const subtree = mapAt(fallback.subtree, [...path, `{${fallback.name}}`], visit);
    if (subtree !== fallback.subtree) {
      fallback = Object.freeze({ name: fallback.name, subtree });
      changed = true;
    }
  }
  if (!changed) return visited;
  return Object.freeze({
    ...visited,
    ...(children === undefined ? {} : { children }),
    ...(fallback === undefined ? {} : { fallback }),
  });
}
