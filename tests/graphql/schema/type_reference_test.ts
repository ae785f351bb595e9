// A registry checks a definition's type references as graphql-js's `parseType`
// reads them, without loading graphql-js (the projection runs before GraphQL
// is first served): the two agree on every text.
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseType } from "graphql";
import { GraphQLTypeRegistry, toGraphQL } from "@ramify/api/graphql";

function parses(text: string): boolean {
  try {
    parseType(text);
    return true;
  } catch {
    return false;
  }
}

function defines(type: string): boolean {
  try {
    new GraphQLTypeRegistry().define({ kind: "object", name: "T", fields: [{ name: "f", type }] });
    return true;
  } catch {
    return false;
  }
}

// Every character class the lexer tells apart: punctuators of a type, name
// characters, ignored tokens, a comment's start, other punctuators, a digit
// first, characters no GraphQL holds, and both halves of a surrogate pair.
const PIECES = [
  "[",
  "]",
  "!",
  "Book",
  "b",
  "_",
  "1",
  " ",
  "\t",
  ",",
  "\n",
  "\r",
  "\uFEFF",
  "#",
  "$",
  "-",
  ".",
  "...",
  ":",
  '"',
  "é",
  "\u2028",
  "\0",
  "\uD83D",
  "\uDE00",
  "\uD83D\uDE00",
];

Deno.test("type references: the registry accepts exactly what parseType parses", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (pieces) => {
      const text = pieces.join("");
      assert.equal(defines(text), parses(text), JSON.stringify(text));
    }),
    { numRuns: 20_000 },
  );
});

Deno.test("type references: well-formed ones of every shape, ignored tokens and all", () => {
  const valid = [
    "Int",
    "Int!",
    "[Int]",
    "[Int!]!",
    "[[Book!]!]",
    " [ Book ! ] ! ",
    ",Int,",
    "\uFEFFInt",
    "Int # a comment",
    "[Int # a comment \uD83D\uDE00\n]",
    "_B9",
  ];
  for (const text of valid) assert.ok(defines(text) && parses(text), JSON.stringify(text));
  const invalid = [
    "",
    "!",
    "Int!!",
    "[Int",
    "Int]",
    "[]",
    "[Int]]",
    "Int Int",
    "1Int",
    "Int # \uD83D",
    "In-t",
    "$Int",
    "[Int]!!",
  ];
  for (const text of invalid) assert.ok(!defines(text) && !parses(text), JSON.stringify(text));
});

Deno.test("type references: printed as graphql-js prints them", () => {
  const registry = new GraphQLTypeRegistry();
  registry.define({
    kind: "object",
    name: "T",
    fields: [{ name: "f", type: " [ Book ,! ] # why\n !" }],
  });
  assert.match(toGraphQL(registry), /f: \[Book!\]!/);
});
