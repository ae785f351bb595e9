// A leaf's flags, read from its input's string plan: one flag per property
// (kebab-case, the property's own spelling accepted too), dotted flags for the
// properties of nested objects, arrays by repetition; and the values the
// command line gave, turned into the leaf's flat input.

import { isPlainObject, setOwn } from "../tree/plain_data.ts";
import type { StringField, StringPlan } from "../tree/string_plan.ts";
import { UsageError } from "./_usage.ts";
import { mediaTypeOf } from "./_media_types.ts";

export type FlagKind = "string" | "number" | "integer" | "boolean" | "json" | "file";

/** One flag of a leaf. */
export interface Flag {
  /** The flag as written, without `--`: kebab-case. */
  readonly name: string;
  /** Other names that set it: the property's own spelling. */
  readonly aliases: readonly string[];
  /** Where the value goes in the input. */
  readonly path: readonly string[];
  readonly kind: FlagKind;
  /** An array: the flag repeats. */
  readonly multiple: boolean;
  readonly required: boolean;
  readonly description?: string;
  readonly choices?: readonly unknown[];
  readonly default?: unknown;
}

/** Dotted flags reach this deep into nested objects. */
const MAX_NESTING = 4;

/**
 * The flags of a leaf, from its string plan (the catalogue's `strings`, the
 * one reading of its input schema that the HTTP query shares); captures are
 * words, not flags.
 */
export function flagsOf(plan: StringPlan | undefined, captures: readonly string[]): Flag[] {
  const flags: Flag[] = [];
  const visit = (fields: StringPlan, path: readonly string[]) => {
    for (const [key, field] of fields) {
      if (path.length === 0 && captures.includes(key)) continue;
      const here = [...path, key];
      const name = here.map(kebab).join(".");
      const spelled = here.join(".");
      const { kind, multiple, choices } = describe(field);
      flags.push({
        name,
        aliases: spelled === name ? [] : [spelled],
        path: here,
        kind,
        multiple,
        required: field.required,
        ...(choices === undefined ? {} : { choices }),
        ...(field.description === undefined ? {} : { description: field.description }),
        ...("default" in field ? { default: field.default } : {}),
      });
      if (field.fields !== undefined && here.length < MAX_NESTING) visit(field.fields, here);
    }
  };
  if (plan !== undefined) visit(plan, []);
  return flags;
}

/** A field as a flag: an array repeats the flag (an array of arrays is one JSON value). */
function describe(field: StringField): Pick<Flag, "kind" | "multiple" | "choices"> {
  if (field.type === "array") {
    const items = field.items!;
    const single = items.type !== "array";
    return { kind: single ? kindOf(items) : "json", multiple: single, choices: items.choices };
  }
  return { kind: kindOf(field), multiple: false, choices: field.choices };
}

function kindOf(field: StringField): FlagKind {
  return field.type === "object" || field.type === "any" || field.type === "array"
    ? "json"
    : field.type;
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** Reads a file flag's value: a path. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

/**
 * Sets each flag the command line gave on the input: numbers and integers
 * checked, JSON parsed, `--no-flag` false, files read. What the schema then
 * says of the values is the call path's business, as on every surface.
 */
export async function applyFlags(
  flags: readonly Flag[],
  values: Readonly<Record<string, unknown>>,
  input: Record<string, unknown>,
  readFile: ReadFile,
): Promise<void> {
  for (const flag of flags) {
    const names = [flag.name, ...flag.aliases];
    if (flag.kind === "boolean" && names.some((name) => values[`no-${name}`] === true)) {
      place(input, flag.path, flag.multiple ? [false] : false);
      continue;
    }
    const given = names.map((name) => values[name]).find((value) => value !== undefined);
    if (given === undefined) continue;
    const raw = Array.isArray(given) ? given : [given];
    const parsed = [];
    for (const text of raw) parsed.push(await valueOf(flag, text, readFile));
    place(input, flag.path, flag.multiple ? parsed : parsed[parsed.length - 1]);
  }
}

async function valueOf(flag: Flag, text: unknown, readFile: ReadFile): Promise<unknown> {
  if (flag.kind === "boolean" || typeof text !== "string") return text;
  const refuse = (expected: string) => {
    throw new UsageError(`--${flag.name} expects ${expected}, got ${JSON.stringify(text)}`);
  };
  switch (flag.kind) {
    case "number":
    case "integer": {
      const value = text.trim() === "" ? Number.NaN : Number(text);
      if (!Number.isFinite(value)) refuse("a number");
      if (flag.kind === "integer" && !Number.isInteger(value)) refuse("an integer");
      return value;
    }
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        // A union of scalars takes plain words too; the schema decides.
        return text;
      }
    case "file": {
      const bytes = await readFile(text).catch(() => refuse("a readable file"));
      const name = text.split(/[\\/]/).pop() ?? text;
      return new File([bytes as Uint8Array<ArrayBuffer>], name, { type: mediaTypeOf(name) });
    }
    default:
      return text;
  }
}

/** Sets a value at a path of own keys, making the objects on the way. */
export function place(
  input: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  let at = input;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(at[key])) setOwn(at, key, {});
    at = at[key] as Record<string, unknown>;
  }
  setOwn(at, path[path.length - 1], value);
}
