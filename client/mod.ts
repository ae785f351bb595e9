/**
 * The browser's typed HTTP client, and the client's types:
 * `createClientFromManifest<typeof tree>(manifest, opts)` takes the tree only
 * as a type, and a small plain-data manifest (from
 * `toClientManifest(tree)`, written to a module by a build step) for the
 * routes. Nothing of the server (handlers, schemas, the router) is imported,
 * so a bundle holds this runtime and the manifest; extensions are separate
 * subpaths, in the bundle only when imported. `ClientError`, what a call
 * rejects with, is at `@ramify/api/http` (one subpath per name): `safe()`
 * narrows to it without its import, and `import type` costs a bundle nothing.
 *
 * @example
 * ```ts
 * import { createClientFromManifest, safe } from "@ramify/api/client";
 * import { api, op } from "@ramify/api/tree"; // in the app: `import type { tree }`
 * import { createFetch, toClientManifest } from "@ramify/api/http";
 *
 * const tree = api({ ping: op(() => "pong") });
 * const client = createClientFromManifest<typeof tree>(toClientManifest(tree), {
 *   fetch: createFetch(tree),
 * });
 * const { value } = await safe(client.ping());
 * console.log(value); // "pong"
 * ```
 *
 * @module
 */

export { createClientFromManifest } from "./remote.ts";
export type { ClientTransportOptions, FetchLike } from "./remote.ts";
export type { ClientManifest, ManifestOperation } from "./manifest.ts";
export { safe } from "./safe.ts";
export type { Outcome } from "./safe.ts";
export type {
  CallOptions,
  ClientExtension,
  ClientOperation,
  ClientRequest,
  Send,
} from "./extension.ts";
export type {
  AllOptional,
  AsyncCallOptions,
  BytesResult,
  CallInput,
  ChildrenClient,
  Client,
  ClientErrorFrom,
  ClientErrorOf,
  ClientPromise,
  DeclaredClientError,
  DeclaredDataOf,
  DynamicClient,
  ErrorsOf,
  FallbackClient,
  JsonOf,
  LeafClient,
  ReceivedOf,
  ResultOf,
  TaskHandle,
  TaskHandleOf,
  TaskQuestionState,
  TaskState,
} from "./client_types.ts";
