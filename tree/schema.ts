/**
 * The schema layer: `meta.input` and `meta.output` hold a Standard Schema (zod 4,
 * valibot, arktype, ...). It validates input, types handlers and clients, and
 * its JSON Schema (draft 2020-12, through the Standard JSON Schema interface) is
 * the one type IR that OpenAPI, GraphQL and tool descriptions derive from.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { validateInput, inputJsonSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const add = op(({ title }) => title, { input: z.object({ title: z.string() }) });
 * const result = await validateInput(add, { title: 42 });
 * console.log(result.ok); // false
 * console.log(inputJsonSchema(add)?.required); // ["title"]
 * ```
 *
 * @module
 */

import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type { Leaf, Node } from "./node.ts";
import { dateOptions, type DatePath } from "./dates.ts";
import { resolveRef } from "./schema_refs.ts";

/**
 * A JSON Schema (draft 2020-12) object.
 *
 * @example
 * ```ts
 * import type { JsonSchema } from "@ramify/api/tree/catalogue";
 *
 * const schema: JsonSchema = { type: "object", properties: { id: { type: "string" } } };
 * ```
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * One validation problem, with the path of keys to the offending value.
 *
 * @example
 * ```ts
 * import type { ValidationIssue } from "@ramify/api/tree";
 *
 * const issue: ValidationIssue = { message: "Expected string", path: ["title"] };
 * ```
 */
export interface ValidationIssue {
  /** What is wrong, in the schema library's words. */
  readonly message: string;
  /** Keys from the input's root to the value (empty for the root). */
  readonly path: readonly (string | number)[];
}

/**
 * The outcome of {@linkcode validateInput}: the schema's output value, or the
 * issues found.
 *
 * @example
 * ```ts
 * import type { ValidationResult } from "@ramify/api/tree/catalogue";
 *
 * const ok: ValidationResult<number> = { ok: true, value: 1 };
 * ```
 */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/**
 * Whether a value implements the Standard Schema interface (version 1).
 *
 * @example
 * ```ts
 * import { isStandardSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(isStandardSchema(z.string())); // true
 * console.log(isStandardSchema({ type: "string" })); // false
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) {
    return false;
  }
  const props = (value as { "~standard"?: unknown })["~standard"];
  return typeof props === "object" && props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === "function";
}

/**
 * Validates a value against a node's `meta.input` (or a schema given directly).
 * Without a schema every value passes unchanged.
 *
 * @example
 * ```ts
 * import { validateInput } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const result = await validateInput(z.object({ n: z.coerce.number() }), { n: "2" });
 * if (result.ok) console.log(result.value); // { n: 2 }
 * ```
 */
export async function validateInput<T = unknown>(
  nodeOrSchema: Node | StandardSchemaV1<unknown, T>,
  value: unknown,
): Promise<ValidationResult<T>> {
  const schema = isStandardSchema(nodeOrSchema) ? nodeOrSchema : (nodeOrSchema as Node).meta?.input;
  if (schema === undefined) return { ok: true, value: value as T };
  const result = await schema["~standard"].validate(value);
  if (result.issues === undefined) {
    return { ok: true, value: result.value as T };
  }
  return { ok: false, issues: result.issues.map(normalizeIssue) };
}

/** A Standard Schema issue with its path as plain keys. */
export function normalizeIssue(issue: StandardSchemaV1.Issue): ValidationIssue {
  const path = (issue.path ?? []).map((segment) => {
    const key = typeof segment === "object" ? segment.key : segment;
    return typeof key === "number" ? key : String(key);
  });
  return { message: issue.message, path };
}

/**
 * Whether a schema also implements Standard JSON Schema, so that its JSON
 * Schema can be read.
 *
 * @example
 * ```ts
 * import { hasJsonSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(hasJsonSchema(z.string())); // true
 * ```
 */
