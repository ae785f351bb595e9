/**
 * The GraphQL client manifest: what a typed GraphQL client needs to know of a
 * tree, as plain JSON data: each leaf's document, where its result sits, its
 * arguments, and the named types whose fields are spelled differently in
 * GraphQL (no handler, no schema, no `graphql` package). Made by
 * `toGraphQLClientManifest(tree)` from `@ramify/api/graphql`.
 *
 * @example
 * ```ts
 * import type { GraphQLClientManifest } from "@ramify/api/graphql/client";
 *
 * const empty: GraphQLClientManifest = { manifest: 1, operations: [], types: [] };
 * ```
 *
 * @module
 */

import { type Invalidates, isInvalidates } from "../../tree/invalidation.ts";
import type { TreeStep } from "../../tree/node.ts";
import type { DatePath } from "../../tree/dates.ts";

/**
 * One leaf of a {@linkcode GraphQLClientManifest}.
 *
 * @example
 * ```ts
 * import type { GraphQLManifestOperation } from "@ramify/api/graphql/client";
 *
 * const ping: GraphQLManifestOperation = {
 *   steps: [{ kind: "child", name: "ping" }],
 *   kind: "query",
 *   query: "query Ping { ping }",
 *   operationName: "Ping",
 *   path: ["ping"],
 *   args: [],
 *   type: "String",
 *   voidResult: false,
 *   dates: [],
 *   errors: [],
 * };
 * ```
 */
export interface GraphQLManifestOperation {
  /** Where the leaf sits in the tree. */
  readonly steps: readonly TreeStep[];
  /** `query`, `mutation` or `subscription`. */
  readonly kind: "query" | "mutation" | "subscription";
  /** The document text. */
  readonly query: string;
  /** The operation's name. */
  readonly operationName: string;
  /** The response keys from `data` down to the result. */
  readonly path: readonly string[];
  /**
   * The arguments: GraphQL name, the input key it fills, its type; `spread`
   * for the free-form input of a leaf without an input schema (the call's
   * whole input less its captures).
   */
  readonly args: readonly {
    readonly name: string;
    readonly key?: string;
    readonly type: string;
    readonly spread?: boolean;
  }[];
  /** The field's type reference. */
  readonly type: string;
  /** Whether the leaf gives nothing (the field answers `true`). */
  readonly voidResult: boolean;
  /** Where the result holds dates. */
  readonly dates: readonly DatePath[];
  /** The error codes the leaf declares. */
  readonly errors: readonly string[];
  /** What it makes stale, when its leaf says (`meta.invalidates`). */
  readonly invalidates?: Invalidates;
  /**
   * Whether its leaf is long-running (tag `longRunning`): the field answers a
   * `Task` handle, and the client awaits the task's result through
   * `task(id)` unless the call asks `{ async: true }` for the handle.
   */
  readonly longRunning?: boolean;
}

/**
 * A named type the client renames through: an object or input type's fields
 * (GraphQL name, tree key, type, whether optional), or a union (by member).
 *
 * @example
 * ```ts
 * import type { GraphQLManifestType } from "@ramify/api/graphql/client";
 *
 * const person: GraphQLManifestType = {
 *   name: "Person",
 *   kind: "object",
 *   fields: [{ name: "firstName", key: "first-name", type: "String" }],
 * };
 * ```
 */
export interface GraphQLManifestType {
  /** The type's name. */
  readonly name: string;
  /** Its kind. */
  readonly kind: "object" | "input" | "union";
  /** Its fields (objects and inputs). */
  readonly fields?: readonly {
    readonly name: string;
    readonly key?: string;
    readonly type: string;
    readonly optional?: boolean;
  }[];
}

/**
 * A tree's GraphQL operations and renaming types, as plain data, versioned.
 *
 * @example
 * ```ts
 * import type { GraphQLClientManifest } from "@ramify/api/graphql/client";
 *
 * const empty: GraphQLClientManifest = { manifest: 1, operations: [], types: [] };
 * ```
 */
export interface GraphQLClientManifest {
  /** The format's version: 1. */
  readonly manifest: 1;
  /** Every leaf. */
  readonly operations: readonly GraphQLManifestOperation[];
  /** The named types the client renames through. */
  readonly types: readonly GraphQLManifestType[];
}

const KINDS = new Set(["query", "mutation", "subscription"]);

/** The manifest, checked: it may come from a file or over the network. */
export function checkedGraphQLManifest(value: unknown): GraphQLClientManifest {
  const fail = (why: string): never => {
    throw new TypeError(`createGraphQLClient: not a GraphQL client manifest: ${why}`);
  };
  if (!isRecord(value) || value.manifest !== 1) fail("expected { manifest: 1, operations, types }");
  const { operations, types } = value as Record<string, unknown>;
  if (!Array.isArray(operations) || !Array.isArray(types)) {
    fail("operations and types must be lists");
  }
  (operations as unknown[]).forEach((operation, index) => {
    const where = `operation ${index}`;
    if (!isRecord(operation)) return fail(`${where} is not an object`);
    const texts = ["query", "operationName", "type"] as const;
    for (const key of texts) if (typeof operation[key] !== "string") fail(`${where}: ${key}`);
    if (!KINDS.has(operation.kind as string)) fail(`${where}: kind`);
    for (const key of ["steps", "path", "args", "dates", "errors"] as const) {
      if (!Array.isArray(operation[key])) fail(`${where}: ${key}`);
    }
    if (typeof operation.voidResult !== "boolean") fail(`${where}: voidResult`);
    if (operation.invalidates !== undefined && !isInvalidates(operation.invalidates)) {
      fail(`${where}: invalidates`);
    }
  });
  (types as unknown[]).forEach((type, index) => {
    if (!isRecord(type) || typeof type.name !== "string") fail(`type ${index}`);
  });
  return value as GraphQLClientManifest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
