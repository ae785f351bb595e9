/**
 * `projectGraphQL`: one walk of a tree into GraphQL fields, a dispatch table and
 * named types. Everything else in the GraphQL projection (SDL, the executable
 * schema, resolvers, the servers, the clients) is built from this result.
 *
 * - A leaf is a Query field when tagged `readOnly: true`, or when untagged and
 *   read-like by name (`get`, `list`, `read`, `find`, `search`, `count`, or one
 *   of these followed by an upper-case letter); `readOnly: false` and every
 *   other leaf is a Mutation field; `streaming: true` makes a Subscription field.
 * - In Query, a branch is a namespace field whose object type is named after the
 *   branch path (`books` → `BooksQuery`, `books.checkout` → `BooksCheckoutQuery`).
 *   Mutation and Subscription fields are flat, named by the camelCase path
 *   (`books` + `add` → `booksAdd`).
 * - A fallback adds an argument, named after it, to every field beneath it
 *   (`ID!` unless the input schema types it); it adds no namespace level and no
 *   part of a name.
 * - Input schema properties are arguments. A leaf without an input schema
 *   takes one optional `input: JSON` argument when its handler declares a
 *   parameter (its handler receives that object merged with the captures,
 *   which win), else no argument but its captures. The result type comes from the output schema
 *   (`JSON` without one; `Boolean` for a leaf whose output is void). GraphQL
 *   has no bytes: an output schema holding a file is refused, naming the leaf.
 * - `meta.graphql: false` keeps a leaf out of GraphQL (its schema, resolvers
 *   and clients), as for a leaf that answers with bytes.
 * - A long-running leaf (tag `longRunning`) is a Mutation field answering a
 *   `Task` (the handle of the task its call starts); a tree with one gets the
 *   `Task` types and `Query.task`, `Subscription.task`, `Mutation.cancelTask`,
 *   `Mutation.answerTask` (`tasks`), and may not use those names itself
 *   (docs/tasks.md).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { projectGraphQL } from "@ramify/api/graphql";
 *
 * const projection = projectGraphQL(api({
 *   books: api({ list: op(() => []), add: op(() => ({})) }),
 * }));
 * console.log(projection.fields.map((f) => `${f.parent}.${f.name}`));
 * // ["BooksQuery.list", "Mutation.booksAdd"]
 * ```
 *
 * @module
 */

import type { Leaf, Node, TreeStep } from "../../tree/node.ts";
import { labelOf, readsOpenInput } from "../../tree/leaves.ts";
import { type CatalogueEntry, catalogueOf } from "../../tree/catalogue.ts";
import { tagsOf } from "../../tree/tags.ts";
import { fieldName, upperFirst } from "./_names.ts";
import { holdsFile, isVoidSchema, type JsonSchema } from "../../tree/schema.ts";
import { checkTaskFields, defineTaskTypes, TASK_FIELDS, TASK_TYPE } from "./_tasks.ts";
import type { GraphQLTaskField } from "./_tasks.ts";

export type { GraphQLTaskField } from "./_tasks.ts";
import {
  type ArgumentDefinition,
  convertSchemas,
  type FieldDefinition,
  GraphQLTypeRegistry,
  type SchemaConversion,
} from "./types.ts";

/**
 * The operation type a field belongs to.
 *
 * @example
 * ```ts
 * import type { OperationKind } from "@ramify/api/graphql";
 *
 * const kind: OperationKind = "subscription";
 * ```
 */
export type OperationKind = "query" | "mutation" | "subscription";

/**
 * One leaf as a GraphQL field.
 *
 * @example
 * ```ts
 * import type { GraphQLLeafField } from "@ramify/api/graphql";
 *
 * const describe = (field: GraphQLLeafField) => `${field.parent}.${field.name}: ${field.type}`;
 * ```
 */
export interface GraphQLLeafField {
  /** Query, mutation or subscription. */
  readonly kind: OperationKind;
  /** The type the field is on: `Query`, `BooksQuery`, `Mutation`, `Subscription`. */
  readonly parent: string;
  /** The field name on that type. */
  readonly name: string;
  /** Where the leaf sits in the tree. */
  readonly steps: readonly TreeStep[];
  /** The fallback captures above the leaf, outermost first. */
  readonly captures: readonly string[];
  /** The arguments: input properties and captures. */
  readonly args: readonly ArgumentDefinition[];
  /**
   * The field's type reference, always nullable (`Book`, `[Book!]`): a leaf
   * that fails nulls its own field only, never its siblings.
   */
  readonly type: string;
  /** The type of the value a call gives when it succeeds, such as `Book!` or `[Book!]!`. */
  readonly resultType: string;
  /** Whether the leaf's output is void, so the field answers `true` when done. */
  readonly voidResult: boolean;
  /** Whether it is long-running: its call starts a task and the field answers its `Task`. */
  readonly longRunning?: boolean;
  /** From `meta.description`. */
  readonly description?: string;
  /** The leaf. */
  readonly node: Leaf<never, unknown, unknown>;
  /** The leaf's catalogue entry: its one prepared call. */
  readonly entry: CatalogueEntry;
}

