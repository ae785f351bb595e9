// Help text: for a branch, its commands with their descriptions and tags;
// for a leaf, its usage, description, tags and flags with types, choices,
// defaults and required marks.

import type { Node } from "../tree/node.ts";
import { isLeaf } from "../tree/node.ts";
import { tagsOf } from "../tree/tags.ts";
import { inputModeOf } from "../tree/leaves.ts";
import type { Flag } from "./_flags.ts";

const GLOBAL_HELP = [
  ["--input <json|@file|->", "the whole input as JSON, from a file, or from stdin"],
  ["--url <url>", "call a running server instead of the handlers in this process"],
  ["--token <token>", "a bearer token for guarded commands (default: $RAMIFY_TOKEN)"],
  ["--yes, -y", "run a destructive command without asking"],
  ["--json", "compact JSON output, one line"],
  ["--output <file>, -o", "write the result to a file (binary results: never to a terminal)"],
  ["--help, -h", "this help"],
] as const;

/** The flags of a long-running command, whose call runs as a task. */
const TASK_HELP = [
  ["--wait", "wait for the task, showing its progress, and write its result (the default)"],
  [
    "--detach",
    "write the task's handle and return; then `status <id>`, `cancel <id>`, `answer <id>`",
  ],
] as const;

/** The help of a node reached by `command` (the words so far). */
export function helpOf(
  program: string,
  command: string,
  node: Node,
  flags: readonly Flag[],
): string {
  const lines: string[] = [];
  const prefix = [program, command].filter(Boolean).join(" ");
  const description = node.meta?.description;
  if (isLeaf(node)) {
    const tags = tagText(node);
    lines.push(`Usage: ${prefix} [flags]`, "");
    if (typeof description === "string") lines.push(description, "");
    if (tags !== "") lines.push(`Tags: ${tags}`, "");
    if (flags.length > 0) {
      lines.push("Flags:", ...table(flags.map((flag) => [flagUsage(flag), flagNotes(flag)])), "");
    } else if (inputModeOf(node) === "open") {
      lines.push(
        "Input: any named values, as --<name> <value> (a string) or --input <json>",
        "",
      );
    }
    if (tagsOf(node).longRunning === true) lines.push("Task flags:", ...table(TASK_HELP), "");
  }
  const children = Object.entries(node.children ?? {});
  if (children.length > 0 || node.fallback !== undefined) {
    lines.push(`Usage: ${prefix} <command>`, "");
    if (!isLeaf(node) && typeof description === "string") lines.push(description, "");
    lines.push("Commands:");
    const rows: [string, string][] = children.map(([name, child]) => [name, summary(child)]);
    if (node.fallback !== undefined) {
      rows.push([`<${node.fallback.name}>`, "a value, then one of its commands"]);
    }
    lines.push(...table(rows), "");
  }
  lines.push("Global flags:", ...table(GLOBAL_HELP.map(([a, b]) => [a, b])));
  return lines.join("\n") + "\n";
}

function summary(node: Node): string {
  const parts: string[] = [];
  const description = node.meta?.description;
  if (typeof description === "string") parts.push(description);
  if (isLeaf(node)) {
    const tags = tagText(node);
    if (tags !== "") parts.push(tags);
  } else parts.push("...");
  return parts.join(" ");
}

/** `[readOnly] [destructive]`: the tags asserted on the leaf itself. */
function tagText(node: Node): string {
  return Object.entries(tagsOf(node)).filter(([, value]) => value === true)
    .map(([name]) => `[${name}]`).join(" ");
}

function flagUsage(flag: Flag): string {
  const type = flag.kind === "boolean"
    ? ""
    : ` <${flag.kind === "json" ? "json" : flag.kind === "file" ? "path" : flag.kind}>`;
  const negation = flag.kind === "boolean" ? `, --no-${flag.name}` : "";
  return `--${flag.name}${type}${negation}`;
}

function flagNotes(flag: Flag): string {
  const notes: string[] = [];
  if (flag.description !== undefined) notes.push(flag.description);
  if (flag.choices !== undefined) {
    notes.push(`one of: ${flag.choices.map((choice) => JSON.stringify(choice)).join(", ")}`);
  }
  if (flag.multiple) notes.push("repeat for more");
  if (flag.default !== undefined) notes.push(`default: ${JSON.stringify(flag.default)}`);
  if (flag.required) notes.push("(required)");
  return notes.join("; ");
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}
