/**
 * Shell completion for a tree's command line: `<program> completion bash`
 * (or `zsh`, `fish`) prints a script that asks the program itself for the
 * words that may come next (`<program> __complete <words so far>`), so the
 * completions always match the tree.
 *
 * @example
 * ```ts
 * import { completionScript } from "@ramify/api/cli";
 *
 * console.log(completionScript("bash", "bookstore").includes("complete -F")); // true
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { isLeaf } from "../tree/node.ts";
import { commandAt, flagsOfCommand, GLOBAL_OPTIONS, select, type Selected } from "./_command.ts";
import { UsageError } from "./_usage.ts";

const SHELLS = ["bash", "zsh", "fish"] as const;

/**
 * The completion script of a shell for a program.
 *
 * @throws {UsageError} for a shell other than bash, zsh and fish
 *
 * @example
 * ```ts
 * import { completionScript } from "@ramify/api/cli";
 *
 * const fish = completionScript("fish", "bookstore");
 * ```
 */
export function completionScript(shell: string, program: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(program)) {
    throw new UsageError(`completion: the program name "${program}" is not a plain word`);
  }
  const fn = `_${program.replace(/[^A-Za-z0-9_]/g, "_")}_complete`;
  switch (shell) {
    case "bash":
      return [
        `${fn}() {`,
        `  local cur="\${COMP_WORDS[COMP_CWORD]}"`,
        `  local IFS=$'\\n'`,
        `  COMPREPLY=($(compgen -W "$(${program} __complete "\${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)" -- "$cur"))`,
        `}`,
        `complete -F ${fn} ${program}`,
        ``,
      ].join("\n");
    case "zsh":
      return [
        `#compdef ${program}`,
        `${fn}() {`,
        `  local -a words_next`,
        `  words_next=("\${(@f)$(${program} __complete "\${(@)words[2,CURRENT-1]}" 2>/dev/null)}")`,
        `  compadd -- "\${words_next[@]}"`,
        `}`,
        `compdef ${fn} ${program}`,
        ``,
      ].join("\n");
    case "fish":
      return `complete -c ${program} -f -a '(${program} __complete (commandline -opc)[2..-1])'\n`;
    default:
      throw new UsageError(`completion: give one of ${SHELLS.join(", ")}`);
  }
}

/**
 * The words that may follow `words`: child commands, and a leaf's flags.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { completionsFor } from "@ramify/api/cli";
 *
 * const tree = api({ books: api({ list: op(() => []), add: op(() => 1) }) });
 * console.log(completionsFor(tree, ["books"])); // [ "list", "add" ]
 * ```
 */
export function completionsFor(tree: Node, words: readonly string[]): string[] {
  let selected: Selected;
  try {
    selected = select(tree, words.filter((word) => !word.startsWith("-")));
  } catch {
    return [];
  }
  const next = Object.keys(selected.node.children ?? {});
  if (isLeaf(selected.node)) {
    for (const flag of flagsOfCommand(commandAt(tree, selected.steps))) {
      next.push(`--${flag.name}`);
    }
    for (const name of Object.keys(GLOBAL_OPTIONS)) next.push(`--${name}`);
  }
  return next;
}