/**
 * A namespace field of Query: a branch whose subtree has query fields.
 *
 * @example
 * ```ts
 * import type { GraphQLNamespace } from "@ramify/api/graphql";
 *
 * const books: GraphQLNamespace = { parent: "Query", name: "books", type: "BooksQuery" };
 * ```
 */
export interface GraphQLNamespace {
  /** The type the namespace field is on. */
  readonly parent: string;
  /** The field name (the branch name). */
  readonly name: string;
  /** The namespace object type, `<Branch>Query`. */
  readonly type: string;
}

/**
 * What `projectGraphQL` gives: the fields, the dispatch table from
 * `Parent.field` to the leaf, and the named types (namespaces included).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { projectGraphQL } from "@ramify/api/graphql";
 *
 * const { dispatch } = projectGraphQL(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
 * console.log([...dispatch.keys()]); // ["Query.ping"]
 * ```
 */
export interface ProjectGraphQLResult {
  /** Every leaf field, in tree order. */
  readonly fields: readonly GraphQLLeafField[];
  /** Every namespace field of Query, in tree order. */
  readonly namespaces: readonly GraphQLNamespace[];
  /** `Parent.field` to its leaf field. */
  readonly dispatch: ReadonlyMap<string, GraphQLLeafField>;
  /** The named types: results, inputs, enums, unions, scalars and namespaces. */
  readonly types: GraphQLTypeRegistry;
  /** The root fields of tasks, for a tree with a long-running leaf; none otherwise. */
  readonly tasks: readonly GraphQLTaskField[];
}

/**
 * Options of {@linkcode projectGraphQL}.
 *
 * @example
 * ```ts
 * import type { ProjectGraphQLOptions } from "@ramify/api/graphql";
 *
 * const opts: ProjectGraphQLOptions = { readNames: ["get", "list", "show"] };
 * ```
 */
export interface ProjectGraphQLOptions {
  /** The read-like name prefixes for untagged leaves. Default `get list read find search count`. */
  readonly readNames?: readonly string[];
}

