// The warning about tools MCP clients will take as destructive: MCP reads a
// missing destructiveHint as true (and openWorldHint too), so a leaf that says
// neither readOnly nor destructive reaches clients as the riskiest kind of
// tool. Said once per tool list or server built, where the author looks.

/** What the warning reads of a tool descriptor. */
interface Hinted {
  readonly name: string;
  readonly annotations: { readonly readOnlyHint?: boolean; readonly destructiveHint?: boolean };
}

/** Names listed at most: past them, a count. */
const LISTED = 20;

/** A tool MCP clients take as destructive without the leaf saying so. */
function unhinted({ annotations }: Hinted): boolean {
  return annotations.readOnlyHint !== true && annotations.destructiveHint === undefined;
}

/** Warns (`console.warn`, once) naming the tools without either hint, if there are any. */
export function warnUnhinted(tools: readonly Hinted[], caller: string): void {
  const names = tools.filter(unhinted).map((tool) => tool.name);
  if (names.length === 0) return;
  const one = names.length === 1;
  const listed = names.slice(0, LISTED).join(", ") +
    (names.length > LISTED ? ` and ${names.length - LISTED} more` : "");
  console.warn(
    `ramify: ${caller}: ${names.length} ${
      one ? "tool says" : "tools say"
    } neither readOnly nor destructive, so MCP clients take ${
      one ? "it" : "them"
    } as destructive: ${listed}. Tag each leaf (tags: { readOnly: true }, or destructive: true or false), or pass warnMissingHints: false.`,
  );
}
