/**
 * The tree as a client sees it, whatever the protocol: child names, fallbacks,
 * and what each leaf needs to be called. Both typed clients (HTTP and GraphQL)
 * and the generated client are built on it, so they cannot differ in shape.
 *
 * Internal: not a public subpath. Used by the HTTP client, the GraphQL client
 * and the generated GraphQL client; the query utils (`query/`) read the
 * {@linkcode POSITION} each client object carries.
 *
 * @module
 */

import type { CallOptions } from "./extension.ts";
import type { Tags, TreeStep } from "../tree/node.ts";
import type { Invalidates } from "../tree/invalidation.ts";

/**
 * The symbol under which every client object tells what its position is, for
 * layers built over a client (the query utils): not enumerable, so the
 * client's own shape is unchanged. A registered symbol, so two copies of the
 * library in one bundle agree.
 */
export const POSITION: unique symbol = Symbol.for("@ramify/api/client-position") as never;

/** What a client knows of a leaf beyond calling it: its tags, and what it makes stale. */
export interface LeafFacts {
  readonly tags: Tags;
  /** The leaf's `meta.invalidates`, when it has one. */
  readonly invalidates?: Invalidates;
}

/** What a client position is: a leaf (its facts), and the name of its fallback. */
export interface Position {
  /** The leaf's tags, when the position is a leaf. */
  readonly tags?: Tags;
  /** The leaf's `meta.invalidates`, when it has one. */
  readonly invalidates?: Invalidates;
  /** The capture name, when the position has a fallback. */
  readonly fallback?: string;
}

/** A position of the client's tree: children, a fallback, and a leaf's payload. */
export interface Shape<P> {
  readonly children: Map<string, Shape<P>>;
  fallback?: { readonly name: string; readonly shape: Shape<P> };
  payload?: P;
}

/** The values captured by the fallback calls so far, outermost first. */
export type Captures = readonly (readonly [string, string])[];

/** Calls one leaf. */
export type LeafCall<P> = (
  payload: P,
  captures: Captures,
  input: Record<string, unknown>,
  options: CallOptions,
) => Promise<unknown>;

/** The shape of leaves found at their tree steps. */
export function shapeOf<P>(
  leaves: Iterable<{ readonly steps: readonly TreeStep[]; readonly payload: P }>,
): Shape<P> {
  const root: Shape<P> = { children: new Map() };
  for (const { steps, payload } of leaves) {
    let shape = root;
    for (const step of steps) {
      if (step.kind === "child") {
        let child = shape.children.get(step.name);
        if (child === undefined) shape.children.set(step.name, child = { children: new Map() });
        shape = child;
      } else {
        shape.fallback ??= { name: step.name, shape: { children: new Map() } };
        shape = shape.fallback.shape;
      }
    }
    shape.payload = payload;
  }
  return root;
}

/**
 * The client object of a shape with the captures bound so far: a frozen object,
 * or a function with properties where the position is a leaf too. A fallback
 * is a function of the captured value (refused when empty).
 */
export function materialize<P>(
  shape: Shape<P>,
  captures: Captures,
  call: LeafCall<P>,
  factsOf: (payload: P) => LeafFacts,
): unknown {
  const payload = shape.payload;
  const target: Record<string, unknown> = payload === undefined
    ? {}
    : ((input?: Record<string, unknown>, options?: CallOptions) =>
      call(payload, captures, input ?? {}, options ?? {})) as unknown as Record<string, unknown>;
  for (const [name, child] of shape.children) {
    define(target, name, materialize(child, captures, call, factsOf));
  }
  const fallback = shape.fallback;
  if (fallback !== undefined) {
    define(target, fallback.name, (value: string) => {
      const captured = String(value);
      if (captured === "") {
        throw new TypeError(`${fallback.name}: the captured value must not be empty`);
      }
      return materialize(fallback.shape, [...captures, [fallback.name, captured]], call, factsOf);
    });
  }
  const position: Position = {
    ...(payload === undefined ? {} : factsOf(payload)),
    ...(fallback === undefined ? {} : { fallback: fallback.name }),
  };
  Object.defineProperty(target, POSITION, { value: position });
  return Object.freeze(target);
}

// Functions own `name` and `length`; a child of that name must still win.
function define(target: Record<string, unknown>, name: string, value: unknown) {
  Object.defineProperty(target, name, { value, enumerable: true, configurable: false });
}
