// Long-running leaves (tag `longRunning`) in the document: their operation
// takes `Prefer` (RFC 7240) and answers `202 Accepted` with the `Location` of
// the task's status resource beside its normal answers (a call done within
// `Prefer: wait` is answered as one); and, once for a document with any, the
// status resources themselves, `/.tasks/{id}`, `/.tasks/{id}/result` and
// `/.tasks/{id}/input` (the answer to its question), with the `TaskStatus`
// schema. The router serves what this describes
// (http/server/_tasks.ts).

import type { JsonSchema } from "../../tree/schema.ts";
import type { HttpOperation } from "../../route/route.ts";
import type { ComponentRegistry } from "./_components.ts";
import { problem } from "./_shared.ts";

const STATUS_REF = { $ref: "#/components/schemas/TaskStatus" } as const;

const QUESTION_SCHEMA: JsonSchema = {
  type: "object",
  required: ["key", "message", "schema"],
  properties: {
    key: { type: "string", description: "What names it in an answer" },
    message: { type: "string" },
    schema: { type: "object", description: "The JSON Schema (a flat form) of the answer" },
  },
};

const ANSWER_SCHEMA: JsonSchema = {
  type: "object",
  required: ["answer"],
  properties: {
    answer: {
      type: "object",
      description: "The answer: an object that fits the question's schema",
    },
    key: { type: "string", description: "The question answered (default the first)" },
  },
};

// Made by its one caller, not at the top: a spread there is a side effect to a
// bundler, which would keep it in every REST bundle, documented or not.
const taskStatusSchema = (): JsonSchema => ({
  type: "object",
  description: "A task of a long-running operation: where it stands, and its outcome once ended",
  required: ["id", "status", "operation", "createdAt", "updatedAt", "logs", "links"],
  properties: {
    id: { type: "string", description: "The task's id, random and unguessable" },
    status: {
      type: "string",
      enum: ["working", "input_required", "completed", "failed", "cancelled"],
    },
    operation: { type: "string", description: "The operation's label (`catalog/reindex`)" },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
    progress: {
      type: "object",
      required: ["done"],
      properties: {
        done: { type: "number" },
        total: { type: "number" },
        message: { type: "string" },
      },
    },
    logs: {
      type: "array",
      description: "The operation's latest log lines",
      items: {
        type: "object",
        required: ["at", "level", "message"],
        properties: {
          at: { type: "string", format: "date-time" },
          level: { type: "string" },
          message: { type: "string" },
          data: {},
        },
      },
    },
    question: {
      ...QUESTION_SCHEMA,
      description: "What the operation asks first, while `input_required`",
    },
    questions: {
      type: "array",
      description: "Every question it waits on, while `input_required`, in the order asked",
      items: QUESTION_SCHEMA,
    },
    result: { description: "The result, once `completed`, as the operation answers it" },
    error: {
      $ref: "#/components/schemas/Problem",
      description: "The problem, once `failed` or `cancelled`",
    },
    links: {
      type: "object",
      required: ["self", "result"],
      properties: {
        self: { type: "string" },
        result: { type: "string" },
        input: { type: "string", description: "Where its question is answered, while asked" },
      },
    },
  },
});

const PREFER = {
  name: "Prefer",
  in: "header",
  required: false,
  description:
    "RFC 7240: `respond-async` (or nothing) answers 202 with the task at once; `wait=N` waits up to N seconds (at most 60) and answers as a normal call when it is done by then",
  schema: { type: "string" },
};

const ACCEPTED = {
  description:
    "A task was started: its status is at `Location` (GET; DELETE cancels), its answer at `Location`/result",
  headers: {
    Location: { description: "The task's status resource", schema: { type: "string" } },
    "Retry-After": { description: "Seconds to wait before polling", schema: { type: "integer" } },
    "Preference-Applied": { description: "`respond-async` when asked", schema: { type: "string" } },
  },
  content: { "application/json": { schema: STATUS_REF } },
};

const TASK_ID = {
  name: "id",
  in: "path",
  required: true,
  description: "The task's id, from its `Location`",
  schema: { type: "string" },
};

// Pure: a bundle that never documents tasks keeps neither.
const NO_TASK = /* @__PURE__ */ problem("No such task (unknown, expired, or another caller's)");
const UNAVAILABLE = /* @__PURE__ */ problem("Tasks are unavailable; retry after Retry-After");

/** Adds `Prefer` and the `202` to a long-running leaf's operation. */
export function addTaskAnswers(
  operation: HttpOperation,
  parameters: Record<string, unknown>[],
  responses: Map<string, unknown>,
): void {
  if (!operation.entry.longRunning) return;
  parameters.push(PREFER);
  responses.set("202", ACCEPTED);
  responses.set("503", UNAVAILABLE);
}

/**
 * Adds the status resources and the `TaskStatus` schema, when an operation is
 * long-running.
 */
export function addTaskPaths(
  paths: Record<string, Record<string, unknown>>,
  operations: readonly HttpOperation[],
  registry: ComponentRegistry,
): void {
  if (!operations.some((operation) => operation.entry.longRunning)) return;
  registry.define("TaskStatus", taskStatusSchema());
  const status = {
    description: "The task",
    content: { "application/json": { schema: STATUS_REF } },
  };
  paths["/.tasks/{id}"] = {
    get: {
      operationId: "getTask",
      summary: "A task's status, progress, log lines and outcome",
      tags: ["tasks"],
      parameters: [TASK_ID],
      responses: { "200": status, "404": NO_TASK, "503": UNAVAILABLE },
    },
    delete: {
      operationId: "cancelTask",
      summary: "Cancels a task: its operation's signal aborts",
      tags: ["tasks"],
      parameters: [TASK_ID],
      responses: {
        "200": { ...status, description: "The task, cancelled" },
        "404": NO_TASK,
        "409": problem("The task has already ended"),
        "503": UNAVAILABLE,
      },
    },
  };
  paths["/.tasks/{id}/input"] = {
    post: {
      operationId: "answerTask",
      summary: "Answers the question an `input_required` task asks",
      tags: ["tasks"],
      parameters: [TASK_ID],
      requestBody: {
        required: true,
        content: { "application/json": { schema: ANSWER_SCHEMA } },
      },
      responses: {
        "200": { ...status, description: "The task, once it took the answer in" },
        "400": problem("The body is not JSON, or has no `answer`"),
        "404": NO_TASK,
        "409": problem("The task is not waiting for an answer, or asks no question of that key"),
        "413": problem("The body is larger than the limit"),
        "415": problem("The body is not JSON"),
        "422": problem("The answer does not fit the question's schema"),
        "503": UNAVAILABLE,
      },
    },
  };
  paths["/.tasks/{id}/result"] = {
    get: {
      operationId: "getTaskResult",
      summary: "A task's answer, as its operation answers a call",
      tags: ["tasks"],
      parameters: [TASK_ID, { ...PREFER, description: "RFC 7240: `wait=N` waits up to N seconds" }],
      responses: {
        "200": {
          description: "The result, as the operation answers it",
          content: { "application/json": {} },
        },
        "202": { ...status, description: "Still running: the task" },
        "404": NO_TASK,
        "503": UNAVAILABLE,
        default: problem("The operation's failure, with its status"),
      },
    },
  };
}
