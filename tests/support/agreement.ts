// Shared by the agreement suites: a leaf addressed by the steps a client takes
// (a child's name, or a fallback's name with its captured value), walked on a
// client object or on the tree itself.
import type { Node } from "@ramify/api/tree";

/** A step to a leaf: a child's name, or a fallback's name with its captured value. */
export type Step = string | readonly [string, string];

/** Walks a client object along the steps and calls the leaf. */
export function callThrough(
  client: unknown,
  steps: readonly Step[],
  input?: Record<string, unknown>,
): Promise<unknown> {
  let at = client as Record<string, unknown>;
  for (const step of steps) {
    at = typeof step === "string"
      ? at[step] as Record<string, unknown>
      : (at[step[0]] as (value: string) => Record<string, unknown>)(step[1]);
  }
  return (at as unknown as (input?: Record<string, unknown>) => Promise<unknown>)(input);
}

/** The leaf at the steps, and the captures along the way. */
export function leafAt(root: Node, steps: readonly Step[]): {
  node: Node;
  captures: Record<string, string>;
} {
  let node = root;
  const captures: Record<string, string> = {};
  for (const step of steps) {
    if (typeof step === "string") node = node.children![step];
    else {
      captures[step[0]] = step[1];
      node = node.fallback!.subtree;
    }
  }
  return { node, captures };
}
