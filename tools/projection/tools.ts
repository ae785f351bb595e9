// The tools of a tree: every leaf of its catalogue not opted out and taking
// no files, named by the child names on its path (a fallback adds no name:
// its capture becomes a required argument), with its schemas as JSON Schema
// (the catalogue's, read once per leaf), its own tags as MCP annotations, and
// the catalogue's one prepared call. An output schema declaring bytes
// (`z.file()`) gives no outputSchema: the result is a content block, never
// structured content, so a schema of a string would contradict it. Used by
// `toTools` (describe.ts) and the MCP server (tools/server/), with the naming
// and schema helpers the other projections share (`schemaOf`, `titleOf`,
// `placeOf`).

import { type CatalogueEntry, catalogueOf } from "../../tree/catalogue.ts";
import type { LeafCall } from "../../tree/call.ts";
import type { FirstQuestion, Node } from "../../tree/node.ts";
import { holdsFile, isVoidSchema, type JsonSchema } from "../../tree/schema.ts";
import { soleMediaType } from "../../tree/bytes.ts";
import { joinPath, TOOL_NAME } from "./_names.ts";
import { warnUnhinted } from "./_hints.ts";
import { structuredSchema } from "./structured.ts";
import { type ParamHeader, paramHeadersOf } from "./param_headers.ts";
import { securityOf } from "../../tree/middleware.ts";

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
  /**
   * The arguments: a JSON Schema (2020-12) object; captures are required
   * strings. A leaf without an input schema takes an open object: any named
   * values, merged with its captures, reach its handler as sent.
   */
  readonly inputSchema: JsonSchema;
  /** The result's JSON Schema, when the leaf has an output schema (a stream's: a list of items). */
  readonly outputSchema?: JsonSchema;
  /** The hints the leaf's tags give. */
  readonly annotations: ToolAnnotations;
  /**
   * For a leaf an OAuth guard protects: `securitySchemes`, the scopes a call
   * needs (`[{ type: "oauth2", scopes }]`), as OpenAI's Apps SDK reads them.
   * Every caller sees every tool; this says which need a token.
   */
  readonly _meta?: { readonly securitySchemes: readonly ToolSecurityScheme[] };
}

/**
 * What a tool needs of its caller's token: an OAuth 2 scheme and its scopes.
 *
 * @example
 * ```ts
 * import type { ToolSecurityScheme } from "@ramify/api/tools";
 *
 * const scheme: ToolSecurityScheme = { type: "oauth2", scopes: ["books:write"] };
 * ```
 */
export interface ToolSecurityScheme {
  /** Always `oauth2`. */
  readonly type: "oauth2";
  /** The scopes a call needs; none: any valid token. */
  readonly scopes: readonly string[];
}

/** A tool with what the server needs to call it. */
export interface ToolEntry {
  readonly descriptor: ToolDescriptor;
  /** The leaf's one prepared call (the catalogue's). */
  readonly call: LeafCall;
  /** The fallback names on the path: the arguments that are captures. */
  readonly captures: readonly string[];
  /** The media type of bytes the output schema declares, when it names exactly one. */
  readonly bytesType?: string;
  /** Whether a call asks for confirmation first (the catalogue's `confirms`). */
  readonly confirms: boolean;
  /** The arguments a 2026-era client mirrors into `Mcp-Param-*` headers (SEP-2243). */
  readonly paramHeaders: readonly ParamHeader[];
  /**
   * A long-running leaf's (tag `longRunning`): whether a 2026-era client must
   * take a task (`meta.tools.task`); absent for any other leaf.
   */
  readonly task?: "optional" | "required";
  /** A long-running leaf's questions asked before its task is made (`meta.tools.askFirst`). */
  readonly askFirst?: readonly FirstQuestion[];
  /** The leaf's label (`catalog/reindex`), which a task's record keeps. */
  readonly label: string;
  /** The leaf: a way back to its task runs its guards for the caller. */
  readonly leaf: Node;
}

const HINTS = [
  ["readOnly", "readOnlyHint"],
  ["idempotent", "idempotentHint"],
  ["destructive", "destructiveHint"],
  ["openWorld", "openWorldHint"],
] as const;

/**
 * Every tool of the tree, in tree order; a name given twice is an error naming
 * both leaves. Warns about the tools without a readOnly or destructive hint
 * unless `warnMissingHints` is false.
 */
export function collectTools(
  root: Node,
  caller: string,
  warnMissingHints: boolean | undefined,
): ToolEntry[] {
  const tools: ToolEntry[] = [];
  const byName = new Map<string, string>();
  for (const entry of catalogueOf(root).entries) {
    if (entry.leaf.meta.tools === false || entry.leaf.meta.tools?.tool === false) continue;
    const input = schemaOf(entry, "input", caller);
    // Tool arguments are JSON: a leaf whose input takes files (`format: "binary"`) is no tool.
    if (holdsFile(input)) continue;
    const tool = toolOf(entry, caller, input);
    const name = tool.descriptor.name;
    const other = byName.get(name);
    if (other !== undefined) {
      throw new Error(
        `${caller}: ${other} and ${
          placeOf(entry)
        } both get the tool name "${name}"; give one another with meta.tools.name`,
      );
    }
    byName.set(name, placeOf(entry));
    tools.push(tool);
  }
  if (warnMissingHints !== false) warnUnhinted(tools.map((tool) => tool.descriptor), caller);
  return tools;
}

