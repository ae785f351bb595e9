// The tree's prompts (leaves made by `prompt()`, marked `meta.prompt`) as MCP
// lists them: a name, a title, the arguments from the input schema (a
// capture is a required string one), and the completer leaf of each argument
// that names one. Used by the MCP server (tools/server/_prompts.ts), which
// answers `prompts/list`, `prompts/get` and their completions.

import type { ListPromptsResult } from "@modelcontextprotocol/server";
import type { LeafCall } from "../../tree/call.ts";
import { catalogueOf } from "../../tree/catalogue.ts";
import type { Node } from "../../tree/node.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import type { JsonSchema } from "../../tree/schema.ts";
import { joinPath, TOOL_NAME } from "./_names.ts";
import { schemaOf } from "./tools.ts";

/** A prompt as `prompts/list` describes it, with what serving it needs. */
export interface PromptEntry {
  readonly descriptor: ListPromptsResult["prompts"][number];
  /** The leaf's one prepared call (the catalogue's). */
  readonly call: LeafCall;
  /** Each argument's JSON Schema, for completion from an `enum`. */
  readonly fields: Readonly<Record<string, JsonSchema>>;
  /** Completer leaves' calls, by argument: leaves of the tree, so the catalogue's calls too. */
  readonly completers: ReadonlyMap<string, LeafCall>;
}

/** Every prompt of the tree, in tree order; a name given twice, or an unknown completer, is an error. */
export function collectPrompts(root: Node, caller: string): PromptEntry[] {
  const { entries } = catalogueOf(root);
  const byLabel = new Map(entries.map((entry) => [entry.label, entry]));
  const prompts: PromptEntry[] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    const { leaf, names: path, captures, label } = entry;
    const meta = leaf.meta.prompt;
    if (meta === undefined || leaf.meta.tools === false) continue;
    const name = meta.name ?? (path.length === 0 ? "root" : joinPath(path));
    if (!TOOL_NAME.test(name) || names.has(name)) {
      throw new Error(
        `${caller}: the prompt at ${label} gets the name "${name}", ${
          names.has(name) ? "which another prompt has" : "which is not [A-Za-z0-9._-]{1,128}"
        }; give another with prompt(..., { name })`,
      );
    }
    names.add(name);
    const input = schemaOf(entry, "input", caller);
    const properties = isPlainObject(input?.properties)
      ? input.properties as Record<string, JsonSchema>
      : {};
    const fields: Record<string, JsonSchema> = { ...properties };
    for (const capture of captures) fields[capture] ??= { type: "string" };
    const required = new Set([...(input?.required as string[] | undefined ?? []), ...captures]);
    const completers = new Map<string, LeafCall>();
    for (const [argument, place] of Object.entries(meta.complete ?? {})) {
      const completer = byLabel.get(place);
      if (completer === undefined || !Object.hasOwn(fields, argument)) {
        throw new Error(
          `${caller}: the prompt "${name}" completes "${argument}" with "${place}", ${
            completer === undefined ? "which is no leaf" : "which is no argument of it"
          }`,
        );
      }
      completers.set(argument, completer.call);
    }
    const description = leaf.meta.description;
    prompts.push({
      descriptor: {
        name,
        ...(meta.title === undefined ? {} : { title: meta.title }),
        ...(typeof description === "string" ? { description } : {}),
        arguments: Object.entries(fields).map(([field, schema]) => ({
          name: field,
          ...(typeof schema.title === "string" ? { title: schema.title } : {}),
          ...(typeof schema.description === "string" ? { description: schema.description } : {}),
          required: required.has(field),
        })),
      },
      call: entry.call,
      fields,
      completers,
    });
  }
  return prompts;
}
