/**
 * The client manifest: what a typed HTTP client needs to know of a tree, as
 * plain JSON data (each operation's tree steps, verb, path template, tags,
 * whether it streams or declares bytes, where its result holds dates, and its
 * declared error codes), with no handler and no schema. `toClientManifest(tree)` makes it on
 * the server side (or in a build step that writes it to a module);
 * `createClientFromManifest<typeof tree>(manifest)` from `@ramify/api/client`
 * runs on it.
 * This file holds the format and its check only, so a browser bundle that
 * reads a manifest carries nothing of the server.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toClientManifest } from "@ramify/api/http";
 *
 * const manifest = toClientManifest(api({ ping: op(() => "pong") }));
 * console.log(manifest.operations[0].path); // "/ping"
 * ```
 *
 * @module
 */

import { type Invalidates, isInvalidates } from "../tree/invalidation.ts";
import type { HttpVerb, Tags, TreeStep } from "../tree/node.ts";
import type { IdempotencyKeyMode } from "../route/idempotency.ts";
import type { DatePath } from "../tree/dates.ts";

/**
 * One operation of a {@linkcode ClientManifest}.
 *
 * @example
 * ```ts
 * import type { ManifestOperation } from "@ramify/api/client";
 *
 * const read: ManifestOperation = {
 *   steps: [{ kind: "child", name: "books" }, { kind: "fallback", name: "bookId" }, { kind: "child", name: "read" }],
 *   method: "GET",
 *   path: "/books/{bookId}",
 *   tags: { readOnly: true },
 *   stream: false,
 *   dates: [],
 *   errors: ["BOOK_NOT_FOUND"],
 * };
 * ```
 */
export interface ManifestOperation {
  /** Where the leaf sits in the tree: what the client's object mirrors. */
  readonly steps: readonly TreeStep[];
  /** The verb. */
  readonly method: HttpVerb;
  /** The path template, captures in braces. */
  readonly path: string;
  /** The leaf's own tags (extensions read them: retries only what is safe to repeat). */
  readonly tags: Tags;
  /** Whether the answer is Server-Sent Events. */
  readonly stream: boolean;
  /**
   * Whether the output schema declares bytes (absent: no). The client asks
   * for them by `Accept`; any answer that is not JSON is bytes all the same.
   */
  readonly bytes?: boolean;
  /** Where the result holds dates (each a path of keys, `*` for any item). */
  readonly dates: readonly DatePath[];
  /** The error codes the leaf declares. */
  readonly errors: readonly string[];
  /**
   * Whether it takes an `Idempotency-Key` (absent: no): the `retry`
   * extension then sends one key on every attempt, and retries.
   */
  readonly idempotencyKey?: IdempotencyKeyMode;
  /** What it makes stale, when its leaf says (`meta.invalidates`). */
  readonly invalidates?: Invalidates;
}

/**
 * A tree's operations as plain data, versioned.
 *
 * @example
 * ```ts
 * import type { ClientManifest } from "@ramify/api/client";
 *
 * const empty: ClientManifest = { manifest: 1, operations: [] };
 * ```
 */
export interface ClientManifest {
  /** The format's version: 1. */
  readonly manifest: 1;
  /** Every operation of the tree. */
  readonly operations: readonly ManifestOperation[];
}

const VERBS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The manifest, checked: it may come from a file or over the network. */
export function checkedManifest(value: unknown): ClientManifest {
  const fail = (why: string): never => {
    throw new TypeError(`createClient: not a client manifest: ${why}`);
  };
  if (!isRecord(value) || value.manifest !== 1) fail("expected { manifest: 1, operations }");
  const operations = (value as { operations?: unknown }).operations;
  if (!Array.isArray(operations)) fail("operations must be a list");
  (operations as unknown[]).forEach((operation, index) => {
    const where = `operation ${index}`;
    if (!isRecord(operation)) return fail(`${where} is not an object`);
    const { steps, method, path, tags, stream, bytes, dates, errors, idempotencyKey } = operation;
    if (operation.invalidates !== undefined && !isInvalidates(operation.invalidates)) {
      fail(`${where}: invalidates`);
    }
    const stepsOk = Array.isArray(steps) &&
      steps.every((step) =>
        isRecord(step) && (step.kind === "child" || step.kind === "fallback") &&
        typeof step.name === "string"
      );
    if (!stepsOk) fail(`${where}: steps`);
    if (typeof method !== "string" || !VERBS.has(method)) fail(`${where}: method`);
    if (typeof path !== "string" || !path.startsWith("/")) fail(`${where}: path`);
    if (!isRecord(tags)) fail(`${where}: tags`);
    if (typeof stream !== "boolean") fail(`${where}: stream`);
    if (bytes !== undefined && typeof bytes !== "boolean") fail(`${where}: bytes`);
    if (
      idempotencyKey !== undefined && idempotencyKey !== "optional" && idempotencyKey !== "required"
    ) {
      fail(`${where}: idempotencyKey`);
    }
    const datesOk = Array.isArray(dates) &&
      dates.every((at) => Array.isArray(at) && at.every((key) => typeof key === "string"));
    if (!datesOk) fail(`${where}: dates`);
    if (!Array.isArray(errors) || !errors.every((code) => typeof code === "string")) {
      fail(`${where}: errors`);
    }
  });
  return value as ClientManifest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
