/**
 * The one walk of a tree to its leaves, used by every projection (HTTP routes,
 * GraphQL fields, MCP tools, CLI commands): each leaf with the steps that lead
 * to it, the child names on the way and the captures bound above it, in tree
 * order (a node's own handler, then its children as written, then its
 * fallback). The one way to name a leaf in a message, and the one rule for
 * what a leaf takes ({@linkcode inputModeOf}).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { leavesOf } from "@ramify/api/tree/catalogue";
 *
 * const tree = api({ books: api({}, { fallback: { name: "id", subtree: api({ read: op(() => 1) }) } }) });
 * const [entry] = leavesOf(tree);
 * console.log(entry.names, entry.captures, entry.label); // ["books", "read"] ["id"] "books/{id}/read"
 * ```
 *
 * @module
 */

import { isLeaf, type Leaf, type Node, type TreeStep } from "./node.ts";
import { type JsonSchema, toJsonSchema } from "./schema.ts";

/**
 * A leaf of a tree and where it sits.
 *
 * @example
 * ```ts
 * import type { LeafEntry } from "@ramify/api/tree/catalogue";
 *
 * const describe = (entry: LeafEntry) => `${entry.label} takes ${entry.captures.join(", ")}`;
 * ```
 */
export interface LeafEntry {
  /** The leaf itself. */
  readonly leaf: Leaf<never, unknown>;
  /** The steps from the root: child names and fallback edges. */
  readonly steps: readonly TreeStep[];
  /** The child names on the path (fallback edges add none): what surfaces name it by. */
  readonly names: readonly string[];
  /** The fallback names above it: the keys the address binds in its input. */
  readonly captures: readonly string[];
  /** The leaf's place for messages: `books/{bookId}/read`, or `(root)`. */
  readonly label: string;
  /** How the leaf takes its input: see {@linkcode inputModeOf}. */
  readonly input: InputMode;
}

/**
 * How a leaf takes its input, decided here for every surface:
 *
 * - `"schema"`: its `meta.input` validates what callers send (the schema's
 *   properties are the arguments of every surface; `z.object({})` takes none).
 * - `"open"`: it has no input schema, so, as the specification says, its
 *   handler receives the path captures, the query and the JSON body merged
 *   into one object (a capture over the body over the query), as sent.
 *   Surfaces that need named arguments offer one free-form input.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { inputModeOf } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(inputModeOf(op(({ title }: { title: string }) => title))); // "open"
 * console.log(inputModeOf(op(() => 1, { input: z.object({}) }))); // "schema"
 * ```
 */
export type InputMode = "schema" | "open";

/**
 * The {@linkcode InputMode} of a leaf.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { inputModeOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(inputModeOf(op(() => "pong"))); // "open"
 * ```
 */
export function inputModeOf(leaf: Node): InputMode {
  return leaf.meta?.input === undefined ? "open" : "schema";
}

/**
 * Whether a leaf takes nothing but its captures: its input schema names no
 * property and admits none beyond (`z.object({})`, `z.strictObject({})`).
 * Its callers' body and query are then not read at all (a form another site
 * forged is still refused), as no surface offers it an argument.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { takesNothing } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(takesNothing(op(() => 1, { input: z.object({}) }))); // true
 * console.log(takesNothing(op(() => 1, { input: z.looseObject({}) }))); // false
 * console.log(takesNothing(op(() => 1))); // false: it takes what it is sent
 * ```
 */
export function takesNothing(leaf: Node): boolean {
  const input = leaf.meta?.input;
  if (input === undefined) return false;
  let schema: JsonSchema | undefined;
  try {
    schema = toJsonSchema(input, "input");
  } catch {
    return false;
  }
  if (schema === undefined || schema.type !== "object") return false;
  const properties = schema.properties;
  const named = typeof properties === "object" && properties !== null &&
    Object.keys(properties).length > 0;
  const more = schema.additionalProperties;
  return !named && (more === undefined || more === false) &&
    schema.patternProperties === undefined && schema.propertyNames === undefined &&
    schema.$ref === undefined && schema.anyOf === undefined && schema.oneOf === undefined &&
    schema.allOf === undefined;
}

/**
 * Whether a leaf without an input schema reads its input: its handler
 * declares a parameter. Surfaces whose arguments are listed one by one
 * (GraphQL) offer the free-form input only then, so `op(() => "pong")` has no
 * argument there.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { readsOpenInput } from "@ramify/api/tree/catalogue";
 *
 * console.log(readsOpenInput(op(({ q }: { q: string }) => q))); // true
 * console.log(readsOpenInput(op(() => "pong"))); // false
 * ```
 */
export function readsOpenInput(leaf: Node): boolean {
  return inputModeOf(leaf) === "open" && (leaf.handler?.length ?? 0) > 0;
}

/**
 * Every leaf of the tree, in tree order.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { leavesOf } from "@ramify/api/tree/catalogue";
 *
 * const names = leavesOf(api({ ping: op(() => "pong") })).map((entry) => entry.label);
 * console.log(names); // ["ping"]
 * ```
 */
export function leavesOf(tree: Node): LeafEntry[] {
  const entries: LeafEntry[] = [];
  const visit = (node: Node, steps: readonly TreeStep[]) => {
    if (isLeaf(node)) entries.push(new Entry(node, steps));
    const children = node.children;
    if (children !== undefined) {
      for (const name of Object.keys(children)) {
        visit(children[name], [...steps, { kind: "child", name }]);
      }
    }
    if (node.fallback !== undefined) {
      visit(node.fallback.subtree, [...steps, { kind: "fallback", name: node.fallback.name }]);
    }
  };
  visit(tree, []);
  return entries;
}

/**
 * An entry whose names, captures and label are made when first read, once:
 * most walks (the servers' checks, a projection) read only some of them, and a
 * start walks every leaf.
 */
class Entry implements LeafEntry {
  readonly leaf: Leaf<never, unknown>;
  readonly steps: readonly TreeStep[];
  #parts: { names: readonly string[]; captures: readonly string[] } | undefined;
  #label: string | undefined;

  constructor(leaf: Leaf<never, unknown>, steps: readonly TreeStep[]) {
    this.leaf = leaf;
    this.steps = steps;
  }

  get names(): readonly string[] {
    return (this.#parts ??= partsOf(this.steps)).names;
  }

  get captures(): readonly string[] {
    return (this.#parts ??= partsOf(this.steps)).captures;
  }

  get label(): string {
    return this.#label ??= labelOf(this.steps);
  }

  get input(): InputMode {
    return inputModeOf(this.leaf);
  }
}

function partsOf(steps: readonly TreeStep[]): { names: string[]; captures: string[] } {
  const names: string[] = [];
  const captures: string[] = [];
  for (const step of steps) (step.kind === "child" ? names : captures).push(step.name);
  return { names, captures };
}

/**
 * A leaf's place, as every surface's messages write it: `books/{bookId}/read`.
 *
 * @example
 * ```ts
 * import { labelOf } from "@ramify/api/tree/catalogue";
 *
 * console.log(labelOf([{ kind: "child", name: "books" }, { kind: "fallback", name: "id" }])); // "books/{id}"
 * ```
 */
export function labelOf(steps: readonly TreeStep[]): string {
  if (steps.length === 0) return "(root)";
  return steps.map((step) => step.kind === "child" ? step.name : `{${step.name}}`).join("/");
}
