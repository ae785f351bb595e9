// A leaf's flags, read from its input JSON Schema: one flag per property
// (kebab-case, the property's own spelling accepted too), dotted flags for the
// properties of nested objects, arrays by repetition; and the values the
// command line gave, turned into the leaf's flat input.

import { isPlainObject, setOwn } from "../tree/plain_data.ts";
import type { JsonSchema } from "../tree/schema.ts";
import { followRefs } from "../tree/schema_refs.ts";
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

const MAX_NESTING = 4;

/** The flags of an input schema; captures are words, not flags. */
export function flagsOf(schema: JsonSchema | undefined, captures: readonly string[]): Flag[] {
  if (schema === undefined) return [];
  const flags: Flag[] = [];
  const visit = (object: JsonSchema, path: readonly string[], required: boolean) => {
    const properties = object.properties as Record<string, JsonSchema> | undefined;
    const requiredKeys = new Set((object.required as string[] | undefined) ?? []);
    for (const [key, raw] of Object.entries(properties ?? {})) {
      if (path.length === 0 && captures.includes(key)) continue;
      const property = resolve(raw, schema);
      const here = [...path, key];
      const isRequired = required && requiredKeys.has(key);
      const described = describe(property, schema);
      const name = here.map(kebab).join(".");
      const spelled = here.join(".");
      flags.push({
        name,
        aliases: spelled === name ? [] : [spelled],
        path: here,
        required: isRequired,
        ...described,
        ...(typeof property.description === "string" ? { description: property.description } : {}),
        ...("default" in property ? { default: property.default } : {}),
      });
      if (described.kind === "json" && isObjectSchema(property) && here.length < MAX_NESTING) {
        visit(property, here, isRequired);
      }
    }
  };
  visit(resolve(schema, schema), [], true);
  return flags;
}

function describe(
  property: JsonSchema,
  root: JsonSchema,
): { kind: FlagKind; multiple: boolean; choices?: readonly unknown[] } {
  const type = singleType(property);
  if (type === "array") {
    const items = property.items === undefined ? {} : resolve(property.items as JsonSchema, root);
    const item = describe(items, root);
    return {
      kind: item.multiple ? "json" : item.kind,
      multiple: !item.multiple,
      ...choicesOf(items),
    };
  }
  const choices = choicesOf(property);
  if (type === "string") {
    return { kind: property.format === "binary" ? "file" : "string", multiple: false, ...choices };
  }
  if (type === "integer" || type === "number" || type === "boolean") {
    return { kind: type, multiple: false, ...choices };
  }
  return { kind: "json", multiple: false, ...choices };
}

function choicesOf(schema: JsonSchema): { choices?: readonly unknown[] } {
  if (Array.isArray(schema.enum)) return { choices: schema.enum };
  if ("const" in schema) return { choices: [schema.const] };
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (members?.every((member) => "const" in member)) {
    return { choices: members.map((member) => member.const) };
  }
  return {};
}

/** The one type a schema has, leaving out `null`; `undefined` for none or several. */
function singleType(schema: JsonSchema): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) =>
    type !== undefined && type !== "null"
  );
  if (types.length === 1) return types[0] as string;
  if (types.length > 1) return undefined;
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) {
    return "string";
  }
  const members = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.filter((member) =>
    member.type !== "null"
  );
  return members?.length === 1 ? singleType(members[0]) : undefined;
}

function isObjectSchema(schema: JsonSchema): boolean {
  return isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** Follows local `$ref`s (`#/$defs/Name`); one that names nothing stays as it is. */
function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const target = followRefs(schema, root);
  return isPlainObject(target) ? target : schema;
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
