/**
 * What surfaces build on, beside what authors write (`@ramify/api/tree`): the
 * catalogue (each leaf described once: where it sits, its tags, schemas,
 * errors and prepared call), the call path (`createCall`, `runCall`), failures
 * as every surface renders them (`classify`), the one walk of a tree
 * (`leavesOf`), the JSON Schema views, what kind of result a value is, bytes,
 * positioned streams, invalidation, and the interaction a surface installs for
 * its handlers (`withInteraction`). A server of your own, a test harness or a
 * new projection starts here; a service does not need it.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { catalogueOf, classify, runCall } from "@ramify/api/tree/catalogue";
 *
 * const tree = api({ ping: op(() => "pong") });
 * for (const entry of catalogueOf(tree).entries) {
 *   try {
 *     console.log(entry.label, await runCall(entry.call, {}, {})); // "ping" "pong"
 *   } catch (error) {
 *     console.log(classify(error).status);
 *   }
 * }
 * ```
 *
 * @module
 */

export { catalogueOf } from "./catalogue.ts";
export type { Catalogue, CatalogueEntry } from "./catalogue.ts";
export { createCall, InputError, OutputError } from "./call.ts";
export type { CreateCallOptions, LeafCall } from "./call.ts";
export { failureOf, runCall } from "./run.ts";
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
export { inputModeOf, labelOf, leavesOf, readsOpenInput, takesNothing } from "./leaves.ts";
export type { InputMode, LeafEntry } from "./leaves.ts";
export {
  hasJsonSchema,
  inputJsonSchema,
  isStandardSchema,
  isVoidSchema,
  outputJsonSchema,
  toJsonSchema,
  validateInput,
} from "./schema.ts";
export type { JsonSchema, ValidationResult } from "./schema.ts";
export { resultKindOf } from "./result_kind.ts";
export type { ResultKind } from "./result_kind.ts";
export { bytesOf, declaredBytes, isBytes, OCTET_STREAM } from "./bytes.ts";
export { eventsOf, positioned } from "./stream_events.ts";
export type { PositionedSource } from "./stream_events.ts";
export { invalidatesOf, invalidationSteps, isInvalidates } from "./invalidation.ts";
export {
  confirmQuestion,
  LOG_LEVELS,
  needsConfirmation,
  NOT_CONFIRMED,
  withInteraction,
} from "./interaction.ts";
export { formProblem } from "./form_check.ts";
export type { Interaction } from "./interaction.ts";
export { isContractLeaf } from "./contract.ts";
export { securityOf } from "./middleware.ts";
export { scopesOf } from "./scopes.ts";
export { principalOf } from "./principal.ts";
