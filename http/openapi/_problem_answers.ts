// One more problem a response may carry at a status: its line joins the
// description, and its schema joins what is there already (`oneOf` for
// problems told apart by their `code`, `anyOf` where shapes may overlap).

/** A response of the document, as far as a problem answer touches it. */
interface ProblemResponse {
  readonly description: string;
  readonly content?: Record<string, { schema: unknown }>;
}

/** Adds a problem answer at `status`, merged with the one there. */
export function addProblemAnswer(
  responses: Map<string, unknown>,
  status: string,
  line: string,
  schema: unknown,
  combine: "oneOf" | "anyOf",
): void {
  const existing = responses.get(status) as ProblemResponse | undefined;
  const before = existing?.content?.["application/problem+json"]?.schema;
  responses.set(status, {
    ...existing,
    description: existing === undefined ? line : `${existing.description}; ${line}`,
    content: { "application/problem+json": { schema: merged(before, schema, combine) } },
  });
}

function merged(before: unknown, schema: unknown, combine: "oneOf" | "anyOf"): unknown {
  if (before === undefined || JSON.stringify(before) === JSON.stringify(schema)) return schema;
  const earlier = (before as Record<string, unknown[] | undefined>)[combine] ?? [before];
  return { [combine]: [...earlier, schema] };
}
