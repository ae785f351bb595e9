// The compiled executor against graphql-js `execute`, over random trees and
// random valid documents: the same response, errors included (messages,
// paths, locations, extensions, order). Trees: nested objects, lists,
// nullables, enums, unions, 32-bit overflows (a value the output schema takes
// but GraphQL's Int refuses: an error inside completion, nulled up to the
// nearest nullable field), namespaces and captures; leaves that answer at once
// or later, throw a fault or an HttpError, or break their output schema.
// Documents: aliases (the same field twice too), named and inline fragments,
// `@skip`/`@include` with literals and variables, `__typename`.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  execute,
  type ExecutionResult,
  getNamedType,
  GraphQLError,
  GraphQLObjectType,
  type GraphQLSchema,
  GraphQLUnionType,
  parse,
} from "graphql";
import { z } from "zod";
import { api, HttpError, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { createGraphQLServer } from "@ramify/api/graphql";

type Shape =
  | { readonly kind: "string" | "int" | "wide" | "float" | "boolean" }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "object"; readonly fields: readonly FieldShape[] }
  | { readonly kind: "list"; readonly of: Shape }
  | { readonly kind: "union"; readonly members: readonly (readonly FieldShape[])[] };

interface FieldShape {
  readonly name: string;
  readonly shape: Shape;
  readonly optional: boolean;
  readonly nullable: boolean;
}

type Behaviour = "value" | "async" | "fault" | "http" | "broken";

interface LeafSpec {
  readonly shape: Shape;
  readonly mutation: boolean;
  readonly place: "root" | "namespace" | "capture";
  readonly behaviour: Behaviour;
  readonly seed: number;
}

const NAMES = ["a", "b", "c", "d", "e"];

