// Whether a text is a GraphQL type reference (`Book`, `[Book!]!`), read as
// graphql-js's `parseType` reads it (whitespace, commas and comments ignored)
// without loading graphql-js: the projection checks a registry's definitions
// before anything else of GraphQL is needed.

const BOM = 0xfeff;

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

/** The punctuators and names of `text`, or `undefined` for a character no type reference holds. */
function tokensOf(text: string): string[] | undefined {
  const tokens: string[] = [];
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (
      code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x2c ||
      code === BOM
    ) {
      at++;
    } else if (code === 0x23) {
      at = afterComment(text, at + 1);
      if (at === -1) return undefined;
    } else if (code === 0x5b || code === 0x5d || code === 0x21) {
      tokens.push(text[at++]);
    } else if (startsName(code)) {
      const start = at++;
      while (at < text.length && continuesName(text.charCodeAt(at))) at++;
      tokens.push(text.slice(start, at));
    } else {
      return undefined;
    }
  }
  return tokens;
}

/** Where a comment starting at `at` ends (its line's end), or -1 at a lone surrogate. */
function afterComment(text: string, at: number): number {
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x0a || code === 0x0d) return at;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return -1;
      at += 2;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return -1;
    } else {
      at++;
    }
  }
  return at;
}

function startsName(code: number): boolean {
  return code === 0x5f || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function continuesName(code: number): boolean {
  return startsName(code) || (code >= 0x30 && code <= 0x39);
}
