/**
 * `httpProjection`: a node tree to an {@linkcode HttpRoute}, through the fixed
 * pipeline of four stages, in order:
 *
 * 1. naive transform: every leaf is placed at its tree address (branch names and
 *    `{fallback}` captures as segments, the leaf name last) with a POST entry;
 * 2. method rewriting: the POST entry is renamed to the verb of the leaf's
 *    `method` directive, or else the derived verb (see {@linkcode deriveVerb});
 * 3. move stage: `http.moveTo` directives and the fallback collapse reposition
 *    leaves and subtrees; leaves that meet at one position merge their methods,
 *    and two on one verb are a conflict;
 * 4. response stage: each operation gets its response kind (JSON, an event
 *    stream for streaming leaves, bytes for an output schema of bytes).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection } from "@ramify/api/http/dx";
 *
 * const route = httpProjection(api({
 *   books: api({ list: op(() => [], http.get), add: op(() => ({})) }),
 * }));
 * console.log(Object.keys(route.children.books.children)); // ["list", "add"]
 * ```
 *
 * @module
 */

import type { HttpVerb, Leaf, Node, Tags, TreeStep } from "../tree/node.ts";
import { tagsOf } from "../tree/tags.ts";
import { type CatalogueEntry, catalogueOf } from "../tree/catalogue.ts";
import type { HttpOperation, HttpRoute, ResponseKind } from "./route.ts";

/**
 * Options of {@linkcode httpProjection}.
 *
 * @example
 * ```ts
 * import type { HttpProjectionOptions } from "@ramify/api/http/dx";
 *
 * const opts: HttpProjectionOptions = { collapse: ["read", "replace", "remove"] };
 * ```
 */
export interface HttpProjectionOptions {
  /**
   * Names of leaves that, as direct children of a fallback subtree, are placed
   * at the fallback position itself. Default `read`, `replace`, `update`,
   * `remove`.
   */
  readonly collapse?: readonly string[];
}

/** The leaf names placed at their fallback's position unless told otherwise. */
export const DEFAULT_COLLAPSE: readonly string[] = Object.freeze([
  "read",
  "replace",
  "update",
  "remove",
]);

/**
 * The verb a leaf's tags and directives imply, first match wins:
 * a `verb` directive; `readOnly` gives GET; `idempotent` with `destructive`
 * gives DELETE; `idempotent` gives PUT; otherwise POST.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { deriveVerb } from "@ramify/api/http/dx";
 *
 * console.log(deriveVerb(op(() => 1, { tags: { idempotent: true } }))); // "PUT"
 * ```
 */
export function deriveVerb(node: Node): HttpVerb {
  return verbOf(node, tagsOf(node));
}

function verbOf(node: Node, tags: Tags): HttpVerb {
  const pinned = node.meta?.http?.directives?.find((d) => d.kind === "verb");
  if (pinned !== undefined) return pinned.value as HttpVerb;
  if (tags.readOnly === true) return "GET";
  if (tags.idempotent === true && tags.destructive === true) return "DELETE";
  if (tags.idempotent === true) return "PUT";
  return "POST";
}

/**
 * Projects a node tree onto HTTP: the route tree every HTTP surface is built
 * from. Pure: the same tree gives an equal route.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { httpProjection } from "@ramify/api/http/dx";
 *
 * const route = httpProjection(api({}, {
 *   fallback: { name: "id", subtree: api({ read: op(() => 1, http.get) }) },
 * }));
 * console.log(route.param?.route.methods.GET?.path); // "/{id}"
 * ```
 *
 * @throws {Error} `applyMoveTo: conflicting route ...` when two leaves land on one
 * verb and position, and a clear error for a move above the root or clashing
 * capture names.
 */
export function httpProjection(tree: Node, opts: HttpProjectionOptions = {}): HttpRoute {
  const names = opts.collapse ?? DEFAULT_COLLAPSE;
  // A route is frozen and a tree is a value: every surface that asks for the
  // same projection (the router, the document, MCP's resource URIs) shares one.
  const key = names.join("\u0000");
  let byCollapse = projected.get(tree);
  if (byCollapse === undefined) projected.set(tree, byCollapse = new Map());
  let route = byCollapse.get(key);
  if (route === undefined) {
    route = responseStage(placeLeaves(tree, new Set(names)));
    byCollapse.set(key, route);
  }
  return route;
}

const projected = new WeakMap<Node, Map<string, HttpRoute>>();

