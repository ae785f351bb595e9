// A type reference (`[Book!]!`) as its AST node, parsed once: a tree of ten
// thousand leaves names the same few types tens of thousands of times, and
// graphql-js's parser is the cost of each. The nodes are read-only, so one
// serves every schema; past a bound the memory starts again.

import { parseType, type TypeNode } from "graphql";

const MAX_REFERENCES = 10_000;
const parsed = new Map<string, TypeNode>();

/** The AST node of a type reference; throws a `GraphQLError` for text that is none. */
export function typeNode(reference: string): TypeNode {
  let node = parsed.get(reference);
  if (node === undefined) {
    node = parseType(reference);
    if (parsed.size >= MAX_REFERENCES) parsed.clear();
    parsed.set(reference, node);
  }
  return node;
}
