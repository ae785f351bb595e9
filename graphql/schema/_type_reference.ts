// Whether a text is a GraphQL type reference (`Book`, `[Book!]!`), read as
// graphql-js's `parseType` reads it (whitespace, commas and comments ignored)
// without loading graphql-js: the projection checks a registry's definitions
// before anything else of GraphQL is needed.

import { NAME_PATTERN } from "./_names.ts";

// One token at a time: ignored text (whitespace, commas, a byte-order mark, a
// comment to its line's end, where a lone surrogate ends the match as it
// stops graphql-js's lexer), or, captured, a punctuator of a type or a name.
const TOKEN = new RegExp(
  "[\\t \\n\\r,\\uFEFF]+|#(?:[^\\n\\r\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*|" +
    `([[\\]!]|${NAME_PATTERN})`,
  "y",
);

/** Whether `text` is one type reference and nothing else. */
export function isTypeReference(text: string): boolean {
  const tokens = tokensOf(text);
  if (tokens === undefined) return false;
  let at = 0;
  // Type := Name | "[" Type "]", each optionally followed by "!".
  const type = (): boolean => {
    const token = tokens[at++];
    if (token === "[") {
      if (!type() || tokens[at++] !== "]") return false;
    } else if (token === undefined || token === "]" || token === "!") {
      return false;
    }
    if (tokens[at] === "!") at++;
    return true;
  };
  return type() && at === tokens.length;
}

/** The punctuators and names of `text`, or `undefined` at a character no type reference holds. */
function tokensOf(text: string): string[] | undefined {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const match = TOKEN.exec(text);
    if (match === null) return undefined;
    if (match[1] !== undefined) tokens.push(match[1]);
  }
  return tokens;
}
