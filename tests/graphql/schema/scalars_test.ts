// The JSON and DateTime scalar implementations.
import assert from "node:assert/strict";
import { scalarImplementations } from "@ramify/api/graphql";
import {
  graphql,
  GraphQLObjectType,
  type GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parseValue,
  valueFromAST,
} from "graphql";
import { literal } from "./types_support.ts";

Deno.test("JSON scalar: values pass through; literals of every kind are read", () => {
  const { JSON: json } = scalarImplementations();
  const value = { a: [1, "x", null, true], b: { c: 1.5 } };
  assert.equal(json.serialize(value), value);
  assert.equal(json.parseValue(value), value);
  assert.deepEqual(
    literal(json, '{ a: [1, "x", null, true], b: { c: 1.5 }, s: """block""" }'),
    { a: [1, "x", null, true], b: { c: 1.5 }, s: "block" },
  );
  assert.equal(literal(json, "42"), 42);
  assert.equal(literal(json, '"text"'), "text");
  assert.equal(literal(json, "null"), null);
  assert.deepEqual(
    literal(json, "{ v: $v, list: [$v, $missing], gone: $missing }", { v: { n: 1 } }),
    { v: { n: 1 }, list: [{ n: 1 }, null] },
  );
  assert.deepEqual(valueFromAST(parseValue("[1, 2]"), json), [1, 2]);
  assert.throws(() => literal(json, "{ a: ENUM_VALUE }"), /JSON cannot represent/);
});

Deno.test("JSON scalar: a __proto__ key in a literal stays an own data property", () => {
  const { JSON: json } = scalarImplementations();
  const parsed = literal(json, "{ __proto__: { polluted: true }, ok: 1 }") as Record<
    string,
    unknown
  >;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.keys(parsed), ["__proto__", "ok"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((parsed as { polluted?: unknown }).polluted, undefined);
});

Deno.test("DateTime scalar: serialize takes Dates and RFC 3339 strings", () => {
  const { DateTime } = scalarImplementations();
  assert.equal(
    DateTime.serialize(new Date(Date.UTC(2024, 1, 29, 12, 0, 0))),
    "2024-02-29T12:00:00.000Z",
  );
  assert.equal(DateTime.serialize("2024-05-01T12:30:00+02:00"), "2024-05-01T12:30:00+02:00");
  assert.equal(DateTime.serialize("1990-12-31t23:59:60.123z"), "1990-12-31t23:59:60.123z");
  for (const bad of [new Date(Number.NaN), "2024-05-01", "yesterday", 0, null, {}]) {
    assert.throws(() => DateTime.serialize(bad), /DateTime cannot represent/, String(bad));
  }
});

Deno.test("DateTime scalar: parseValue and parseLiteral validate and give the string", () => {
  const { DateTime } = scalarImplementations();
  assert.equal(DateTime.parseValue("2024-05-01T12:30:00Z"), "2024-05-01T12:30:00Z");
  assert.equal(
    literal(DateTime, '"2000-02-29T00:00:00-05:30"'),
    "2000-02-29T00:00:00-05:30",
  );
  for (
    const bad of [
      "2023-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2024-04-31T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T12:60:00Z",
      "2024-05-01T12:00:00+24:00",
      "2024-05-01 12:00:00Z",
      "2024-05-01T12:00:00",
      new Date(),
      1714566600000,
    ]
  ) {
    assert.throws(() => DateTime.parseValue(bad), /DateTime cannot represent/, String(bad));
  }
  assert.throws(() => literal(DateTime, "1714566600"), /DateTime cannot represent/);
  assert.throws(() => literal(DateTime, '"soon"'), /DateTime cannot represent/);
  assert.equal(
    valueFromAST(parseValue('"2024-05-01T12:30:00Z"'), DateTime),
    "2024-05-01T12:30:00Z",
  );
  assert.equal(valueFromAST(parseValue('"nope"'), DateTime), undefined);
});

Deno.test("scalars: work end to end in an executed schema", async () => {
  const scalars = scalarImplementations();
  const json = scalars.JSON as GraphQLScalarType;
  const dateTime = scalars.DateTime as GraphQLScalarType;
  assert.equal(scalarImplementations().JSON, json);
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: {
        echo: { type: json, args: { v: { type: json } }, resolve: (_, args) => args.v },
        when: {
          type: dateTime,
          args: { at: { type: dateTime } },
          resolve: (_, args) => args.at ?? new Date(Date.UTC(2020, 0, 1)),
        },
        kind: { type: GraphQLString, resolve: () => "ok" },
      },
    }),
  });
  const result = await graphql({
    schema,
    source: "query ($x: JSON, $t: DateTime) { a: echo(v: { n: [1, $x] }) b: echo(v: $x) " +
      'c: when d: when(at: "2024-05-01T00:00:00Z") e: when(at: $t) kind }',
    variableValues: { x: { deep: [true] }, t: "2021-01-01T00:00:00+01:00" },
  });
  assert.deepEqual(result.errors, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    a: { n: [1, { deep: [true] }] },
    b: { deep: [true] },
    c: "2020-01-01T00:00:00.000Z",
    d: "2024-05-01T00:00:00Z",
    e: "2021-01-01T00:00:00+01:00",
    kind: "ok",
  });
  const bad = await graphql({ schema, source: '{ when(at: "tomorrow") }' });
  assert.equal(bad.errors?.length, 1);
  const badVar = await graphql({
    schema,
    source: "query ($t: DateTime) { when(at: $t) }",
    variableValues: { t: "tomorrow" },
  });
  assert.equal(badVar.errors?.length, 1);
});
