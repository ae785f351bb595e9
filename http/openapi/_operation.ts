// One operation of the OpenAPI document: parameters from captures and the
// query, the request body, the responses (the result, problems), with named
// schemas registered as components. A leaf without an input schema takes its
// captures, query and body merged as sent: free-form query parameters (GET and
// the like) or an open object body.

import type { StandardSchemaV1 } from "@standard-schema/spec";
import { isVoidSchema, type JsonSchema, toJsonSchema } from "../../tree/schema.ts";
import { readsOpenInput } from "../../tree/leaves.ts";
import { securityOf } from "../../tree/middleware.ts";
import type { ErrorDeclarations } from "../../tree/errors.ts";
import type { HttpOperation } from "../../route/route.ts";
import { OCTET_STREAM } from "../../tree/bytes.ts";
import { coercionPlan } from "../../web/coerce.ts";
import type { ComponentRegistry } from "./_components.ts";
import { eventSchema } from "./_event_schema.ts";
import { addIdempotencyKey } from "./_idempotency.ts";
import { addProblemAnswer } from "./_problem_answers.ts";
import { addTaskAnswers } from "./_tasks.ts";
import { bodyOf, OPEN_QUERY, propertiesOf, queryParameter } from "./_request.ts";
import {
  ANY,
  groupOf,
  jsonResult,
  NONE,
  NOTHING_RETURNED,
  problem,
  PROBLEM_REF,
  type Responses,
  type ResponseTables,
  stringCapture,
} from "./_shared.ts";

/**
 * One OpenAPI operation object.
 *
 * @example
 * ```ts
 * import type { OpenApiOperation } from "@ramify/api/http";
 *
 * const operation: OpenApiOperation = { operationId: "ping", responses: {} };
 * ```
 */
export interface OpenApiOperation {
  /** Unique across the document. */
  readonly operationId: string;
  /** One line. */
  readonly summary?: string;
  /** Longer text. */
  readonly description?: string;
  /** Groups. */
  readonly tags?: readonly string[];
  /** Marked deprecated. */
  readonly deprecated?: boolean;
  /** Path and query parameters. */
  readonly parameters?: readonly Readonly<Record<string, unknown>>[];
  /** The JSON body. */
  readonly requestBody?: Readonly<Record<string, unknown>>;
  /** The security requirements of its guards (all of them at once). */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  /** By status. */
  readonly responses: Readonly<Record<string, unknown>>;
}

const VALIDATION_REF = { $ref: "#/components/schemas/ValidationProblem" } as const;
/** The status that says there is no body. */
const NO_CONTENT = 204;
/** How a declared success status reads. */
const STATUS_WORDS: Readonly<Record<string, string>> = { "201": "Created", "202": "Accepted" };
/** Verbs whose input travels in the query, as `createFetch` reads it. */
const QUERY_VERBS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/** The word with its first letter in upper case. */
export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The operation object of one route operation. */
export function describeOperation(
  operation: HttpOperation,
  operationId: string,
  registry: ComponentRegistry,
  tables: ResponseTables,
): OpenApiOperation {
  const meta = operation.node.meta ?? {};
  const overrides = meta.openapi ?? {};
  const hint = capitalize(operationId);
  const rawInput = jsonSchemaOf(operation, "input", meta.input);
  const input = rawInput === undefined
    ? undefined
    : registry.prepare(rawInput, { owner: hint, side: "Input" }, false);
  const properties = propertiesOf(input);
  const required: ReadonlySet<string> = Array.isArray(input?.required)
    ? new Set(input.required as string[])
    : NONE;
  const parameters: Record<string, unknown>[] = operation.params.map((name) =>
    properties[name] === undefined ? stringCapture(name) : {
      name,
      in: "path",
      required: true,
      schema: properties[name],
    }
  );
  const rest = input === undefined
    ? []
    : Object.keys(properties).filter((name) => !operation.params.includes(name));
  const open = operation.entry.input === "open";
  // Without an input schema, the free-form input is documented where the handler reads one.
  const freeForm = readsOpenInput(operation.node);
  const carriesBody = !QUERY_VERBS.has(operation.method);
  if (freeForm && !carriesBody) parameters.push(OPEN_QUERY);
  if (!carriesBody) {
    const plan = coercionPlan(operation.entry.strings);
    for (const name of rest) {
      parameters.push(queryParameter(name, properties[name], required, plan?.get(name)?.type));
    }
  }
  const requestBody = carriesBody && (open ? freeForm : input === undefined || rest.length > 0)
    ? bodyOf(input, open, operation.params, required, registry, hint)
    : undefined;
  const deprecated = overrides.deprecated ??
    (operation.tags.deprecated === true ? true : undefined);
  const tags = overrides.tags ?? groupOf(operation.path);
  const summary = overrides.summary ?? meta.description?.split("\n")[0] ?? summaryOf(operation);
  const description = overrides.description ?? meta.description;
  const guards = securityOf(operation.node);
  const security = guards.length === 0 ? undefined : [
    Object.fromEntries(
      guards.map((guard) => [guard.name, [...guard.scopesFor?.(operation.node) ?? guard.scopes]]),
    ),
  ];
  const responses = responsesOf(operation, !open, carriesBody, registry, hint);
  if (guards.length > 0) {
    responses.set(
      "401",
      problem("No credential, or one that is not valid (see WWW-Authenticate)", {
        "WWW-Authenticate": { description: "How to authenticate", schema: { type: "string" } },
      }),
    );
    responses.set("403", problem("The credential does not allow this operation"));
  }
  addDeclaredErrors(responses, operation.entry.errors, operation, registry, hint);
  addIdempotencyKey(operation, parameters, responses);
  addTaskAnswers(operation, parameters, responses);
  // Keys are set one by one, in the document's order: no object made only to be spread.
  const described: { -readonly [K in keyof OpenApiOperation]?: OpenApiOperation[K] } = {
    operationId,
  };
  if (summary !== undefined) described.summary = summary;
  if (description !== undefined && description !== summary) described.description = description;
  if (tags !== undefined) described.tags = tags;
  if (deprecated !== undefined) described.deprecated = deprecated;
  if (parameters.length > 0) described.parameters = parameters;
  if (requestBody !== undefined) described.requestBody = requestBody;
  if (security !== undefined) described.security = security;
  described.responses = tables.of(responses);
  return described as OpenApiOperation;
}

