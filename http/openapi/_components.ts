// Named schemas for an OpenAPI document. JSON Schema from the schema libraries
// arrives inline (titled subschemas) or in a root's `$defs` (ids and recursive
// schemas). Both become `components.schemas` entries referenced by `$ref`,
// deduplicated by content across operations, under stable, valid names: a
// schema's own name, else (a recursive schema must be a component) the name
// GraphQL gives its type, by the one rule of `tree/schema.ts`.

import {
  type DerivedName,
  isBetterName,
  type JsonSchema,
  nameBelow,
  ownSchemaName,
} from "../../tree/schema.ts";
import { isPlainObject, setOwn } from "../../tree/plain_data.ts";

const COMPONENT_PREFIX = "#/components/schemas/";
const DEFS_PREFIX = "#/$defs/";

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;
/** Keywords whose value is an array of schemas. */
const SCHEMA_LIST_KEYWORDS = ["prefixItems", "allOf", "anyOf", "oneOf"] as const;
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas"] as const;

/** Applies `fn` to every direct subschema, giving a new schema; `$defs` are left out. */
function mapSubschemas(schema: JsonSchema, fn: (sub: JsonSchema) => JsonSchema): JsonSchema {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === "$defs" || key === "definitions") continue;
    if ((SCHEMA_KEYWORDS as readonly string[]).includes(key) && isPlainObject(value)) {
      setOwn(result, key, fn(value));
    } else if ((SCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      setOwn(result, key, value.map((item) => isPlainObject(item) ? fn(item) : item));
    } else if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isPlainObject(value)) {
      const mapped: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        const sub = value[name];
        setOwn(mapped, name, isPlainObject(sub) ? fn(sub) : sub);
      }
      setOwn(result, key, mapped);
    } else {
      setOwn(result, key, value);
    }
  }
  return result;
}