const READ_NAMES = ["get", "list", "read", "find", "search", "count"] as const;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * Projects a tree onto GraphQL in one walk. Pure: the same tree gives equal
 * results.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { projectGraphQL } from "@ramify/api/graphql";
 *
 * const { fields } = projectGraphQL(api({}, {
 *   fallback: { name: "id", subtree: api({ read: op(({ id }: { id: string }) => id) }) },
 * }));
 * console.log(fields[0].args); // [{ name: "id", type: "ID!" }]
 * ```
 *
 * @throws {Error} when two leaves project to one GraphQL name (both are named),
 * or a name cannot be a GraphQL name.
 */
export function projectGraphQL(
  node: Node,
  opts: ProjectGraphQLOptions = {},
): ProjectGraphQLResult {
  const readNames = opts.readNames ?? READ_NAMES;
  const types = new GraphQLTypeRegistry();
  const fields: GraphQLLeafField[] = [];
  const namespaces: GraphQLNamespace[] = [];
  const dispatch = new Map<string, GraphQLLeafField>();
  const namespaceFields = new Map<string, FieldDefinition[]>();

  // `meta.graphql: false` keeps a leaf out, as `meta.tools: false` does on the tool surface.
  const leaves: PreparedLeaf[] = [];
  const conversions: SchemaConversion[] = [];
  const entries = catalogueOf(node).entries.filter((entry) => entry.leaf.meta.graphql !== false);
  const tasks = entries.some((entry) => entry.longRunning) ? TASK_FIELDS : [];
  // Before the tree's types, so that a type of its own named `Task` is numbered.
  if (tasks.length > 0) defineTaskTypes(types);
  for (const entry of entries) {
    const leaf = prepare(entry, readNames);
    leaves.push(leaf);
    conversions.push({ schema: leaf.input, as: "arguments", name: `${leaf.hint}Input` });
    // A void output is `Boolean!`, a long-running leaf's a `Task!`: nothing to convert.
    if (!leaf.voidResult && !leaf.entry.longRunning) {
      conversions.push({
        schema: leaf.output,
        as: "output",
        name: `${leaf.hint}Result`,
        required: leaf.node.meta?.output !== undefined,
      });
    }
  }
  // Every leaf's schemas are named together, so that a type several leaves share is named by the rule.
  const converted = convertSchemas(types, conversions);
  let at = 0;
  for (const leaf of leaves) {
    let args = converted[at++] as ArgumentDefinition[];
    if (leaf.open) args = args.map((arg) => ({ ...arg, spread: true }));
    const resultType = leaf.entry.longRunning
      ? `${TASK_TYPE}!`
      : leaf.voidResult
      ? "Boolean!"
      : converted[at++] as string;
    const field = leafField(leaf, args, resultType);
    const key = `${field.parent}.${field.name}`;
    const existing = dispatch.get(key);
    if (existing !== undefined) {
      throw new Error(
        `projectGraphQL: ${labelOf(existing.steps)} and ${
          labelOf(field.steps)
        } both project to ${key}; rename one or tag it differently`,
      );
    }
    dispatch.set(key, field);
    fields.push(field);
  }

  // Namespaces: each query field's branch path, outermost first, once each.
  for (const field of fields) {
    if (field.kind !== "query" || field.parent === "Query") continue;
    // The GraphQL names of the child steps: a name that is a path segment but no
    // GraphQL name is converted as properties are (`list-all` is `listAll`).
    const names = field.steps.filter((step) => step.kind === "child").map((step) =>
      fieldName(step.name)
    ).slice(0, -1);
    // Each level's type extends its parent's name: `Books` then `BooksCheckout`.
    let parent = "Query";
    let path = "";
    for (let depth = 1; depth <= names.length; depth++) {
      const name = names[depth - 1];
      path += upperFirst(name);
      const type = `${path}Query`;
      if (!namespaceFields.has(type)) {
        namespaceFields.set(type, []);
        namespaces.push({ parent, name, type });
        const key = `${parent}.${name}`;
        const clash = dispatch.get(key);
        if (clash !== undefined) {
          throw new Error(
            `projectGraphQL: ${labelOf(clash.steps)} and the branch ${
              names.slice(0, depth).join("/")
            } both project to ${key}`,
          );
        }
      }
      parent = type;
    }
  }
  for (const namespace of namespaces) {
    if (namespace.parent !== "Query") {
      namespaceFields.get(namespace.parent)!.push({
        name: namespace.name,
        type: `${namespace.type}!`,
      });
    }
  }
  for (const field of fields) {
    if (field.kind === "query" && field.parent !== "Query") {
      namespaceFields.get(field.parent)!.push(fieldDefinition(field));
    }
  }
  for (const [name, typeFields] of namespaceFields) {
    types.define({ kind: "object", name, fields: typeFields });
  }
  if (tasks.length > 0) {
    checkTaskFields((key) => {
      const field = dispatch.get(key);
      if (field !== undefined) return labelOf(field.steps);
      const branch = namespaces.find((n) => `${n.parent}.${n.name}` === key);
      return branch === undefined ? undefined : `the branch ${branch.name}`;
    });
  }
  return { fields, namespaces, dispatch, types, tasks };
}

/** The SDL field definition of a leaf field. */
export function fieldDefinition(field: GraphQLLeafField): FieldDefinition {
  const { name, type, args, description } = field;
  return description === undefined ? { name, type, args } : { name, type, args, description };
}

/** A leaf before its types are converted: where its field goes, and its schemas. */
interface PreparedLeaf {
  readonly entry: CatalogueEntry;
  readonly node: Leaf<never, unknown, unknown>;
  readonly kind: OperationKind;
  readonly parent: string;
  readonly name: string;
  /** The fallback captures above it, outermost first. */
  readonly captures: readonly string[];
  /** What its unnamed types are named after, like `BooksAdd`. */
  readonly hint: string;
  readonly input: JsonSchema | undefined;
  /** Whether it takes the free-form `input` argument (no input schema, a handler parameter). */
  readonly open: boolean;
  readonly output: JsonSchema | undefined;
  readonly voidResult: boolean;
}

/** The argument of a leaf without an input schema whose handler reads its input. */
const OPEN_ARGUMENT = "input";

/** Its arguments as a schema: one optional value of any JSON (an object of named inputs). */
const OPEN_ARGUMENTS: JsonSchema = {
  type: "object",
  properties: {
    [OPEN_ARGUMENT]: {
      description:
        "Named inputs, as one object (the leaf has no input schema); the captures win over its keys",
    },
  },
};

function prepare(entry: CatalogueEntry, readNames: readonly string[]): PreparedLeaf {
  const node = entry.leaf as Leaf<never, unknown, unknown>;
  // GraphQL field names of the child steps; captures checked as argument names.
  const names: string[] = [];
  const captures: string[] = [];
  for (const step of entry.steps) {
    if (step.kind === "child") names.push(fieldName(step.name));
    else {
      checkName(step.name, entry);
      captures.push(step.name);
    }
  }
  const leafName = names.at(-1) ?? "root";
  // Starting a task is never a read, whatever the leaf's tags say of its work.
  const kind = entry.longRunning ? "mutation" : kindOf(node, leafName, readNames);
  const inQuery = kind === "query";
  const parent = !inQuery
    ? (kind === "mutation" ? "Mutation" : "Subscription")
    : names.length <= 1
    ? "Query"
    // The namespace type of a branch path: `books.checkout` is `BooksCheckoutQuery`.
    : `${pascal(names.slice(0, -1))}Query`;
  const hint = names.length === 0 ? "Root" : pascal(names);
  const open = readsOpenInput(node);
  if (open && captures.includes(OPEN_ARGUMENT)) {
    throw new Error(
      `projectGraphQL: the capture "${OPEN_ARGUMENT}" of ${entry.label} clashes with the free-form argument of a leaf without an input schema; rename the fallback or give the leaf an input schema`,
    );
  }
  const outputSchema = node.meta?.output;
  // A void output is `Boolean`, whatever JSON Schema its library gives it (or none).
  const voidResult = outputSchema !== undefined && isVoidSchema(outputSchema);
  return {
    entry,
    node,
    kind,
    parent,
    name: inQuery ? leafName : hint.charAt(0).toLowerCase() + hint.slice(1),
    captures,
    hint,
    input: open ? OPEN_ARGUMENTS : sideSchema("input", entry),
    open,
    output: voidResult ? undefined : sideSchema("output", entry),
    voidResult,
  };
}

function leafField(
  leaf: PreparedLeaf,
  args: ArgumentDefinition[],
  resultType: string,
): GraphQLLeafField {
  const { node, kind, parent, name, captures, voidResult } = leaf;
  const steps = leaf.entry.steps;
  // Each capture is a required argument (`args` is its own array); before a
  // free-form `input`, which reads better after what addresses the leaf.
  for (const capture of captures) {
    const index = args.findIndex((arg) => arg.name === capture);
    if (index === -1) {
      if (leaf.open) args.splice(args.length - 1, 0, { name: capture, type: "ID!" });
      else args.push({ name: capture, type: "ID!" });
    } else if (!args[index].type.endsWith("!")) {
      args[index] = { ...args[index], type: `${args[index].type}!` };
    }
  }
  const type = resultType.endsWith("!") ? resultType.slice(0, -1) : resultType;
  const description = node.meta?.description;
  const field = { kind, parent, name, steps, captures, args, type, resultType, voidResult, node };
  return {
    ...field,
    entry: leaf.entry,
    ...(leaf.entry.longRunning ? { longRunning: true } : {}),
    ...(description === undefined ? {} : { description }),
  };
}

function kindOf(node: Node, name: string, readNames: readonly string[]): OperationKind {
  const tags = tagsOf(node);
  if (tags.streaming === true) return "subscription";
  if (tags.readOnly === true) return "query";
  if (tags.readOnly === false) return "mutation";
  for (const prefix of readNames) {
    if (!name.startsWith(prefix)) continue;
    // The prefix alone, or followed by an upper-case ASCII letter.
    const next = name.charCodeAt(prefix.length);
    if (name.length === prefix.length || (next >= 65 && next <= 90)) return "query";
  }
  return "mutation";
}

// The entry, not its label: a label is made only for a message.
function sideSchema(side: "input" | "output", entry: CatalogueEntry) {
  let json: JsonSchema | undefined;
  try {
    json = side === "input" ? entry.inputSchema : entry.outputSchema;
  } catch (error) {
    throw new Error(
      `projectGraphQL: the ${side} schema of ${entry.label} has no JSON Schema form: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  if (side === "output" && holdsFile(json)) {
    throw new Error(
      `projectGraphQL: the output schema of ${entry.label} holds a file; GraphQL has no bytes (File is an input type), so serve the leaf over HTTP and keep it out of GraphQL with meta.graphql: false`,
    );
  }
  return json;
}

function checkName(name: string, entry: CatalogueEntry) {
  if (!GRAPHQL_NAME.test(name)) {
    throw new Error(
      `projectGraphQL: "${name}" in ${entry.label} is not a GraphQL name (letters, digits and _, not starting with a digit)`,
    );
  }
}

function pascal(names: readonly string[]): string {
  return names.map(upperFirst).join("");
}