const shapeArb: fc.Arbitrary<Shape> = fc.letrec<{ shape: Shape; fields: FieldShape[] }>((
  tie,
) => ({
  shape: fc.oneof(
    { maxDepth: 3, depthSize: "small" },
    fc.constantFrom<Shape>(
      { kind: "string" },
      { kind: "int" },
      { kind: "wide" },
      { kind: "float" },
      { kind: "boolean" },
      { kind: "enum", values: ["RED", "GREEN", "BLUE"] },
    ),
    tie("fields").map((fields): Shape => ({ kind: "object", fields })),
    tie("shape").map((of): Shape => ({ kind: "list", of })),
    fc.tuple(tie("fields"), tie("fields")).map(([x, y]): Shape => ({
      kind: "union",
      members: [x, y],
    })),
  ),
  fields: fc.uniqueArray(
    fc.record({
      name: fc.constantFrom(...NAMES),
      shape: tie("shape"),
      optional: fc.boolean(),
      nullable: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4, selector: (field) => field.name },
  ) as fc.Arbitrary<FieldShape[]>,
})).shape;

const leafArb: fc.Arbitrary<LeafSpec> = fc.record({
  shape: shapeArb,
  mutation: fc.boolean(),
  place: fc.constantFrom("root", "namespace", "capture"),
  behaviour: fc.constantFrom<Behaviour>("value", "value", "async", "fault", "http", "broken"),
  seed: fc.integer(),
});

/** A small deterministic generator: the values and documents of one run. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return {
    chance: (p: number) => next() < p,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}
type Random = ReturnType<typeof random>;

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

function zodOf(shape: Shape, tag?: string): z.ZodType {
  switch (shape.kind) {
    case "string":
      return z.string();
    case "int":
      return z.int32();
    case "wide":
      return z.int();
    case "float":
      return z.number();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(shape.values as [string, ...string[]]);
    case "list":
      return z.array(zodOf(shape.of));
    case "object":
      return objectOf(shape.fields, tag);
    case "union":
      return z.union(shape.members.map((fields, i) => objectOf(fields, `m${i}`)));
  }
}

function objectOf(fields: readonly FieldShape[], tag?: string): z.ZodType {
  const properties: Record<string, z.ZodType> = {};
  if (tag !== undefined) properties.tag = z.literal(tag);
  for (const field of fields) {
    let type = zodOf(field.shape);
    if (field.nullable) type = type.nullable();
    if (field.optional) type = type.optional();
    properties[field.name] = type;
  }
  return z.object(properties);
}

function valueOf(shape: Shape, r: Random, tag?: string): unknown {
  switch (shape.kind) {
    case "string":
      return r.pick(["", "x", "é", "a\nb"]);
    case "int":
      return r.int(200) - 100;
    case "wide":
      // Sometimes past 32 bits: the schema takes it, GraphQL's Int does not.
      return r.chance(0.5) ? 2 ** 40 : r.int(100);
    case "float":
      return r.pick([0, 1.5, -2.25]);
    case "boolean":
      return r.chance(0.5);
    case "enum":
      return r.pick(shape.values);
    case "list":
      return Array.from({ length: r.int(3) }, () => valueOf(shape.of, r));
    case "object":
      return recordOf(shape.fields, r, tag);
    case "union": {
      const i = r.int(shape.members.length);
      return recordOf(shape.members[i], r, `m${i}`);
    }
  }
}

function recordOf(fields: readonly FieldShape[], r: Random, tag?: string) {
  const record: Record<string, unknown> = tag === undefined ? {} : { tag };
  for (const field of fields) {
    if (field.optional && r.chance(0.2)) continue;
    record[field.name] = field.nullable && r.chance(0.2) ? null : valueOf(field.shape, r);
  }
  return record;
}

function treeOf(leaves: readonly LeafSpec[]): Node {
  const root: Record<string, Node> = {};
  const inside: Record<string, Node> = {};
  const captured: Record<string, Node> = {};
  leaves.forEach((leaf, i) => {
    const output = zodOf(leaf.shape);
    // The value depends on the input (a capture's argument): a wrong argument shows.
    const value = (input: unknown) =>
      valueOf(leaf.shape, random(leaf.seed + hash(JSON.stringify(input ?? {}))));
    const handler = (input: unknown) => {
      switch (leaf.behaviour) {
        case "value":
          return value(input);
        case "async":
          return Promise.resolve().then(() => value(input));
        case "fault":
          throw new Error("secret");
        case "http":
          throw new HttpError(409, "Taken");
        case "broken":
          return { broken: true };
      }
    };
    const name = leaf.mutation ? `do${i}` : `get${i}`;
    const node = op(handler, { output, tags: { readOnly: !leaf.mutation } });
    if (leaf.place === "root") root[name] = node;
    else if (leaf.place === "namespace") inside[name] = node;
    else captured[name] = node;
  });
  if (Object.keys(inside).length > 0) root.shelf = api(inside);
  if (Object.keys(captured).length > 0) {
    root.items = api({}, { fallback: { name: "itemId", subtree: api(captured) } });
  }
  return api(root);
}

interface Document {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName?: string;
}

/** A random valid document over the schema: its root type's fields, walked. */
function documentOf(schema: GraphQLSchema, mutation: boolean, r: Random): Document | undefined {
  const root = mutation ? schema.getMutationType() : schema.getQueryType();
  if (root === null || root === undefined) return undefined;
  const fragments: string[] = [];
  const variables: Record<string, unknown> = {};
  const definitions: string[] = [];
  const condition = () => {
    if (!r.chance(0.25)) return "";
    const directive = r.pick(["skip", "include"]);
    if (r.chance(0.4)) return ` @${directive}(if: ${r.chance(0.5)})`;
    const name = `v${definitions.length}`;
    variables[name] = r.chance(0.5);
    definitions.push(`$${name}: Boolean!`);
    return ` @${directive}(if: $${name})`;
  };
  const selectionOf = (type: GraphQLObjectType | GraphQLUnionType, depth: number): string => {
    const parts: string[] = [];
    if (type instanceof GraphQLUnionType) {
      if (r.chance(0.5)) parts.push("__typename");
      for (const member of type.getTypes()) {
        if (r.chance(0.8)) {
          parts.push(`... on ${member.name}${condition()} ${fieldsOf(member, depth)}`);
        }
      }
      if (parts.length === 0) parts.push("__typename");
      return `{ ${parts.join(" ")} }`;
    }
    return fieldsOf(type, depth);
  };
  const fieldsOf = (type: GraphQLObjectType, depth: number): string => {
    const parts: string[] = [];
    const fields = Object.values(type.getFields());
    for (let n = 0; n < 1 + r.int(fields.length + 1); n++) {
      const field = r.pick(fields);
      const alias = r.chance(0.3) ? `x${r.int(3)}_${field.name}: ` : "";
      let args = "";
      // The captures' `ID` arguments; a leaf's optional free-form `input` is left out.
      const captures = field.args.filter((arg) => getNamedType(arg.type).name === "ID");
      if (captures.length > 0) {
        const values = captures.map((arg) => {
          if (r.chance(0.5)) return `${arg.name}: "${r.int(5)}"`;
          const name = `id${definitions.length}`;
          if (r.chance(0.3)) {
            // A default the variable falls back on, when it is not sent.
            definitions.push(`$${name}: ID = "${r.int(5)}"`);
            if (r.chance(0.5)) variables[name] = r.chance(0.3) ? null : String(r.int(5));
          } else {
            variables[name] = String(r.int(5));
            definitions.push(`$${name}: ID!`);
          }
          return `${arg.name}: $${name}`;
        });
        args = `(${values.join(", ")})`;
      }
      const named = getNamedType(field.type);
      const sub = named instanceof GraphQLObjectType || named instanceof GraphQLUnionType
        ? ` ${depth > 6 ? "{ __typename }" : selectionOf(named, depth + 1)}`
        : "";
      let selection = `${alias}${field.name}${args}${condition()}${sub}`;
      const wrap = r.int(7);
      if (wrap === 0) selection = `... on ${type.name}${condition()} { ${selection} }`;
      else if (wrap === 1) {
        const name = `F${fragments.length}`;
        fragments.push(`fragment ${name} on ${type.name} { ${selection} }`);
        selection = `...${name}${condition()}`;
      }
      parts.push(selection);
      if (r.chance(0.1)) parts.push("__typename");
    }
    return `{ ${parts.join(" ")} }`;
  };
  const body = fieldsOf(root, 1);
  const name = r.chance(0.5) ? "Op" : undefined;
  const head = `${mutation ? "mutation" : "query"}${name === undefined ? "" : ` ${name}`}${
    definitions.length > 0 ? `(${definitions.join(", ")})` : ""
  }`;
  return {
    query: [`${head} ${body}`, ...fragments].join("\n"),
    variables,
    ...(name === undefined ? {} : { operationName: name }),
  };
}

/** What `createGraphQLServer` does to graphql-js's result: errors without a code masked. */
function masked(result: ExecutionResult): unknown {
  const errors = result.errors?.map((error) =>
    error.extensions?.code !== undefined ? error : new GraphQLError("Unexpected error.", {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    })
  );
  return JSON.parse(JSON.stringify(errors === undefined ? result : { ...result, errors }));
}

Deno.test("compiled execution answers as graphql-js execute, errors included", async () => {
  let compared = 0;
  let failing = 0;
  let nulled = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(leafArb, { minLength: 1, maxLength: 4 }),
      fc.integer(),
      async (leaves, seed) => {
        const server = createGraphQLServer(treeOf(leaves), { onError: () => {} });
        const r = random(seed);
        for (const mutation of [false, true]) {
          const document = documentOf(server.schema, mutation, r);
          if (document === undefined) continue;
          // The walk can write fields that do not merge (one alias, two types): not valid, not run.
          if ("errors" in server.prepare(document.query)) continue;
          const before = server.stats.compiled;
          const ours = await server.execute(document);
          assert.equal(server.stats.compiled, before + 1, document.query);
          const theirs = await execute({
            schema: server.schema,
            document: parse(document.query),
            variableValues: document.variables,
            operationName: document.operationName,
            contextValue: {},
          });
          assert.deepEqual(
            JSON.parse(JSON.stringify(ours)),
            masked(theirs),
            `${document.query}\n${JSON.stringify(document.variables)}`,
          );
          compared++;
          if (ours.errors !== undefined) failing++;
          // An error inside completion that nulled a parent: its path is longer than the field's.
          if (ours.errors?.some((error) => (error.path?.length ?? 0) > 2)) nulled++;
        }
        assert.equal(server.stats.fallback, 0);
      },
    ),
    { numRuns: 800 },
  );
  // The runs must reach what they are for: many documents, failures, errors deep in a value.
  assert.ok(compared >= 800, `${compared} documents compared`);
  assert.ok(failing >= 200 && nulled >= 5, `${failing} with errors, ${nulled} deep`);
});