/**
 * How many projections of a tree this process has made: the architecture
 * test holds `serve()` to one. Internal, not exported by `./http/dx`.
 */
export function timesProjected(tree: Node): number {
  return projected.get(tree)?.size ?? 0;
}

// ---- Stages 1 to 3: every leaf at its address, with its verb, then moved ----

/** A move that failed: the error, naming the leaf that meets it. */
type Failure = (label: string) => Error;

/** A resolved route segment. */
type Segment = { readonly static: string } | { readonly param: string };

/**
 * A node's position after its own move, resolved once for the leaves beneath
 * it rather than once per leaf and step (segments were copied at each step).
 * A move that fails is kept, and thrown by the first leaf beneath it, naming
 * that leaf as before.
 */
interface NodeState {
  readonly node: Node;
  readonly segments: readonly Segment[];
  readonly fail: Failure | undefined;
  path: string | undefined;
}

interface Placement {
  /** The leaf as the catalogue describes it: its steps, tags, label, declared bytes. */
  readonly entry: CatalogueEntry;
  readonly method: HttpVerb;
  readonly at: NodeState;
}

/**
 * Stages 1 to 3 per leaf, from the tree's catalogue: its address (branch names and
 * captures), its verb (a `method` directive, else {@linkcode deriveVerb}), and
 * its segments after `moveTo` and the fallback collapse. Every leaf is placed
 * before any is put in the route, so a move error wins over a conflict as the
 * stages in order would have it.
 */
function placeLeaves(tree: Node, collapse: ReadonlySet<string>): Placement[] {
  const root = stateOf(tree, [], "", moveOf(tree));
  // The states along the previous leaf's steps: the walk is depth first, so the
  // next leaf shares a prefix of them (its steps hold the very same objects).
  const keys: TreeStep[] = [];
  const states: NodeState[] = [];
  const statesOf = (steps: readonly TreeStep[]): readonly NodeState[] => {
    let depth = 0;
    while (depth < keys.length && depth < steps.length && keys[depth] === steps[depth]) depth++;
    keys.length = states.length = depth;
    for (; depth < steps.length; depth++) {
      const step = steps[depth];
      const parent = depth === 0 ? root : states[depth - 1];
      const node = step.kind === "child"
        ? parent.node.children![step.name]
        : parent.node.fallback!.subtree;
      keys.push(step);
      states.push(
        parent.fail !== undefined
          ? { node, segments: parent.segments, fail: parent.fail, path: undefined }
          : stateOf(node, [...parent.segments, ownSegment(step)], step.name, moveOf(node)),
      );
    }
    return states;
  };
  return catalogueOf(tree).entries.map((entry): Placement => {
    const { leaf, steps } = entry;
    const last = steps.length - 1;
    const along = statesOf(steps);
    let at = last < 0 ? root : along[last];
    if (at.fail !== undefined) throw at.fail(entry.label);
    // The leaf itself, a direct child of a fallback subtree with no move of its
    // own: a collapse candidate, placed at its parent's position.
    if (
      last > 0 && steps[last - 1].kind === "fallback" && steps[last].kind === "child" &&
      collapse.has(steps[last].name) && moveOf(leaf) === undefined
    ) at = along[last - 1];
    const directive = leaf.meta?.http?.directives?.find((d) => d.kind === "method");
    const method = directive !== undefined ? directive.value as HttpVerb : verbOf(leaf, entry.tags);
    return { entry, method, at };
  });
}

function stateOf(
  node: Node,
  segments: Segment[],
  ownName: string,
  move: string | undefined,
): NodeState {
  const moved = move === undefined ? segments : resolveMove(segments, move, ownName);
  return typeof moved === "function"
    ? { node, segments, fail: moved, path: undefined }
    : { node, segments: moved, fail: undefined, path: undefined };
}

function ownSegment(step: TreeStep): Segment {
  return step.kind === "child" ? { static: step.name } : { param: step.name };
}

function moveOf(node: Node): string | undefined {
  const directive = node.meta?.http?.directives?.find((d) => d.kind === "moveTo");
  return directive?.value;
}

/**
 * Resolves a relative move against a node's own position, in place: `..` goes
 * up, `.` stays, `*` pushes a capture named after the node (`*name` names it),
 * any other segment is pushed as a static name. A failure is given as the
 * maker of its error, which names the leaf that meets it.
 */