export function hasJsonSchema(
  schema: StandardSchemaV1,
): schema is StandardSchemaV1 & StandardJSONSchemaV1 {
  const converter = (schema["~standard"] as { jsonSchema?: unknown }).jsonSchema;
  return typeof converter === "object" && converter !== null &&
    typeof (converter as { input?: unknown }).input === "function" &&
    typeof (converter as { output?: unknown }).output === "function";
}

const cache = {
  input: new WeakMap<object, JsonSchema>(),
  output: new WeakMap<object, JsonSchema>(),
};
const dates = {
  input: new WeakMap<object, readonly DatePath[]>(),
  output: new WeakMap<object, readonly DatePath[]>(),
};

/**
 * Whether a JSON Schema has a file (`format: "binary"`, zod's `z.file()`)
 * anywhere in it: GraphQL results and tool arguments cannot carry one.
 */
export function holdsFile(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(holdsFile);
  if (typeof schema !== "object" || schema === null) return false;
  return (schema as JsonSchema).format === "binary" || Object.values(schema).some(holdsFile);
}

/**
 * The JSON Schema (draft 2020-12) of a Standard Schema's input or output side,
 * or `undefined` when the schema library offers no Standard JSON Schema
 * converter. Results are cached per schema. A date (zod's `z.date()`) is a
 * date-time string, as it travels.
 *
 * @example
 * ```ts
 * import { toJsonSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(toJsonSchema(z.string(), "input")?.type); // "string"
 * ```
 *
 * @throws {TypeError} when the library cannot express the schema in JSON Schema.
 */
