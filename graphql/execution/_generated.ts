// `executeFields` generated for one object plan: the properties read by
// their names written into the code (V8 then reads them as an ordinary
// property, not by a key looked up at run time), the common scalar completed
// in place, and the response made as an object literal. Whatever the common
// path does not cover (a resolver, a function, null, a promise, a list, an
// object, a value to coerce) goes to the interpreter (`_execute.ts`) with the
// property already read, so nothing is read twice that graphql-js reads once,
// and errors, nulls and their order stay the interpreter's.
//
// Safety: no text of a document becomes code. Names and response keys reach
// the code only through `JSON.stringify` (a string literal, and GraphQL names
// are `[_A-Za-z][_0-9A-Za-z]*` anyway); the field plans are referenced from an
// array by index. A `__proto__` key (which a literal would make the prototype)
// is refused. Where the runtime forbids `new Function` (a Content Security
// Policy, Cloudflare Workers), nothing is generated and the interpreter runs.

import { completeProperty, executeField, executeFields, settleFields } from "./_execute.ts";
import { fieldError, type FieldPlan, type ObjectRunner, type Path, type Run } from "./_run.ts";

/** The check, by type name, under which a built-in scalar's value is its own output. */
const SCALAR_CHECKS: Readonly<Record<string, (v: string) => string>> = {
  String: (v) => `typeof ${v} === "string"`,
  ID: (v) => `typeof ${v} === "string"`,
  Boolean: (v) => `typeof ${v} === "boolean"`,
  Int: (v) => `typeof ${v} === "number" && (${v} | 0) === ${v}`,
  Float: (v) => `typeof ${v} === "number" && Number.isFinite(${v})`,
};

let generating = true;

/** The runner of an object plan's fields, or `undefined` when the interpreter runs them. */
export function runnerOf(fields: readonly FieldPlan[]): ObjectRunner | undefined {
  if (!generating || fields.length === 0) return undefined;
  const lines: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.key === "__proto__") return undefined;
    const v = `v${i}`;
    values.push(`${JSON.stringify(field.key)}: ${v}`);
    // Arguments coerced per request can fail before the property is read: the interpreter's.
    if (field.typename || field.resolve !== undefined || field.args === undefined) {
      lines.push(`const ${v} = field(run, F[${i}], source, path);`);
    } else if (objectOf(field) !== undefined) {
      // What `complete` does with an ordinary object for an object type, the
      // property already read: the sub-plan's runner, its failure the field's.
      const p = `p${i}`;
      lines.push(
        `let ${v} = source[${JSON.stringify(field.name)}];`,
        `if (typeof ${v} === "object" && ${v} !== null && typeof ${v}.then !== "function" && !(${v} instanceof Error)) {`,
        `  const ${p} = { prev: path, key: KEYS[${i}] };`,
        `  try { ${v} = R[${i}](run, ${v}, ${p}); } catch (error) { ${v} = failed(run, F[${i}], error, ${p}); }`,
        `  if (${v} instanceof Promise) ${v} = caught(run, F[${i}], ${v}, ${p});`,
        `} else ${v} = property(run, F[${i}], source, ${v}, path);`,
      );
    } else {
      const check = scalarCheck(field);
      lines.push(`let ${v} = source[${JSON.stringify(field.name)}];`);
      lines.push(
        check === undefined
          ? `${v} = property(run, F[${i}], source, ${v}, path);`
          : `if (!(${check(v)})) ${v} = property(run, F[${i}], source, ${v}, path);`,
      );
    }
    lines.push(`if (${v} instanceof Promise) pending = true;`);
  }
  const list = fields.map((_, i) => `v${i}`).join(", ");
  const body = `"use strict";
return function fields(run, source, path) {
  if ((typeof source !== "object" || source === null) && typeof source !== "function") {
    return fallback(run, F, source, path);
  }
  let pending = false;
  ${lines.join("\n  ")}
  return pending ? settle(KEYS, [${list}]) : { ${values.join(", ")} };
};`;
  try {
    const make = new Function("F", "KEYS", "R", ...Object.keys(HELPERS), body);
    const keys = fields.map((field) => field.key);
    return make(fields, keys, fields.map(objectOf), ...Object.values(HELPERS)) as ObjectRunner;
  } catch {
    // Code generation is forbidden here: the interpreter it is, for every plan.
    generating = false;
    return undefined;
  }
}

/** What the generated code calls, by the names it calls them. */
const HELPERS = {
  field: executeField,
  property: completeProperty,
  fallback: executeFields,
  settle: settleFields,
  failed,
  caught,
};

/** The in-place check of a built-in scalar field's value, nullable or not. */
function scalarCheck(field: FieldPlan): ((v: string) => string) | undefined {
  const completion = field.completion.kind === "nonNull" ? field.completion.of : field.completion;
  if (completion.kind !== "leaf") return undefined;
  return Object.hasOwn(SCALAR_CHECKS, completion.name) ? SCALAR_CHECKS[completion.name] : undefined;
}

/** The runner of a field whose type is an object type (non-null or not) that has one. */
function objectOf(field: FieldPlan): ObjectRunner | undefined {
  const completion = field.completion.kind === "nonNull" ? field.completion.of : field.completion;
  return completion.kind === "object" ? completion.runner : undefined;
}

/** A field's failure at `path`: `null`, or thrown on when the field is non-null. */
function failed(run: Run, field: FieldPlan, error: unknown, path: Path): null {
  fieldError(run, error, field.type, field.nodes, path);
  return null;
}

/** A field's promised value, its rejection the field's failure. */
function caught(run: Run, field: FieldPlan, value: Promise<unknown>, path: Path): Promise<unknown> {
  return value.then(undefined, (error) => failed(run, field, error, path));
}