function toolOf(
  entry: CatalogueEntry,
  caller: string,
  input: JsonSchema | undefined,
): ToolEntry {
  const { leaf, names, captures } = entry;
  const own = leaf.meta.tools === false ? undefined : leaf.meta.tools;
  const name = own?.name ?? (names.length === 0 ? "root" : joinPath(names));
  if (!TOOL_NAME.test(name)) {
    throw new Error(
      `${caller}: the tool name of ${placeOf(entry)}, "${
        name.length > 40 ? `${name.slice(0, 40)}...` : name
      }", is not [A-Za-z0-9._-] of at most 128 characters; give another with meta.tools.name`,
    );
  }
  const tags = entry.tags;
  const annotations: Record<string, boolean> = {};
  for (const [tag, hint] of HINTS) {
    if (typeof tags[tag] === "boolean") annotations[hint] = tags[tag];
  }
  const description = own?.description ?? leaf.meta.description;
  const output = schemaOf(entry, "output", caller);
  const bytes = entry.bytes;
  const inputSchema = inputSchemaOf(input, captures);
  let paramHeaders: readonly ParamHeader[];
  try {
    paramHeaders = paramHeadersOf(inputSchema);
  } catch (error) {
    throw new Error(`${caller}: ${placeOf(entry)}: ${(error as Error).message}`, { cause: error });
  }
  return {
    descriptor: {
      name,
      title: own?.title ?? titleOf(names),
      ...(typeof description === "string" ? { description } : {}),
      inputSchema,
      ...(output === undefined || bytes !== undefined
        ? {}
        : { outputSchema: structuredSchema(tags.streaming === true ? listOf(output) : output) }),
      annotations,
      ...securityMeta(leaf),
    },
    // Read on the first call: the catalogue prepares a leaf's call only when
    // asked, and a list of tools (`toTools`) never calls one.
    get call() {
      return entry.call;
    },
    captures,
    bytesType: soleMediaType(bytes),
    confirms: entry.confirms,
    paramHeaders,
    ...(entry.longRunning ? { task: own?.task ?? "optional" } : {}),
    ...(own?.askFirst === undefined
      ? {}
      : { askFirst: firstQuestionsOf(own.askFirst, entry, caller) }),
    label: entry.label,
    leaf: entry.leaf,
  };
}

/**
 * A side's JSON Schema, the catalogue's (read once per leaf); a schema
 * without one fails naming the leaf and `caller`.
 */
export function schemaOf(
  entry: CatalogueEntry,
  side: "input" | "output",
  caller: string,
): JsonSchema | undefined {
  const schema = entry.leaf.meta[side];
  // A leaf that returns nothing has no structured content to describe.
  if (schema === undefined || (side === "output" && isVoidSchema(schema))) return undefined;
  try {
    return side === "input" ? entry.inputSchema : entry.outputSchema;
  } catch (error) {
    throw new Error(
      `${caller}: the ${side} schema of ${placeOf(entry)} has no JSON Schema form: ${
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

/**
 * Always an object; each capture a required string unless the schema types it.
 * No schema: an open object (the handler takes the merged input as sent), its
 * captures named. Every other keyword the schema holds (`allOf`, `if`/`then`/
 * `else`, `$anchor`, `$defs`, `dependentRequired`, ...) is kept as written; a
 * root that names no type (zod's `.and()` of described objects is an `allOf`)
 * is said to be an object, as MCP requires of every input schema.
 */
function inputSchemaOf(schema: JsonSchema | undefined, captures: readonly string[]): JsonSchema {
  if (schema === undefined) {
    return {
      type: "object",
      properties: Object.fromEntries(captures.map((name) => [name, { type: "string" }])),
      required: [...captures],
      additionalProperties: true,
    };
  }
  if (captures.length === 0) {
    return schema.type === undefined ? { ...schema, type: "object" } : schema;
  }
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const capture of captures) {
    if (!Object.hasOwn(properties, capture)) properties[capture] = { type: "string" };
  }
  const required = [...new Set([...(schema.required as string[] | undefined ?? []), ...captures])];
  return { ...schema, type: "object", properties, required };
}

/** "books.byAuthor" reads as "Books: by author". */
export function titleOf(names: readonly string[]): string {
  if (names.length === 0) return "Root";
  const words = names.map((name) =>
    name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[-_]+/g, " ").toLowerCase().trim()
  );
  const text = words.join(": ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * `meta.tools.askFirst`, checked: only a long-running leaf's call becomes a
 * task to ask before, and each question needs a key of its own.
 */
function firstQuestionsOf(
  questions: readonly FirstQuestion[],
  entry: CatalogueEntry,
  caller: string,
): readonly FirstQuestion[] {
  const wrong = (why: string) =>
    new Error(`${caller}: ${placeOf(entry)}: meta.tools.askFirst ${why}`);
  if (!entry.longRunning) throw wrong("is for a long-running leaf (tag longRunning)");
  const keys = questions.map((question) => question?.key);
  if (keys.some((key) => typeof key !== "string" || key === "")) {
    throw wrong("needs a key for each question, the one the handler asks it with");
  }
  if (new Set(keys).size !== keys.length) throw wrong("names a key twice");
  return questions;
}

/** "the leaf at books/{bookId}/read", or "the root leaf". */
export function placeOf(entry: CatalogueEntry): string {
  return entry.steps.length === 0 ? "the root leaf" : `the leaf at ${entry.label}`;
}

/** A guarded leaf's `_meta.securitySchemes`: one per guard naming a protected resource. */
function securityMeta(leaf: Node): Pick<ToolDescriptor, "_meta"> {
  const schemes = securityOf(leaf).flatMap((security) =>
    security.resource === undefined
      ? []
      : [{ type: "oauth2" as const, scopes: security.scopesFor?.(leaf) ?? security.scopes }]
  );
  return schemes.length === 0 ? {} : { _meta: { securitySchemes: schemes } };
}
