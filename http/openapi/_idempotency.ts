// The `Idempotency-Key` of an operation that takes one, in the document: the
// header parameter (required or not) and the draft's answers that come with
// it (400 without a key, 409 while its first request runs, 422 for the key
// again with another request), merged with what the operation has at those
// statuses already.

import { idempotencyKeyOf } from "../../route/idempotency.ts";
import type { HttpOperation } from "../../route/route.ts";
import { addProblemAnswer } from "./_problem_answers.ts";

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" } as const;

const ANSWERS: Readonly<Record<string, string>> = {
  "400": "No Idempotency-Key where one is required, or one that is not a key",
  "409": "A request with this Idempotency-Key is still running; retry after Retry-After",
  "422": "This Idempotency-Key was sent with another request",
};

/** Adds the header and the answers when the operation takes a key. */
export function addIdempotencyKey(
  operation: HttpOperation,
  parameters: Record<string, unknown>[],
  responses: Map<string, unknown>,
): void {
  const mode = idempotencyKeyOf(operation);
  if (mode === undefined) return;
  parameters.push({
    name: "Idempotency-Key",
    in: "header",
    required: mode === "required",
    description:
      "A key of the client's (a UUID, say): a retry with it and the same request gets the first answer again (`Idempotent-Replayed: true`), and the operation runs once",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  });
  for (const [status, description] of Object.entries(ANSWERS)) {
    addProblemAnswer(responses, status, description, PROBLEM_REF, "anyOf");
  }
}
