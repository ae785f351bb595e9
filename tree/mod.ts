/**
 * The tree package, what authors write: `op()` makes a leaf, `api()` makes a
 * branch, `mergeMeta` combines meta contributions; `use()` guards, `reply()`
 * sets a status, headers and cookies, `HttpError` and `LeafError` fail a call,
 * `ask`, `log` and `progress` talk to the caller, `streamEvent` names a
 * stream's items, and the contract helpers (`implement`, `mock`) split a tree's
 * shape from its handlers. What surfaces build on (the catalogue, the call
 * path, failures as rendered, schema views) is at `@ramify/api/tree/catalogue`.
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
export { assertImplemented, implement, mock, unimplemented } from "./contract.ts";
export type {
  ContractLeaf,
  ContractOutput,
  HandlersOf,
  Implemented,
  Unimplemented,
} from "./contract.ts";
export { mergeMeta } from "./merge.ts";
export type { InputOf, OutputOf, ValidationIssue } from "./schema.ts";
export { atLeaf, use, useAll } from "./middleware.ts";
export type {
  Middleware,
  Next,
  ProtectedResource,
  ProtectedResourceMetadata,
  SecuredLeaf,
  Security,
  SecurityScheme,
  Use,
} from "./middleware.ts";
export { Reply, reply } from "./reply.ts";
export type { Cookie, ReplyInit } from "./reply.ts";
export { LeafError } from "./errors.ts";
export { HttpError } from "./http_error.ts";
export type { HttpErrorOptions, Problem } from "./http_error.ts";
export { StreamEvent, streamEvent, StreamGap } from "./stream_events.ts";
export type { Invalidates } from "./invalidation.ts";
export type { GapNotice, StreamItemOf } from "./stream_events.ts";
export type { Bytes } from "./bytes.ts";
export { ask, log, progress } from "./interaction.ts";
export type { AskResult, LogLevel, Question } from "./interaction.ts";
export type { FormField, FormSchema } from "./form_check.ts";
export { Content, content } from "./content.ts";
export type { ContentBlock, ContentPart } from "./content.ts";
export type { ContextFunction, ContextSource, RequestContextSource, Surface } from "./context.ts";
export type { ErrorObserver } from "./options.ts";
export type { ErrorDeclaration, ErrorDeclarations, LeafErrorOptions } from "./errors.ts";