function resolveMove(segments: Segment[], move: string, ownName: string): Segment[] | Failure {
  for (const part of move.split("/")) {
    if (part === "..") {
      if (segments.length === 0) {
        return (label: string) =>
          new Error(`httpProjection: moveTo("${move}") of ${label} goes above the root`);
      }
      segments.pop();
    } else if (part === "*" || part.startsWith("*")) {
      const name = part === "*" ? ownName : part.slice(1);
      if (name === "") {
        return () =>
          new Error(`httpProjection: moveTo("${move}") at the root needs a named capture (*name)`);
      }
      segments.push({ param: name });
    } else if (part !== ".") {
      segments.push({ static: part });
    }
  }
  return segments;
}

// ---- Stage 4: response stage, and the route tree ----------------------------

/**
 * A position while the route is built: its `children` and `methods` objects
 * are the route's own, frozen in place when done (children defined as own
 * properties, so a segment named `__proto__` stays an ordinary key). Most
 * positions lack one or the other: they keep the shared frozen empty one.
 */
interface Position {
  children: Record<string, Position | HttpRoute>;
  param?: { readonly name: string; readonly route: Position };
  methods: Partial<Record<HttpVerb, HttpOperation>>;
}

const NO_CHILDREN: Record<string, HttpRoute> = Object.freeze({});
const NO_METHODS: Partial<Record<HttpVerb, HttpOperation>> = Object.freeze({});

function responseStage(placements: readonly Placement[]): HttpRoute {
  const root = emptyPosition();
  for (const { entry, method, at } of placements) {
    const { steps, tags } = entry;
    const path = at.path ??= pathOf(at.segments);
    const params: string[] = [];
    let position = root;
    for (const segment of at.segments) {
      if ("static" in segment) {
        const name = segment.static;
        if (Object.hasOwn(position.children, name)) {
          position = position.children[name] as Position;
        } else {
          const child = emptyPosition();
          if (position.children === NO_CHILDREN) position.children = {};
          if (name === "__proto__") {
            Object.defineProperty(position.children, name, {
              value: child,
              enumerable: true,
              writable: true,
            });
          } else position.children[name] = child;
          position = child;
        }
        continue;
      }
      if (params.includes(segment.param)) {
        throw new Error(
          `httpProjection: the capture {${segment.param}} appears twice in ${path} (${entry.label})`,
        );
      }
      params.push(segment.param);
      if (position.param === undefined) {
        position.param = { name: segment.param, route: emptyPosition() };
      } else if (position.param.name !== segment.param) {
        throw new Error(
          `httpProjection: captures {${position.param.name}} and {${segment.param}} meet at one position of ${path}; one position has one capture name`,
        );
      }
      position = position.param.route;
    }
    const existing = position.methods[method];
    if (existing !== undefined) {
      throw new Error(
        `applyMoveTo: conflicting route ${method} ${path} is defined by more than one node (${existing.entry.label} and ${entry.label})`,
      );
    }
    const response: ResponseKind = tags.streaming === true
      ? "event-stream"
      : entry.bytes !== undefined
      ? "bytes"
      : "json";
    if (position.methods === NO_METHODS) position.methods = {};
    position.methods[method] = Object.freeze({
      method,
      path,
      params: params.length === 0 ? NO_PARAMS : Object.freeze(params),
      // The catalogue's steps, frozen once: the operation keeps them.
      steps: Object.freeze(steps),
      node: entry.leaf as Leaf<never, unknown, unknown>,
      tags,
      response,
      entry,
    });
  }
  return freezeRoute(root);
}

/** Freezes a built position in place; only a position with a capture gets a new object. */
function freezeRoute(position: Position): HttpRoute {
  const children = position.children;
  for (const name of Object.keys(children)) {
    children[name] = freezeRoute(children[name] as Position);
  }
  Object.freeze(children);
  Object.freeze(position.methods);
  if (position.param === undefined) return Object.freeze(position) as HttpRoute;
  return Object.freeze({
    children,
    param: Object.freeze({ name: position.param.name, route: freezeRoute(position.param.route) }),
    methods: position.methods,
  });
}

// Most operations take no capture: they share one frozen empty list.
const NO_PARAMS: readonly string[] = Object.freeze([]);

function pathOf(segments: readonly Segment[]): string {
  let path = "";
  for (const segment of segments) {
    path += "static" in segment ? "/" + segment.static : `/{${segment.param}}`;
  }
  return path === "" ? "/" : path;
}

function emptyPosition(): Position {
  return { children: NO_CHILDREN, methods: NO_METHODS };
}