/** A valid component key (`^[a-zA-Z0-9._-]+$`) from a title or id. */
function componentName(text: string): string | undefined {
  const base = text.split(/[/#]/).filter(Boolean).pop() ?? "";
  const words = base.split(/[^A-Za-z0-9._-]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return name === "" ? undefined : name;
}

/** A schema's own name (the rule every projection shares), as a component key. */
function preferredName(schema: JsonSchema, defKey?: string): string | undefined {
  const own = ownSchemaName(schema, defKey);
  return own === undefined ? undefined : componentName(own);
}

/**
 * Names for the `$defs` without a name of their own (a recursive schema zod
 * files as `__schema0`), as GraphQL names their types: from the nearest named
 * holder and the path below it, else from the operation (`owner`).
 */
function derivedDefNames(
  root: JsonSchema,
  defs: Record<string, JsonSchema>,
  owner: string,
): Map<string, string> {
  const found = new Map<string, DerivedName>();
  const entered = new Set<string>();
  const walk = (schema: JsonSchema, here: DerivedName): void => {
    const ref = schema.$ref;
    if (typeof ref === "string" && ref.startsWith(DEFS_PREFIX)) {
      const key = decodeURIComponent(ref.slice(DEFS_PREFIX.length));
      const def = defs[key];
      if (!Object.hasOwn(defs, key) || !isPlainObject(def)) return;
      if (preferredName(def, key) === undefined) {
        const current = found.get(key);
        if (current === undefined || isBetterName(here, current)) found.set(key, here);
      }
      if (!entered.has(key)) {
        entered.add(key);
        walk(def, here);
      }
      return;
    }
    const own = preferredName(schema);
    // Properties add their name; lists and wrappers are no types of their own.
    const through = own === undefined ? here : nameBelow(own, here, "");
    for (const key of SCHEMA_MAP_KEYWORDS) {
      const map = schema[key];
      if (!isPlainObject(map)) continue;
      for (const name of Object.keys(map)) {
        const sub = map[name];
        if (isPlainObject(sub)) walk(sub, nameBelow(own, here, componentName(name) ?? ""));
      }
    }
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      const members = list.filter((item) => isPlainObject(item) && item.type !== "null");
      members.forEach((member, index) =>
        walk(member, members.length === 1 ? through : nameBelow(own, here, String(index + 1)))
      );
    }
    for (const key of SCHEMA_KEYWORDS) {
      const sub = schema[key];
      if (isPlainObject(sub)) walk(sub, through);
    }
  };
  walk(root, { name: owner, depth: 0, fromOperation: true });
  const names = new Map<string, string>();
  for (const [key, derived] of found) {
    const name = componentName(derived.name);
    if (name !== undefined) names.set(key, name);
  }
  return names;
}

/** Canonical text of a schema: keys sorted, so equal content compares equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${
      Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * How to name what a root schema holds: `owner` (the operation, for schemas
 * with no title or id) and `side` (`Input` or `Output`, for a name taken by a
 * different schema).
 */
export interface Naming {
  readonly owner: string;
  readonly side: "Input" | "Output";
}

/** The `components.schemas` of one document under construction. */
export class ComponentRegistry {
  readonly #schemas = new Map<string, JsonSchema>();
  readonly #canonical = new Map<string, string>();
  // Libraries' JSON Schemas are cached per schema object, so operations sharing
  // a schema share its preparation (and its names) instead of redoing it.
  readonly #prepared = new WeakMap<JsonSchema, Map<string, JsonSchema>>();

  /** The collected components, in first-use order. */
  get schemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [name, schema] of this.#schemas) setOwn(out, name, schema);
    return out;
  }

  /** Adds a fixed component (such as `Problem`) under its own name. */
  define(name: string, schema: JsonSchema): void {
    this.#schemas.set(name, schema);
    this.#canonical.set(name, canonical(schema));
  }

  /**
   * Prepares a root schema from a library: `$schema` dropped, its `$defs` and
   * titled subschemas registered, references rewritten. The root itself stays
   * inline (callers read its properties); `named` turns a titled root into a
   * reference too.
   */
  prepare(raw: JsonSchema, naming: Naming, named: boolean): JsonSchema {
    let byKind = this.#prepared.get(raw);
    if (byKind === undefined) this.#prepared.set(raw, byKind = new Map());
    const kind = `${naming.side}:${named}`;
    let prepared = byKind.get(kind);
    if (prepared === undefined) byKind.set(kind, prepared = this.#prepare(raw, naming, named));
    return prepared;
  }

  #prepare(raw: JsonSchema, naming: Naming, named: boolean): JsonSchema {
    const { $schema: _dialect, $defs, definitions, ...root } = raw;
    const defs = {
      ...(isPlainObject(definitions) ? definitions : {}),
      ...(isPlainObject($defs) ? $defs : {}),
    } as Record<string, JsonSchema>;
    const defNames = this.#placeDefs(defs, derivedDefNames(root, defs, naming.owner), naming);
    const rewrite = (schema: JsonSchema): JsonSchema => this.#extract(schema, defNames, naming);
    const inlined = mapSubschemas(rewriteRef(root, defNames), rewrite);
    return named ? this.#named(inlined, naming) : inlined;
  }

  /** A subschema (already prepared) as a reference when it is titled. */
  #named(schema: JsonSchema, naming: Naming): JsonSchema {
    const name = preferredName(schema);
    return name === undefined
      ? schema
      : { $ref: COMPONENT_PREFIX + this.#claim(name, schema, naming) };
  }

  #extract(schema: JsonSchema, defNames: ReadonlyMap<string, string>, naming: Naming): JsonSchema {
    const inner = mapSubschemas(
      rewriteRef(schema, defNames),
      (sub) => this.#extract(sub, defNames, naming),
    );
    return this.#named(inner, naming);
  }

  /**
   * Names every `$def` and registers it. Names are chosen first so that
   * recursive references can point at them; a name whose content differs from
   * an existing component moves on to the next free one and all are redone.
   */
  #placeDefs(
    defs: Record<string, JsonSchema>,
    derived: ReadonlyMap<string, string>,
    naming: Naming,
  ): Map<string, string> {
    const keys = Object.keys(defs);
    const names = new Map<string, string>();
    keys.forEach((key, index) => {
      const preferred = preferredName(defs[key], key) ?? derived.get(key) ??
        `${naming.owner}Def${index + 1}`;
      names.set(key, preferred);
    });
    for (let attempt = 0; attempt <= keys.length; attempt++) {
      const bodies = new Map<string, JsonSchema>();
      for (const key of keys) {
        const def = rewriteRef(defs[key], names);
        bodies.set(key, mapSubschemas(def, (sub) => this.#extract(sub, names, naming)));
      }
      const clash = keys.find((key) => {
        const existing = this.#canonical.get(names.get(key)!);
        return existing !== undefined && existing !== canonical(bodies.get(key));
      });
      if (clash === undefined) {
        for (const key of keys) {
          const name = names.get(key)!;
          if (!this.#schemas.has(name)) this.define(name, bodies.get(key)!);
        }
        return names;
      }
      names.set(clash, this.#freeName(names.get(clash)!, naming));
    }
    throw new Error(`toOpenApi: could not name the schemas of ${naming.owner}`);
  }

  /** The component name for a schema: its own when free or equal, else the next free one. */
  #claim(preferred: string, schema: JsonSchema, naming: Naming): string {
    const text = canonical(schema);
    for (const candidate of this.#candidates(preferred, naming)) {
      const existing = this.#canonical.get(candidate);
      if (existing === text) return candidate;
      if (existing === undefined) {
        this.define(candidate, schema);
        return candidate;
      }
    }
    throw new Error("unreachable: candidates are unbounded");
  }

  #freeName(preferred: string, naming: Naming): string {
    for (const candidate of this.#candidates(preferred, naming)) {
      if (!this.#schemas.has(candidate)) return candidate;
    }
    throw new Error("unreachable: candidates are unbounded");
  }

  *#candidates(preferred: string, naming: Naming): Generator<string> {
    yield preferred;
    // A second, different schema of one name is usually the other side of it
    // (an input schema is open where its output is strict): name it so.
    yield `${preferred}${naming.side}`;
    for (let n = 2;; n++) yield `${preferred}${naming.side}${n}`;
  }
}

function rewriteRef(schema: JsonSchema, defNames: ReadonlyMap<string, string>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith(DEFS_PREFIX)) return schema;
  const name = defNames.get(decodeURIComponent(ref.slice(DEFS_PREFIX.length)));
  return name === undefined ? schema : { ...schema, $ref: COMPONENT_PREFIX + name };
}
