// From the words of a command line to a node of the tree: each word selects
// a child by its own name, or is the value a fallback captures. Global flags
// may stand anywhere; the first other flag ends the words. A leaf reached is
// a command of the tree's table: its call prepared once, its flags read once.

import { parseArgs } from "node:util";
import type { Node, TreeStep } from "../tree/node.ts";
import { isLeaf } from "../tree/node.ts";
import { type CatalogueEntry, catalogueOf } from "../tree/catalogue.ts";
import type { StringPlan } from "../tree/string_plan.ts";
import { type Flag, flagsOf } from "./_flags.ts";
import { didYouMean, nearest, UsageError } from "./_usage.ts";

/** The flags every command takes. */
export const GLOBAL_OPTIONS = {
  help: { type: "boolean", short: "h" },
  yes: { type: "boolean", short: "y" },
  json: { type: "boolean" },
  url: { type: "string" },
  token: { type: "string" },
  input: { type: "string" },
  output: { type: "string", short: "o" },
} as const;

/** Where the words led. */
export interface Selected {
  readonly node: Node;
  readonly steps: readonly TreeStep[];
  /** Fallback name to the word it captured, in order. */
  readonly captures: readonly (readonly [string, string])[];
  /** The arguments left for the leaf: its flags and the global ones. */
  readonly rest: readonly string[];
  /** `--help` or `-h` stood somewhere. */
  readonly help: boolean;
  /** A static command close to the last word a fallback took, which may have been meant. */
  readonly meant?: string;
}

/** Walks the words of `argv` from the root. */
export function select(root: Node, argv: readonly string[]): Selected {
  const { tokens } = parseArgs({
    args: [...argv],
    options: GLOBAL_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let node = root;
  const steps: TreeStep[] = [];
  const captures: [string, string][] = [];
  const words = new Set<number>();
  let help = false;
  let walking = true;
  let meant: string | undefined;
  for (const token of tokens) {
    if (token.kind === "option-terminator") break;
    if (token.kind === "option") {
      if (token.name === "help" || token.name === "h") help = true;
      else if (!(token.name in GLOBAL_OPTIONS)) walking = false;
      continue;
    }
    if (!walking) continue;
    const word = token.value;
    const child = Object.hasOwn(node.children ?? {}, word) ? node.children![word] : undefined;
    if (child !== undefined) {
      node = child;
      steps.push({ kind: "child", name: word });
    } else if (node.fallback !== undefined) {
      meant = nearest(word, Object.keys(node.children ?? {}));
      captures.push([node.fallback.name, word]);
      steps.push({ kind: "fallback", name: node.fallback.name });
      node = node.fallback.subtree;
    } else if (isLeaf(node)) {
      walking = false;
      continue;
    } else {
      throw new UsageError(
        `unknown command "${word}"${didYouMean(word, Object.keys(node.children ?? {}))}`,
      );
    }
    if (child !== undefined) meant = undefined;
    words.add(token.index);
  }
  return {
    node,
    steps,
    captures,
    rest: argv.filter((_, index) => !words.has(index)),
    help,
    ...(meant === undefined ? {} : { meant }),
  };
}

/** The command as typed: child names and captured values. */
export function commandOf(selected: Pick<Selected, "steps" | "captures">): string {
  let capture = 0;
  return selected.steps.map((step) =>
    step.kind === "child" ? step.name : selected.captures[capture++][1]
  ).join(" ");
}

/** A leaf as a command: its entry in the tree's catalogue (where it sits, its call, its input). */
export type Command = CatalogueEntry;

/** The command of the leaf the steps lead to. */
export function commandAt(tree: Node, steps: readonly TreeStep[]): Command {
  return catalogueOf(tree).at(steps)!;
}

// Flags once read per leaf, so a program that runs many command lines reads each schema once.
const flagsRead = new WeakMap<Command, readonly Flag[]>();

/** The leaf's flags, from its input's string plan (none without one); captures are words. */
export function flagsOfCommand(command: Command): readonly Flag[] {
  let flags = flagsRead.get(command);
  if (flags !== undefined) return flags;
  let plan: StringPlan | undefined;
  try {
    plan = command.strings;
  } catch (error) {
    throw new Error(
      `the input schema of ${command.label} has no JSON Schema form: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  flags = flagsOf(plan, command.captures);
  flagsRead.set(command, flags);
  return flags;
}
