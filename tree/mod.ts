/**
 * The tree package: `op()` makes a leaf, `api()` makes a branch, `mergeMeta`
 * combines meta contributions, and the schema layer validates input and reads
 * JSON Schema from Standard Schemas.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { z } from "zod";
 *
 * const books = api({
 *   list: op(() => [{ id: "1", title: "Dune" }], http.get),
 *   add: op(({ title }) => ({ id: "2", title }), {
 *     input: z.object({ title: z.string() }),
 *   }),
 * });
 * ```
 *
 * @module
 */

export { api, op } from "./construct.ts";
export type { ApiOptions, Contribution } from "./construct.ts";
export { assertImplemented, implement, isContractLeaf, mock, unimplemented } from "./contract.ts";
export type {
  ContractLeaf,
  ContractOutput,
  HandlersOf,
  Implemented,
  Unimplemented,
} from "./contract.ts";
export { mergeMeta } from "./merge.ts";
export { createCall, InputError, OutputError } from "./call.ts";
export type { CreateCallOptions, LeafCall } from "./call.ts";
export {
  hasJsonSchema,
  inputJsonSchema,
  isStandardSchema,
  isVoidSchema,
  outputJsonSchema,
  toJsonSchema,
  validateInput,
} from "./schema.ts";
export type { InputOf, JsonSchema, OutputOf, ValidationIssue, ValidationResult } from "./schema.ts";
export { atLeaf, securityOf, use, useAll } from "./middleware.ts";
export type { Middleware, Next, Security, SecurityScheme, Use } from "./middleware.ts";
export { Reply, reply } from "./reply.ts";
export type { Cookie, ReplyInit } from "./reply.ts";
export { LeafError } from "./errors.ts";
export { HttpError } from "./http_error.ts";
export type { HttpErrorOptions, Problem } from "./http_error.ts";
export {
  Cancelled,
  classify,
  codeOfStatus,
  failureLine,
  issuesLine,
  statusLine,
  TimedOut,
} from "./failure.ts";
export type { Failure, FailureKind } from "./failure.ts";
export { failureOf, runCall } from "./run.ts";
export { inputModeOf, labelOf, leavesOf, readsOpenInput, takesNothing } from "./leaves.ts";
export { bytesOf, declaredBytes, isBytes, OCTET_STREAM } from "./bytes.ts";
export { eventsOf, positioned, StreamEvent, streamEvent, StreamGap } from "./stream_events.ts";
export { invalidatesOf, invalidationSteps, isInvalidates } from "./invalidation.ts";
export type { Invalidates } from "./invalidation.ts";
export type { GapNotice, PositionedSource, StreamItemOf } from "./stream_events.ts";
export type { Bytes } from "./bytes.ts";
export {
  ask,
  confirmQuestion,
  formProblem,
  log,
  LOG_LEVELS,
  needsConfirmation,
  NOT_CONFIRMED,
  progress,
  withInteraction,
} from "./interaction.ts";
export type {
  AskResult,
  FormField,
  FormSchema,
  Interaction,
  LogLevel,
  Question,
} from "./interaction.ts";
export { prompt } from "./prompt.ts";
export type {
  PromptContent,
  PromptMessage,
  PromptMeta,
  PromptOptions,
  RenderedPrompt,
} from "./prompt.ts";
export { Content, content } from "./content.ts";
export type { ContentBlock, ContentPart } from "./content.ts";
export type { InputMode, LeafEntry } from "./leaves.ts";
export type { ContextFunction, ContextSource, RequestContextSource, Surface } from "./context.ts";
export type { ErrorObserver } from "./options.ts";
export type { ErrorDeclaration, ErrorDeclarations, LeafErrorOptions } from "./errors.ts";
