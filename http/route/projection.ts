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

import type { HttpVerb, Leaf, Node, Tags, TreeStep } from "../../tree/node.ts";
import { tagsOf } from "../../tree/tags.ts";
import { labelOf, leavesOf } from "../../tree/leaves.ts";
import { declaredBytesOf, type HttpOperation, type HttpRoute, type ResponseKind } from "./route.ts";

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
  const pinned = node.meta?.http?.directives?.find((d) => d.kind === "verb");
  if (pinned !== undefined) return pinned.value as HttpVerb;
  const tags = tagsOf(node);
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
  const collapse = new Set(opts.collapse ?? DEFAULT_COLLAPSE);
  const placements = naiveTransform(tree).map(rewriteMethod);
  const positioned = moveStage(placements, collapse);
  return responseStage(positioned);
}

// ---- Stage 1: naive transform ---------------------------------------------

/** A segment of a naive address, with the move authored on the node it leads to. */
interface Step {
  readonly tree: TreeStep;
  readonly move: string | undefined;
}

interface Placement {
  readonly node: Leaf<never, unknown, unknown>;
  readonly steps: readonly Step[];
  /** The leaf's place, for messages (`labelOf`). */
  readonly label: string;
  readonly rootMove: string | undefined;
  readonly method: HttpVerb;
}

/** Every leaf (the one walk, `leavesOf`) at its tree address, each step with its node's move. */
function naiveTransform(tree: Node): Placement[] {
  const rootMove = moveOf(tree);
  return leavesOf(tree).map(({ leaf, steps, label }) => {
    let node: Node = tree;
    const withMoves = steps.map((step): Step => {
      node = step.kind === "child" ? node.children![step.name] : node.fallback!.subtree;
      return { tree: step, move: moveOf(node) };
    });
    return { node: leaf, steps: withMoves, label, rootMove, method: "POST" };
  });
}

function moveOf(node: Node): string | undefined {
  const directive = node.meta?.http?.directives?.find((d) => d.kind === "moveTo");
  return directive?.value;
}

// ---- Stage 2: method rewriting --------------------------------------------

function rewriteMethod(placement: Placement): Placement {
  const directive = placement.node.meta?.http?.directives?.find((d) => d.kind === "method");
  const method = directive !== undefined ? directive.value as HttpVerb : deriveVerb(placement.node);
  return { ...placement, method };
}

// ---- Stage 3: move stage ----------------------------------------------------

/** A resolved route segment. */
type Segment = { readonly static: string } | { readonly param: string };

interface Positioned extends Placement {
  readonly segments: readonly Segment[];
}

function moveStage(placements: readonly Placement[], collapse: ReadonlySet<string>): Positioned[] {
  return placements.map((placement) => {
    let segments: Segment[] = placement.rootMove === undefined
      ? []
      : resolveMove([], placement.rootMove, "", placement);
    placement.steps.forEach((step, index) => {
      const own: Segment = step.tree.kind === "child"
        ? { static: step.tree.name }
        : { param: step.tree.name };
      segments = [...segments, own];
      // The leaf itself, a direct child of a fallback subtree: a collapse candidate.
      const collapses = index === placement.steps.length - 1 && index > 0 &&
        placement.steps[index - 1].tree.kind === "fallback" && step.tree.kind === "child" &&
        collapse.has(step.tree.name);
      const move = step.move ?? (collapses ? ".." : undefined);
      if (move !== undefined) {
        segments = resolveMove(segments, move, step.tree.name, placement);
      }
    });
    return { ...placement, segments };
  });
}

/**
 * Resolves a relative move against a node's own position: `..` goes up, `.`
 * stays, `*` pushes a capture named after the node (`*name` names it), any
 * other segment is pushed as a static name.
 */
function resolveMove(
  from: readonly Segment[],
  move: string,
  ownName: string,
  placement: Placement,
): Segment[] {
  const segments = [...from];
  for (const part of move.split("/")) {
    if (part === "..") {
      if (segments.length === 0) {
        throw new Error(
          `httpProjection: moveTo("${move}") of ${placement.label} goes above the root`,
        );
      }
      segments.pop();
    } else if (part === "*" || part.startsWith("*")) {
      const name = part === "*" ? ownName : part.slice(1);
      if (name === "") {
        throw new Error(
          `httpProjection: moveTo("${move}") at the root needs a named capture (*name)`,
        );
      }
      segments.push({ param: name });
    } else if (part !== ".") {
      segments.push({ static: part });
    }
  }
  return segments;
}

// ---- Stage 4: response stage, and the route tree ----------------------------

interface MutableRoute {
  children: Record<string, MutableRoute>;
  param?: { name: string; route: MutableRoute };
  methods: Partial<Record<HttpVerb, HttpOperation>>;
}

function responseStage(positioned: readonly Positioned[]): HttpRoute {
  const root = emptyRoute();
  for (const placement of positioned) {
    const path = pathOf(placement.segments);
    const params: string[] = [];
    let position = root;
    for (const segment of placement.segments) {
      if ("static" in segment) {
        position = position.children[segment.static] ??
          (position.children[segment.static] = emptyRoute());
        continue;
      }
      if (params.includes(segment.param)) {
        throw new Error(
          `httpProjection: the capture {${segment.param}} appears twice in ${path} (${placement.label})`,
        );
      }
      params.push(segment.param);
      if (position.param === undefined) {
        position.param = { name: segment.param, route: emptyRoute() };
      } else if (position.param.name !== segment.param) {
        throw new Error(
          `httpProjection: captures {${position.param.name}} and {${segment.param}} meet at one position of ${path}; one position has one capture name`,
        );
      }
      position = position.param.route;
    }
    const existing = position.methods[placement.method];
    if (existing !== undefined) {
      throw new Error(
        `applyMoveTo: conflicting route ${placement.method} ${path} is defined by more than one node (${
          labelOf(existing.steps)
        } and ${placement.label})`,
      );
    }
    const tags: Tags = tagsOf(placement.node);
    const response: ResponseKind = tags.streaming === true
      ? "event-stream"
      : declaredBytesOf(placement.node) !== undefined
      ? "bytes"
      : "json";
    position.methods[placement.method] = Object.freeze({
      method: placement.method,
      path,
      params: Object.freeze(params),
      steps: Object.freeze(placement.steps.map((s) => s.tree)),
      node: placement.node,
      tags,
      response,
    });
  }
  return freezeRoute(root);
}

function freezeRoute(route: MutableRoute): HttpRoute {
  const children: Record<string, HttpRoute> = {};
  for (const [name, child] of Object.entries(route.children)) {
    Object.defineProperty(children, name, { value: freezeRoute(child), enumerable: true });
  }
  return Object.freeze({
    children: Object.freeze(children),
    ...(route.param === undefined ? {} : {
      param: Object.freeze({ name: route.param.name, route: freezeRoute(route.param.route) }),
    }),
    methods: Object.freeze({ ...route.methods }),
  });
}

function pathOf(segments: readonly Segment[]): string {
  return "/" +
    segments.map((segment) => "static" in segment ? segment.static : `{${segment.param}}`).join(
      "/",
    );
}

// Null-prototype maps: a segment named `__proto__` stays an ordinary key.
function emptyRoute(): MutableRoute {
  return { children: Object.create(null), methods: {} };
}