function responsesOf(
  operation: HttpOperation,
  hasInputSchema: boolean,
  carriesBody: boolean,
  registry: ComponentRegistry,
  hint: string,
): Responses {
  const outputSchema = operation.node.meta?.output;
  const declared = operation.node.meta?.http?.status;
  const raw = jsonSchemaOf(operation, "output", outputSchema);
  const streams = operation.response === "event-stream";
  // A stream's item schema stays whole in `x-event-schema`: no component only it would use.
  const output = raw === undefined || streams
    ? undefined
    : registry.prepare(raw, { owner: hint, side: "Output" }, true);
  const responses: Responses = new Map();
  if (streams) {
    responses.set("200", {
      description: "Server-Sent Events: each `data` line is one JSON value" +
        (raw === undefined ? "" : " of the event schema"),
      content: {
        "text/event-stream": {
          schema: { type: "string" },
          ...(raw === undefined
            ? {}
            : { "x-event-schema": eventSchema(raw, eventSchemaAt(operation)) }),
        },
      },
    });
  } else if (operation.response === "bytes") {
    addBytes(responses, operation, String(declared ?? 200));
  } else if (
    (outputSchema !== undefined && isVoidSchema(outputSchema)) || declared === NO_CONTENT
  ) {
    // Known to return nothing: the one status the server answers, with no body.
    const status = String(declared ?? NO_CONTENT);
    responses.set(status, {
      description: `${STATUS_WORDS[status] ?? "Done"}; no content`,
      ...headersOf(operation.node.meta?.http?.headers),
    });
  } else {
    const status = String(declared ?? 200);
    const headers = headersOf(operation.node.meta?.http?.headers);
    responses.set(
      status,
      headers.headers === undefined
        ? jsonResult(STATUS_WORDS[status] ?? "The result", output ?? ANY)
        : {
          description: STATUS_WORDS[status] ?? "The result",
          ...headers,
          content: { "application/json": { schema: output ?? {} } },
        },
    );
    // Without an output schema the handler may return a value or nothing.
    if (outputSchema === undefined && status === "200") responses.set("204", NOTHING_RETURNED);
  }
  responses.set("400", problem("The request is malformed (body, encoding or parameters)"));
  if (carriesBody) {
    responses.set("413", problem("The body is larger than the server accepts"));
    responses.set("415", problem("The body's content type is not accepted"));
  }
  if (hasInputSchema) {
    responses.set("422", INVALID_INPUT);
  }
  responses.set("500", problem("The server failed; nothing internal is disclosed"));
  return responses;
}

/** Where a stream's item schema sits in the document, as a JSON Pointer's tokens. */
function eventSchemaAt(operation: HttpOperation): string[] {
  const at = ["paths", operation.path, operation.method.toLowerCase(), "responses", "200"];
  return [...at, "content", "text/event-stream", "x-event-schema"];
}

/**
 * A result its output schema declares as bytes: each media type it names
 * (else `application/octet-stream`) as a binary string, and, for a 200, the
 * range answers the server gives a result of known size (`bytes.ts`).
 */
