// A value as MCP text, for tool results and resource contents alike: a string
// as itself (`text/plain`: its JSON's quotes and escapes would only be noise
// to a model), any other value as its JSON.

/** The text of a JSON value and its media type. */
export function textOf(value: unknown): { readonly mimeType: string; readonly text: string } {
  return typeof value === "string"
    ? { mimeType: "text/plain", text: value }
    : { mimeType: "application/json", text: JSON.stringify(value ?? null) };
}
