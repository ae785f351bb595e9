// The answers of GraphQL over HTTP that are not a result: request errors
// (400 or 200 by media type), the masked crash, refusals of mutations over
// GET, and the errors of a document or its variables with their codes.

import {
  type DocumentNode,
  type ExecutionResult,
  getOperationAST,
  type GraphQLError,
  parse,
} from "graphql";
import { type Media, mediaResponse } from "./_http_media.ts";
import { type Params, Refusal } from "./_http_params.ts";

/** The error a client sees for a crash: nothing of the crash itself. */
export function masked(media: Media): Response {
  return mediaResponse(
    JSON.stringify({
      errors: [{ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } }],
    }),
    media,
    500,
  );
}

/** A response that is all request errors: `400` with graphql-response+json, `200` with json. */
export function requestErrors(media: Media, errors: readonly unknown[]): Response {
  return mediaResponse(JSON.stringify({ errors }), media, media.strict ? 400 : 200);
}

/** A result as JSON text; a value JSON cannot hold is a crash (masked by the caller). */
export function serialize(result: ExecutionResult, maxBytes: number): string {
  const text = JSON.stringify(result);
  // Characters bound bytes from below; count bytes only when it could matter.
  if (text.length * 3 <= maxBytes || new TextEncoder().encode(text).length <= maxBytes) return text;
  return JSON.stringify({
    data: null,
    errors: [{
      message: `The response is larger than ${maxBytes} bytes; ask for less`,
      extensions: { code: "RESPONSE_TOO_LARGE" },
    }],
  });
}

export function mutationOverGet(): Refusal {
  return new Refusal(
    405,
    "Mutations are not run over GET; send them with POST",
    "METHOD_NOT_ALLOWED",
    { allow: "POST" },
  );
}

/** The HTTP status an error carries in `extensions.status`, if any. */
export function statusOf(error: GraphQLError): number | undefined {
  const status = error.extensions.status;
  return typeof status === "number" && Number.isInteger(status) && status >= 400 && status <= 599
    ? status
    : undefined;
}

type ErrorJson = ReturnType<GraphQLError["toJSON"]>;

/** A parse or validation error with a code: `GRAPHQL_PARSE_FAILED` or `GRAPHQL_VALIDATION_FAILED`. */
export function documentError(error: GraphQLError): ErrorJson {
  if (error.locations === undefined && /^RangeError\b|call stack/i.test(error.message)) {
    // The parser recurses too; its stack overflow says nothing a client needs.
    return deepDocument("GRAPHQL_PARSE_FAILED");
  }
  return withCode(
    error,
    error.message.startsWith("Syntax Error") ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED",
  );
}

export function deepDocument(code: string): ErrorJson {
  return { message: "The document nests too deeply to be read", extensions: { code } };
}

/** A variable coercion error: `BAD_USER_INPUT` unless it has a code. */
export function inputError(error: GraphQLError): ErrorJson {
  return withCode(error, "BAD_USER_INPUT");
}

function withCode(error: GraphQLError, code: string): ErrorJson {
  const json = error.toJSON();
  if (typeof json.extensions?.code === "string") return json;
  return { ...json, extensions: { ...json.extensions, code } };
}

// ---------------------------------------------------------------- operation

/** Whether the (invalid) document and operationName choose a mutation: GET then refuses with 405. */
export function isMutation(params: Params, maxTokens: number): boolean {
  let document: DocumentNode;
  try {
    document = parse(params.query, { maxTokens });
  } catch {
    return false;
  }
  return getOperationAST(document, params.operationName)?.operation === "mutation";
}
