// The tools of a tree: every leaf not opted out and taking no files, named by the child names on
// its path (a fallback adds no name: its capture becomes a required argument),
// with its schemas as JSON Schema and its own tags as MCP annotations.

import type { Leaf, Node, TreeStep } from "../tree/node.ts";
import { isLeaf } from "../tree/node.ts";
import { holdsFile, type JsonSchema, toJsonSchema } from "../tree/schema.ts";
import { tagsOf } from "../tree/tags.ts";
import { joinPath, TOOL_NAME } from "./_names.ts";

/**
 * MCP's hints about a tool, from the leaf's own tags (implications applied).
 * A tag authored `false` is written `false`: MCP assumes the worst otherwise.
 */
export interface ToolAnnotations {
  /** The tool does not change its environment (tag `readOnly`). */
  readonly readOnlyHint?: boolean;
  /** Calling it again with the same arguments changes nothing more (tag `idempotent`). */
  readonly idempotentHint?: boolean;
  /** It may destroy state (tag `destructive`). */
  readonly destructiveHint?: boolean;
  /** It may reach systems beyond the server (tag `openWorld`). */
  readonly openWorldHint?: boolean;
}

/** A tool as MCP's `tools/list` describes it. */
export interface ToolDescriptor {
  /** The tool name: the child names on the leaf's path, joined (or `meta.tools.name`). */
  readonly name: string;
  /** A display title. */
  readonly title: string;
  /** What the tool does (`meta.tools.description`, else `meta.description`). */
  readonly description?: string;
  /** The arguments: a JSON Schema (2020-12) object; captures are required strings. */
  readonly inputSchema: JsonSchema;
  /** The result's JSON Schema, when the leaf has an output schema (a stream's: a list of items). */
  readonly outputSchema?: JsonSchema;
  /** The hints the leaf's tags give. */
  readonly annotations: ToolAnnotations;
}

/** A tool with what the server needs to call it. */
export interface ToolEntry {
  readonly descriptor: ToolDescriptor;
  readonly leaf: Leaf<never, unknown>;
  /** The fallback names on the path: the arguments that are captures. */
  readonly captures: readonly string[];
  /** Whether the leaf yields a stream. */
  readonly streaming: boolean;
}

const HINTS = [
  ["readOnly", "readOnlyHint"],
  ["idempotent", "idempotentHint"],
  ["destructive", "destructiveHint"],
  ["openWorld", "openWorldHint"],
] as const;

/** Every tool of the tree, in tree order; a name given twice is an error naming both leaves. */
export function collectTools(root: Node, caller: string): ToolEntry[] {
  const entries: ToolEntry[] = [];
  const byName = new Map<string, readonly TreeStep[]>();
  const visit = (node: Node, steps: readonly TreeStep[]) => {
    // Tool arguments are JSON: a leaf whose input takes files (`format: "binary"`) is no tool.
    const input = isLeaf(node) && node.meta?.tools !== false
      ? schemaOf(node, "input", steps, caller)
      : undefined;
    if (isLeaf(node) && node.meta?.tools !== false && !holdsFile(input)) {
      const entry = entryOf(node, steps, caller, input);
      const other = byName.get(entry.descriptor.name);
      if (other !== undefined) {
        throw new Error(
          `${caller}: ${describe(other)} and ${
            describe(steps)
          } both get the tool name "${entry.descriptor.name}"; give one another with meta.tools.name`,
        );
      }
      byName.set(entry.descriptor.name, steps);
      entries.push(entry);
    }
    for (const [name, child] of Object.entries(node.children ?? {})) {
      visit(child, [...steps, { kind: "child", name }]);
    }
    if (node.fallback !== undefined) {
      visit(node.fallback.subtree, [...steps, { kind: "fallback", name: node.fallback.name }]);
    }
  };
  visit(root, []);
  return entries;
}

function entryOf(
  leaf: Leaf<never, unknown>,
  steps: readonly TreeStep[],
  caller: string,
  input: JsonSchema | undefined,
): ToolEntry {
  const own = leaf.meta.tools === false ? undefined : leaf.meta.tools;
  const names = steps.filter((step) => step.kind === "child").map((step) => step.name);
  const name = own?.name ?? (names.length === 0 ? "root" : joinPath(names));
  if (!TOOL_NAME.test(name)) {
    throw new Error(
      `${caller}: the tool name of ${describe(steps)}, "${
        name.length > 40 ? `${name.slice(0, 40)}...` : name
      }", is not [A-Za-z0-9._-] of at most 128 characters; give another with meta.tools.name`,
    );
  }
  const captures = steps.filter((step) => step.kind === "fallback").map((step) => step.name);
  const tags = tagsOf(leaf);
  const annotations: Record<string, boolean> = {};
  for (const [tag, hint] of HINTS) {
    if (typeof tags[tag] === "boolean") annotations[hint] = tags[tag];
  }
  const description = own?.description ?? leaf.meta.description;
  const output = schemaOf(leaf, "output", steps, caller);
  const streaming = tags.streaming === true;
  return {
    descriptor: {
      name,
      title: own?.title ?? titleOf(names),
      ...(typeof description === "string" ? { description } : {}),
      inputSchema: inputSchemaOf(input, captures),
      ...(output === undefined ? {} : { outputSchema: streaming ? listOf(output) : output }),
      annotations,
    },
    leaf,
    captures,
    streaming,
  };
}

function schemaOf(
  leaf: Leaf<never, unknown>,
  side: "input" | "output",
  steps: readonly TreeStep[],
  caller: string,
): JsonSchema | undefined {
  const schema = leaf.meta[side];
  if (schema === undefined) return undefined;
  try {
    return toJsonSchema(schema, side);
  } catch (error) {
    throw new Error(
      `${caller}: the ${side} schema of ${describe(steps)} has no JSON Schema form: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
}

/** A list of a stream's items; the item's `$schema` and `$defs` move to the root, where refs find them. */
function listOf(item: JsonSchema): JsonSchema {
  const { $schema, $defs, ...rest } = item;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: "array",
    items: rest,
    ...($defs === undefined ? {} : { $defs }),
  };
}

/** Always an object; each capture a required string unless the schema types it. */
function inputSchemaOf(schema: JsonSchema | undefined, captures: readonly string[]): JsonSchema {
  const base: JsonSchema = schema ?? { type: "object", additionalProperties: true };
  if (captures.length === 0) return base;
  const properties = { ...(base.properties as Record<string, JsonSchema> | undefined) };
  for (const capture of captures) {
    if (!Object.hasOwn(properties, capture)) properties[capture] = { type: "string" };
  }
  const required = [...new Set([...(base.required as string[] | undefined ?? []), ...captures])];
  return { ...base, type: "object", properties, required };
}

/** "books.byAuthor" reads as "Books: by author". */
function titleOf(names: readonly string[]): string {
  if (names.length === 0) return "Root";
  const words = names.map((name) =>
    name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[-_]+/g, " ").toLowerCase().trim()
  );
  const text = words.join(": ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describe(steps: readonly TreeStep[]): string {
  if (steps.length === 0) return "the root leaf";
  return `the leaf at ${
    steps.map((step) => step.kind === "child" ? step.name : `{${step.name}}`).join("/")
  }`;
}
