/**
 * Forms (the flat JSON Schema `ask()` asks with), and whether an answer fits one: an
 * object holding only the form's fields, each of its type (within its enum,
 * bounds and lengths), every required one present. `ask()` checks each
 * answer so; `answerTask` checks an answer before it reaches the task.
 *
 * @example
 * ```ts
 * import { formIssue } from "./form_check.ts";
 *
 * const form = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
 * console.log(formIssue(form, { n: 1.5 })); // { path: ["n"], message: "expected an integer" }
 * ```
 *
 * @module
 */

import { isPlainObject } from "./plain_data.ts";

/**
 * One field of a form: a JSON Schema of a string, number, integer, boolean,
 * or an array of enumerated strings (a multi-select), as MCP's elicitation
 * form mode allows, with whatever else it says (`title`, `default`, `enum`,
 * titled `oneOf`/`anyOf`, `enumNames`, `format`, bounds), sent as written.
 *
 * @example
 * ```ts
 * import type { FormField } from "@ramify/api/tree";
 *
 * const colour: FormField = { type: "string", enum: ["red", "green"], default: "red" };
 * ```
 */
export interface FormField {
  /** The value's JSON type. */
  readonly type: "string" | "number" | "integer" | "boolean" | "array";
  /** Anything else the field says. */
  readonly [keyword: string]: unknown;
}

/**
 * A form: a flat JSON Schema object whose properties are {@linkcode FormField}s.
 *
 * @example
 * ```ts
 * import type { FormSchema } from "@ramify/api/tree";
 *
 * const form: FormSchema = {
 *   type: "object",
 *   properties: { name: { type: "string", title: "Your name" } },
 *   required: ["name"],
 * };
 * ```
 */
export interface FormSchema {
  /** Always `"object"`. */
  readonly type: "object";
  /** The fields, by name. */
  readonly properties: { readonly [name: string]: FormField };
  /** The fields an accepted answer must hold. */
  readonly required?: readonly string[];
  /** Anything else the schema says. */
  readonly [keyword: string]: unknown;
}

/**
 * Why `content` does not fit the form, or `undefined` when it does: an
 * object holding only the form's fields, each of its type (within its enum,
 * bounds and lengths), every required one present.
 *
 * @example
 * ```ts
 * import { formProblem } from "@ramify/api/tree/catalogue";
 *
 * const form = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
 * console.log(formProblem(form, { n: 1.5 })); // "n: expected an integer"
 * ```
 */
export function formProblem(form: FormSchema, content: unknown): string | undefined {
  const issue = formIssue(form, content);
  if (issue === undefined) return undefined;
  return issue.path.length === 0 ? issue.message : `${issue.path[0]}: ${issue.message}`;
}

/**
 * {@linkcode formProblem}'s answer as an issue: the field it is about (none
 * for the whole answer) and what is wrong with it.
 *
 * @example
 * ```ts
 * import { formIssue } from "./form_check.ts";
 *
 * const form = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
 * console.log(formIssue(form, {})); // { path: ["n"], message: "required" }
 * ```
 */
export function formIssue(
  form: FormSchema,
  content: unknown,
): { readonly path: readonly string[]; readonly message: string } | undefined {
  if (!isPlainObject(content)) return { path: [], message: "expected an object" };
  for (const name of form.required ?? []) {
    if (!Object.hasOwn(content, name)) return { path: [name], message: "required" };
  }
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(form.properties, name) ? form.properties[name] : undefined;
    if (field === undefined) return { path: [name], message: "not in the form" };
    const problem = fieldProblem(field, value);
    if (problem !== undefined) return { path: [name], message: problem };
  }
  return undefined;
}

function fieldProblem(field: FormField, value: unknown): string | undefined {
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected a boolean";
    case "integer":
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "expected a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "expected an integer";
      if (typeof field.minimum === "number" && value < field.minimum) return "too small";
      if (typeof field.maximum === "number" && value > field.maximum) return "too large";
      return undefined;
    }
    case "string": {
      if (typeof value !== "string") return "expected a string";
      if (typeof field.minLength === "number" && value.length < field.minLength) return "too short";
      if (typeof field.maxLength === "number" && value.length > field.maxLength) return "too long";
      const allowed = choicesOf(field);
      return allowed === undefined || allowed.includes(value)
        ? undefined
        : "not one of the choices";
    }
    case "array": {
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
        return "expected a list of strings";
      }
      if (typeof field.minItems === "number" && value.length < field.minItems) return "too few";
      if (typeof field.maxItems === "number" && value.length > field.maxItems) return "too many";
      const allowed = isPlainObject(field.items) ? choicesOf(field.items) : undefined;
      return allowed === undefined || value.every((item) => allowed.includes(item))
        ? undefined
        : "not one of the choices";
    }
  }
  return "unknown field type";
}

/** A field's allowed values: its `enum`, or the `const`s of its titled `oneOf` / `anyOf`. */
function choicesOf(field: Readonly<Record<string, unknown>>): readonly unknown[] | undefined {
  if (Array.isArray(field.enum)) return field.enum;
  const titled = Array.isArray(field.oneOf) ? field.oneOf : field.anyOf;
  if (!Array.isArray(titled)) return undefined;
  return titled.map((choice) => isPlainObject(choice) ? choice.const : undefined);
}