export function toJsonSchema(
  schema: StandardSchemaV1,
  side: "input" | "output",
): JsonSchema | undefined {
  if (!hasJsonSchema(schema)) return undefined;
  const cached = cache[side].get(schema);
  if (cached !== undefined) return cached;
  let converted: JsonSchema;
  const found: DatePath[] = [];
  const libraryOptions = dateOptions(schema["~standard"].vendor, found);
  try {
    converted = schema["~standard"].jsonSchema[side]({
      target: "draft-2020-12",
      ...(libraryOptions === undefined ? {} : { libraryOptions }),
    });
  } catch (error) {
    throw new TypeError(
      `The ${side} schema (${schema["~standard"].vendor}) cannot be expressed as JSON Schema: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  cache[side].set(schema, converted);
  dates[side].set(schema, found);
  return converted;
}

/**
 * Where a schema's dates sit, as `toJsonSchema` found them (`[]` for none, or
 * when the schema has no JSON Schema form).
 */
export function datePathsOf(
  schema: StandardSchemaV1,
  side: "input" | "output",
): readonly DatePath[] {
  try {
    toJsonSchema(schema, side);
  } catch {
    return [];
  }
  return dates[side].get(schema) ?? [];
}

/**
 * The JSON Schema of what a node accepts: its `meta.input` schema's input side,
 * or `undefined` without a schema (an open object).
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { inputJsonSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const read = op(({ id }) => id, { input: z.object({ id: z.string() }) });
 * console.log(inputJsonSchema(read)?.properties); // { id: { type: "string" } }
 * ```
 */
export function inputJsonSchema(node: Node): JsonSchema | undefined {
  const schema = node.meta?.input;
  return schema === undefined ? undefined : toJsonSchema(schema, "input");
}

/**
 * The JSON Schema of what a node returns: its `meta.output` schema's output
 * side, or `undefined` without a schema (any JSON value).
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { outputJsonSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * const count = op(() => 3, { output: z.number().int() });
 * console.log(outputJsonSchema(count)?.type); // "integer"
 * ```
 */
export function outputJsonSchema(node: Node): JsonSchema | undefined {
  const schema = node.meta?.output;
  return schema === undefined ? undefined : toJsonSchema(schema, "output");
}

/**
 * What a caller sends to a leaf: its input schema's input type, or the
 * handler's parameter type without a schema.
 *
 * @example
 * ```ts
 * import { op, type InputOf } from "@ramify/api/tree";
 *
 * const read = op(({ id }: { id: string }) => id);
 * const input: InputOf<typeof read> = { id: "1" };
 * ```
 */
export type InputOf<N> = N extends Leaf<infer _I, infer _O, infer W> ? W : never;

/**
 * What callers of a leaf receive: its output schema's output type (a stream of
 * them when the handler streams), or what the handler resolves to without an
 * output schema.
 *
 * @example
 * ```ts
 * import { op, type OutputOf } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const count = op(async () => 3);
 * const n: OutputOf<typeof count> = 3;
 * const me = op(() => ({ id: "7", secret: "x" }), { output: z.object({ id: z.string() }) });
 * const user: OutputOf<typeof me> = { id: "7" };
 * ```
 */
export type OutputOf<N> = N extends Leaf<infer _I, infer O, infer _W, infer S>
  ? [S] extends [StandardSchemaV1<infer _In, infer Out>]
    ? Awaited<O> extends AsyncIterable<unknown> ? AsyncIterable<Out> : Out
  : Awaited<O>
  : never;

/**
 * Whether a schema describes "nothing" (like `z.void()`): it accepts
 * `undefined` and refuses `null`. Probed through the Standard Schema interface,
 * so any library's void schema is recognised; asynchronous schemas are not
 * probed and give `false`.
 *
 * @example
 * ```ts
 * import { isVoidSchema } from "@ramify/api/tree/catalogue";
 * import { z } from "zod";
 *
 * console.log(isVoidSchema(z.void()), isVoidSchema(z.string().optional())); // true false
 * ```
 */
export function isVoidSchema(schema: StandardSchemaV1): boolean {
  const accepts = (value: unknown) => {
    const result = schema["~standard"].validate(value);
    return result instanceof Promise ? undefined : result.issues === undefined;
  };
  return accepts(undefined) === true && accepts(null) === false;
}

/**
 * A schema's own name, as every projection that names types reads it (OpenAPI
 * components, GraphQL types and so the generated clients): its id, else its
 * `title`. The id is the key a library files the schema under in `$defs`
 * (zod's `.meta({ id })`), given as `defKey`, else its `$id` (the last segment
 * of the URI). A library's made-up keys (zod's `__schema0`) and digits are no
 * name. `undefined` when the schema has none.
 *
 * @example
 * ```ts
 * import { ownSchemaName } from "./schema.ts";
 *
 * console.log(ownSchemaName({ title: "Kind of message" }, "Kind")); // "Kind"
 * console.log(ownSchemaName({ title: "Kind of message" }, "__schema0")); // "Kind of message"
 * ```
 */
export function ownSchemaName(schema: unknown, defKey?: string): string | undefined {
  if (defKey !== undefined && !defKey.startsWith("__") && !/^[0-9]*$/.test(defKey)) return defKey;
  if (typeof schema !== "object" || schema === null) return undefined;
  const { $id, title } = schema as JsonSchema;
  const id = typeof $id === "string" ? $id.split(/[/#]/).filter(Boolean).pop() : undefined;
  if (id !== undefined && id !== "") return id;
  return typeof title === "string" && title.trim() !== "" ? title : undefined;
}

/**
 * A name for a type whose schema has none of its own, made from where the
 * schema sits: a holder's name and the path below it (`Message` and `kind` give
 * `MessageKind`). The holder is the nearest schema with a name of its own, or,
 * when there is none, the operation (`fromOperation`); `depth` counts the steps
 * below it.
 *
 * @example
 * ```ts
 * import type { DerivedName } from "./schema.ts";
 *
 * const kind: DerivedName = { name: "MessageKind", depth: 1, fromOperation: false };
 * ```
 */
export interface DerivedName {
  /** The name, in the projection's spelling. */
  readonly name: string;
  /** The steps below the holder. */
  readonly depth: number;
  /** Whether the holder is the operation, not a named schema. */
  readonly fromOperation: boolean;
}

/**
 * The derived name one step below a holder: from `own`, the holder's own
 * name, when it has one; else from the holder's derived name. `part` is the
 * step, spelled by the projection (`Kind` for a property `kind`).
 *
 * @example
 * ```ts
 * import { nameBelow } from "./schema.ts";
 *
 * const search = { name: "WorkspacesSearch", depth: 0, fromOperation: true };
 * console.log(nameBelow("Message", search, "Kind").name); // "MessageKind"
 * console.log(nameBelow(undefined, search, "Kinds").name); // "WorkspacesSearchKinds"
 * ```
 */
export function nameBelow(own: string | undefined, holder: DerivedName, part: string): DerivedName {
  return own !== undefined
    ? { name: own + part, depth: 1, fromOperation: false }
    : { name: holder.name + part, depth: holder.depth + 1, fromOperation: holder.fromOperation };
}

/**
 * Whether a type met in several places takes `candidate` rather than `current`:
 * a name from a named holder beats one from an operation, then the nearer
 * holder wins. Between named holders as near, the name first in code-unit
 * order wins, so that no order of conversion changes it; between operations
 * as near, the one met first (in tree order) keeps it.
 *
 * @example
 * ```ts
 * import { isBetterName } from "./schema.ts";
 *
 * const fromMessage = { name: "MessageKind", depth: 1, fromOperation: false };
 * const fromSearch = { name: "WorkspacesSearchKinds", depth: 1, fromOperation: true };
 * console.log(isBetterName(fromMessage, fromSearch)); // true
 * ```
 */
export function isBetterName(candidate: DerivedName, current: DerivedName): boolean {
  if (candidate.fromOperation !== current.fromOperation) return !candidate.fromOperation;
  if (candidate.depth !== current.depth) return candidate.depth < current.depth;
  return !candidate.fromOperation && candidate.name < current.name;
}

/**
 * Why an input schema cannot describe a leaf's input, or `undefined` when it
 * can. Every surface hands a leaf one flat object (captures, query and body
 * merged; arguments; flags), so an input schema must describe an object or a
 * union of objects; one that does not would refuse every call. A schema with no
 * JSON Schema form is not judged here.
 */
export function inputShapeProblem(schema: StandardSchemaV1): string | undefined {
  let json: JsonSchema | undefined;
  try {
    json = toJsonSchema(schema, "input");
  } catch {
    return undefined;
  }
  if (json === undefined || describesObject(json, json, new Set())) return undefined;
  const type = json.type === undefined ? "" : ` (type ${JSON.stringify(json.type)})`;
  return `meta.input must describe an object or a union of objects${type}: every surface passes a leaf one flat object of named values`;
}

function describesObject(schema: unknown, root: JsonSchema, seen: Set<unknown>): boolean {
  if (schema === true || (typeof schema === "object" && schema !== null && seen.has(schema))) {
    return true;
  }
  if (typeof schema !== "object" || schema === null) return false;
  seen.add(schema);
  const s = schema as JsonSchema;
  if (typeof s.$ref === "string") return describesObject(resolveLocalRef(s.$ref, root), root, seen);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    return types.includes("object") && types.every((t) => t === "object" || t === "null");
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = s[key];
    if (Array.isArray(members)) {
      const objects = members.filter((member) => !isNullOnly(member));
      return objects.length > 0 && objects.every((member) => describesObject(member, root, seen));
    }
  }
  if (Array.isArray(s.allOf)) return s.allOf.some((member) => describesObject(member, root, seen));
  // No type and no combinator: an open schema, which accepts an object.
  return s.const === undefined && s.enum === undefined && s.not === undefined;
}

function isNullOnly(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as JsonSchema).type === "null";
}

/** A local reference's target; one to another document, or naming nothing, is not judged. */
function resolveLocalRef(ref: string, root: JsonSchema): unknown {
  const target = resolveRef(ref, root);
  return target === undefined ? true : target.schema;
}
