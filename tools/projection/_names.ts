// Tool names from tree paths. MCP allows [A-Za-z0-9._-], at most 128
// characters. The child names on the path are joined with "."; inside a name,
// every other character is written "_x" and two uppercase hex digits per
// UTF-8 byte ("." is "_x2E"), and a "_" that would read as such an escape is
// itself escaped ("_x5F"). Decoding is unambiguous, so the joining is
// injective, and ordinary names (snake_case, kebab-case, page_10) stay as
// they are.

/** MCP's rule for tool names. */
export const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

const PLAIN = /[A-Za-z0-9_-]/;
const ESCAPE_TAIL = /^x[0-9A-F]{2}$/;

/** One child name, escaped for a tool name. */
export function escapeSegment(name: string): string {
  let out = "";
  for (let at = 0; at < name.length;) {
    const char = String.fromCodePoint(name.codePointAt(at)!);
    at += char.length;
    if (char === "_" && ESCAPE_TAIL.test(name.slice(at, at + 3))) out += "_x5F";
    else if (PLAIN.test(char)) out += char;
    else {for (const byte of new TextEncoder().encode(char)) {
        out += `_x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }}
  }
  return out;
}

/** The tool name of a path of child names. */
export function joinPath(names: readonly string[]): string {
  return names.map(escapeSegment).join(".");
}