function addBytes(responses: Responses, operation: HttpOperation, status: string) {
  const types = operation.entry.bytes?.types ?? [];
  const content = Object.fromEntries(
    (types.length === 0 ? [OCTET_STREAM] : types).map((type) => [type, {
      schema: { type: "string", format: "binary", contentMediaType: type },
    }]),
  );
  const { headers = {} } = headersOf(operation.node.meta?.http?.headers);
  responses.set(status, {
    description: STATUS_WORDS[status] ?? "The bytes",
    headers: { ...headers, "content-disposition": DISPOSITION },
    content,
  });
  if (status !== "200") return;
  responses.set("206", {
    description: "The one range of the bytes a `Range` header asked for",
    headers: { ...headers, "content-disposition": DISPOSITION, "content-range": CONTENT_RANGE },
    content,
  });
  responses.set(
    "416",
    problem("The range asked for is outside the bytes", {
      "content-range": { description: "`bytes */<size>`", schema: { type: "string" } },
    }),
  );
}

const INVALID_INPUT = {
  description: "The input does not match the operation's schema",
  content: { "application/problem+json": { schema: VALIDATION_REF } },
} as const;
const DISPOSITION = {
  description: "`attachment` with the file's name, when the result is a named file",
  schema: { type: "string" },
} as const;
const CONTENT_RANGE = {
  description: "`bytes <first>-<last>/<size>`",
  schema: { type: "string" },
} as const;

/** The response headers a leaf declares (`meta.http.headers`), as strings. */
function headersOf(
  declared: Readonly<Record<string, { readonly description?: string }>> | undefined,
): { headers?: Record<string, unknown> } {
  if (declared === undefined || Object.keys(declared).length === 0) return {};
  return {
    headers: Object.fromEntries(
      Object.entries(declared).map(([name, { description }]) => [name, {
        ...(description === undefined ? {} : { description }),
        schema: { type: "string" },
      }]),
    ),
  };
}

/**
 * Each declared error as a problem with its `code` (and `data`) under its
 * status; errors sharing a status (with each other or with a problem the
 * server answers anyway) are one of several shapes.
 */
function addDeclaredErrors(
  responses: Responses,
  errors: ErrorDeclarations,
  operation: HttpOperation,
  registry: ComponentRegistry,
  hint: string,
): void {
  for (const [code, declaration] of Object.entries(errors)) {
    const declared = declaration.data;
    const data = declared === undefined
      ? undefined
      : schemaForm(operation, `data schema of error ${code}`, () =>
        toJsonSchema(declared, "output") ?? {});
    const schema = {
      allOf: [PROBLEM_REF, {
        type: "object",
        properties: {
          code: { const: code },
          ...(data === undefined ? {} : {
            data: registry.prepare(data, {
              owner: `${hint}${capitalize(code)}Error`,
              side: "Output",
            }, true),
          }),
        },
        required: data === undefined ? ["code"] : ["code", "data"],
      }],
    };
    const line = `${code}: ${declaration.description ?? declaration.message ?? code}`;
    addProblemAnswer(responses, String(declaration.status), line, schema, "oneOf");
  }
}

/** A readable default summary from the tree path: `books.{bookId}.checkout.start` is "Books checkout start". */
function summaryOf(operation: HttpOperation): string {
  let words = "";
  for (const step of operation.steps) {
    if (step.kind === "child") words = words === "" ? step.name : `${words} ${step.name}`;
  }
  return words === "" ? "Root" : capitalize(words);
}

/**
 * The JSON Schema of one side, as the catalogue read it; schemas that only
 * accept `undefined` have none.
 */
function jsonSchemaOf(
  operation: HttpOperation,
  side: "input" | "output",
  schema: StandardSchemaV1 | undefined,
): JsonSchema | undefined {
  if (schema === undefined || (side === "output" && isVoidSchema(schema))) return undefined;
  return schemaForm(
    operation,
    `${side} schema`,
    () => side === "input" ? operation.entry.inputSchema : operation.entry.outputSchema,
  );
}

/** What `read` gives, or an error naming the schema (`what`) that has no JSON Schema form. */
function schemaForm<T>(operation: HttpOperation, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(
      `toOpenApi: the ${what} of ${operation.method} ${operation.path} has no JSON Schema form: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
}

/** The problem+json body (RFC 9457). */
export const PROBLEM_SCHEMA: JsonSchema = {
  type: "object",
  description: "RFC 9457 problem details",
  properties: {
    type: { type: "string", description: "A URI naming the problem type" },
    title: { type: "string", description: "A short summary of the problem type" },
    status: { type: "integer", description: "The HTTP status" },
    detail: { type: "string", description: "What went wrong with this request" },
  },
  required: ["type", "title", "status"],
};

/** A 422 problem, with the issues. */
export const VALIDATION_PROBLEM_SCHEMA: JsonSchema = {
  description: "A problem whose issues say which inputs failed validation",
  allOf: [
    PROBLEM_REF,
    {
      type: "object",
      properties: {
        issues: {
          type: "array",
          items: {
            type: "object",
            properties: {
              message: { type: "string" },
              path: { type: "array", items: { type: ["string", "integer"] } },
            },
            required: ["message", "path"],
          },
        },
      },
      required: ["issues"],
    },
  ],
};
