// Long-running leaves in GraphQL (tag `longRunning`, see docs/tasks.md): such
// a leaf is a Mutation field answering a `Task`, the handle of the task its
// call started. A tree with one gets, and only then, the task types and four
// root fields, named so that a tree's own field is refused rather than
// shadowed (`projectGraphQL` throws naming the leaf):
//
//   Query.task(id: ID!): Task           the task as it stands
//   Subscription.task(id: ID!): Task    the task at each change, until it ends
//   Mutation.cancelTask(id: ID!): Task  cancels it (its handler's signal aborts)
//   Mutation.answerTask(id: ID!, answer: JSON!, key: String): Task
//                                       answers the question its handler asked
//
// The types are defined before the tree's, so that a tree's own type named
// `Task` is numbered (`Task2`) as any clash of names is.

import { JSON_SCALAR, SCALAR_DEFINITIONS } from "./_definitions.ts";
import type { FieldDefinition, GraphQLTypeRegistry } from "./types.ts";

/**
 * A root field the task runtime answers, present when the tree has a
 * long-running leaf (`projectGraphQL(tree).tasks`).
 *
 * @example
 * ```ts
 * import type { GraphQLTaskField } from "@ramify/api/graphql";
 *
 * const line = (field: GraphQLTaskField) => `${field.parent}.${field.name}: ${field.type}`;
 * ```
 */
export interface GraphQLTaskField extends FieldDefinition {
  /** The root type it is on. */
  readonly parent: "Query" | "Mutation" | "Subscription";
}

/** The handle type every long-running leaf's field answers. */
export const TASK_TYPE = "Task";

const ID_ARGUMENT = [{ name: "id", type: "ID!", description: "The task's id" }];

/** The task fields, by root type. */
export const TASK_FIELDS: readonly GraphQLTaskField[] = [
  {
    parent: "Query",
    name: "task",
    type: TASK_TYPE,
    args: ID_ARGUMENT,
    description: "A task as it stands (started by a long-running mutation), by its id",
  },
  {
    parent: "Mutation",
    name: "cancelTask",
    type: TASK_TYPE,
    args: ID_ARGUMENT,
    description: "Cancels a live task: it ends CANCELLED and its handler's signal aborts",
  },
  {
    parent: "Mutation",
    name: "answerTask",
    type: TASK_TYPE,
    args: [
      ...ID_ARGUMENT,
      {
        name: "answer",
        type: `${JSON_SCALAR}!`,
        description: "The answer: an object that fits the question's schema",
      },
      { name: "key", type: "String", description: "The question answered (default the first)" },
    ],
    description: "Answers the question an INPUT_REQUIRED task asks; the task once it took it in",
  },
  {
    parent: "Subscription",
    name: "task",
    type: TASK_TYPE,
    args: ID_ARGUMENT,
    description: "A task at each change of its status or progress, until it ends",
  },
];

/** Defines `Task` and the types it uses. */
export function defineTaskTypes(types: GraphQLTypeRegistry): void {
  types.define({
    kind: "object",
    name: TASK_TYPE,
    description: "The handle of a long-running operation's task",
    fields: [
      { name: "id", type: "ID!" },
      { name: "status", type: "TaskStatus!" },
      { name: "operation", type: "String!", description: "The operation's label" },
      { name: "progress", type: "TaskProgress", description: "The last progress reported" },
      {
        name: "question",
        type: JSON_SCALAR,
        description: "What it asks first, while INPUT_REQUIRED: { key, message, schema }",
      },
      {
        name: "questions",
        type: `[${JSON_SCALAR}!]`,
        description: "Every question it waits on, while INPUT_REQUIRED, in the order asked",
      },
      { name: "result", type: JSON_SCALAR, description: "The result, once COMPLETED" },
      { name: "error", type: "TaskError", description: "The failure, once FAILED or CANCELLED" },
    ],
  });
  types.define({
    kind: "enum",
    name: "TaskStatus",
    values: ["WORKING", "INPUT_REQUIRED", "COMPLETED", "FAILED", "CANCELLED"],
  });
  types.define({
    kind: "object",
    name: "TaskProgress",
    fields: [
      { name: "done", type: "Float!" },
      { name: "total", type: "Float" },
      { name: "message", type: "String" },
    ],
  });
  types.define({
    kind: "object",
    name: "TaskError",
    description:
      "A task's failure, classified as any call's (a fault says no more than its status)",
    fields: [
      { name: "status", type: "Int!" },
      { name: "code", type: "String!" },
      { name: "message", type: "String!" },
      {
        name: "data",
        type: JSON_SCALAR,
        description:
          "A declared error's data, as a call's error has it in extensions.data; else null",
      },
    ],
  });
  types.define(SCALAR_DEFINITIONS[JSON_SCALAR]);
}

/**
 * Refuses a tree field that one of the task fields would shadow: `taken`
 * answers with the label of what holds `Parent.name`, if anything does.
 */
export function checkTaskFields(taken: (key: string) => string | undefined): void {
  for (const field of TASK_FIELDS) {
    const key = `${field.parent}.${field.name}`;
    const holder = taken(key);
    if (holder !== undefined) {
      throw new Error(
        `projectGraphQL: ${holder} projects to ${key}, which a tree with a long-running leaf keeps for its tasks; rename it or keep it out of GraphQL (meta.graphql: false)`,
      );
    }
  }
}
