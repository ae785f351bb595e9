/**
 * The one primitive of a ramify tree: {@linkcode Node}, with the {@linkcode Meta}
 * bag it carries, the {@linkcode Handler} a leaf runs and the {@linkcode Fallback}
 * edge that captures a path value.
 *
 * A tree is a plain value. Its position is the address of an operation, so the
 * types here hold no behaviour: constructors live in `@ramify/api/tree`.
 *
 * @example Recognising a node
 * ```ts
 * import { isNode, isLeaf } from "@ramify/api/tree/node";
 *
 * const leaf = { handler: () => "pong" };
 * console.log(isNode(leaf), isLeaf(leaf)); // true true
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ErrorDeclarations } from "./errors.ts";
import type { Reply } from "./reply.ts";
import type { StreamEvent, StreamGap } from "./stream_events.ts";
import type { Invalidates } from "./invalidation.ts";
import type { Security } from "./security.ts";
import type { FirstQuestion, ToolsMeta } from "./tools_meta.ts";
import type { PromptMeta } from "./prompt_meta.ts";

export type { FirstQuestion, PromptMeta, ToolsMeta };

/** An HTTP verb a directive can name. */
export type HttpVerb =
  | "GET"
  | "POST"
  | "PUT"
  | "PATCH"
  | "DELETE"
  | "HEAD"
  | "OPTIONS";

/**
 * One entry of `meta.http.directives`.
 *
 * - `verb` is read by verb derivation;
 * - `method` is read by the method-rewriting stage of the HTTP projection;
 * - `moveTo` repositions a leaf in the route tree with a relative path.
 *
 * @example
 * ```ts
 * import type { HttpDirective } from "@ramify/api/tree/node";
 *
 * const pinned: HttpDirective[] = [
 *   { kind: "verb", value: "GET" },
 *   { kind: "method", value: "GET" },
 *   { kind: "moveTo", value: ".." },
 * ];
 * ```
 */
export type HttpDirective =
  | { readonly kind: "verb"; readonly value: HttpVerb }
  | { readonly kind: "method"; readonly value: HttpVerb }
  | { readonly kind: "moveTo"; readonly value: string };

/**
 * The HTTP sub-bag of {@linkcode Meta}.
 *
 * @example
 * ```ts
 * import type { HttpMeta } from "@ramify/api/tree/node";
 *
 * const http: HttpMeta = { directives: [{ kind: "verb", value: "PUT" }] };
 * ```
 */
export interface HttpMeta {
  /** Directives for the HTTP projection, read in order. */
  readonly directives?: readonly HttpDirective[];
  /** The success status of a value (200 to 299), like 201 or 202. Default 200. */
  readonly status?: number;
  /** The response headers the leaf sets (with `reply()`), by name, for the documentation. */
  readonly headers?: Readonly<Record<string, { readonly description?: string }>>;
  /** Takes an `Idempotency-Key` (`"required"`: 400 without one); see docs/http.md. */
  readonly idempotencyKey?: "optional" | "required";
  /** Further HTTP settings of later projections. */
  readonly [key: string]: unknown;
}

/**
 * Per-operation overrides for the OpenAPI document.
 *
 * @example
 * ```ts
 * import type { OpenApiMeta } from "@ramify/api/tree/node";
 *
 * const openapi: OpenApiMeta = { operationId: "listBooks", tags: ["books"] };
 * ```
 */
export interface OpenApiMeta {
  /** Replaces the derived `operationId`. */
  readonly operationId?: string;
  /** A one-line summary. */
  readonly summary?: string;
  /** A longer description (CommonMark). */
  readonly description?: string;
  /** Groups the operation; replaces the default group. */
  readonly tags?: readonly string[];
  /** Marks the operation as deprecated. */
  readonly deprecated?: boolean;
}

/**
 * Behavioural tags: each is `true` (asserted), `false` (negated) or absent
 * (unknown). Custom tags are allowed beside the standard five.
 *
 * @example
 * ```ts
 * import type { Tags } from "@ramify/api/tree/node";
 *
 * const tags: Tags = { readOnly: true, cached: true };
 * ```
 */
export interface Tags {
  /** No observable side effects; implies `idempotent`. */
  readonly readOnly?: boolean;
  /** The same arguments leave the same state, however often called. */
  readonly idempotent?: boolean;
  /** Irrevocably removes or destroys state; excludes `readOnly`. */
  readonly destructive?: boolean;
  /** May reach external systems or networks. */
  readonly openWorld?: boolean;
  /** Yields a sequence over time rather than one value. */
  readonly streaming?: boolean;
  /** Outlives a request: called as a task with a durable handle; excludes `streaming`. */
  readonly longRunning?: boolean;
  /** A custom tag. */
  readonly [tag: string]: boolean | undefined;
}

/**
 * The open metadata bag of a node. The keys below are the known ones; any other
 * key is allowed and carried along untouched.
 *
 * @example
 * ```ts
 * import type { Meta } from "@ramify/api/tree/node";
 *
 * const meta: Meta = {
 *   description: "Lists the books",
 *   tags: { readOnly: true },
 *   openapi: { summary: "List books" },
 * };
 * ```
 */
export interface Meta {
  /** Behavioural tags, read exactly as authored on this node. */
  readonly tags?: Tags;
  /** HTTP directives. */
  readonly http?: HttpMeta;
  /** OpenAPI overrides for this operation. */
  readonly openapi?: OpenApiMeta;
  /** The leaf on the tool surface; `false` keeps it off. */
  readonly tools?: ToolsMeta | false;
  /** `false` keeps the leaf out of GraphQL (a leaf that returns bytes, which GraphQL has not). */
  readonly graphql?: false;
  /**
   * Marks the leaf as a prompt (see `prompt` of `@ramify/api/tools`): its MCP
   * name, title and argument completers.
   */
  readonly prompt?: PromptMeta;
  /** A human description of the operation. */
  readonly description?: string;
  /** Validates and types the handler's input (a Standard Schema). */
  readonly input?: StandardSchemaV1;
  /** Describes and types the handler's result (a Standard Schema). */
  readonly output?: StandardSchemaV1;
  /** Middleware around the call, outermost first (see `use`). */
  readonly use?: readonly AnyMiddleware[];
  /** The errors the leaf may raise, by code (see `LeafError`). */
  readonly errors?: ErrorDeclarations;
  /** What a mutation makes stale, as tree paths (`"books/{bookId}"`); default its subtree. */
  readonly invalidates?: Invalidates;
  /** The OAuth scopes a call needs; a subtree's go to every leaf beneath (see tree/scopes.ts). */
  readonly scopes?: readonly string[];
  /** Any further key. */
  readonly [key: string]: unknown;
}

/**
 * What a handler receives beside its input: the request that reached it, when a
 * transport has one, and a signal that aborts when the caller goes away.
 * Transports may add keys of their own.
 *
 * @example
 * ```ts
 * import type { HandlerContext } from "@ramify/api/tree/node";
 *
 * function who(_input: unknown, ctx: HandlerContext): string {
 *   return ctx.request?.headers.get("user-agent") ?? "unknown";
 * }
 * ```
 */
export interface HandlerContext {
  /** The web request that reached the handler, if the transport has one. */
  readonly request?: Request;
  /** Aborts when the caller goes away. */
  readonly signal?: AbortSignal;
  /** The surface the call came through (tree/context.ts names the union `Surface`). */
  readonly surface?: "http" | "graphql" | "mcp" | "cli";
  /** Transport-specific values. */
  readonly [key: string]: unknown;
}

/**
 * What a middleware receives about the call it wraps.
 *
 * @example
 * ```ts
 * import type { MiddlewareCall } from "@ramify/api/tree/node";
 *
 * function describe(call: MiddlewareCall): string {
 *   return `${call.leaf.meta?.description ?? "a leaf"} with ${JSON.stringify(call.input)}`;
 * }
 * ```
 */
export interface MiddlewareCall<Needs extends object = Record<never, never>> {
  /** The context so far: the server's values and what earlier middleware added. */
  readonly context: HandlerContext & Needs;
  /** The input as the caller sent it, before the input schema. */
  readonly input: unknown;
  /** The leaf being called. */
  readonly leaf: Node;
}

/**
 * Any middleware, whatever it adds or needs: the type of a middleware list.
 *
 * @example
 * ```ts
 * import type { Middleware } from "@ramify/api/tree";
 * import type { AnyMiddleware } from "@ramify/api/tree/node";
 *
 * const pass: Middleware = (_call, next) => next();
 * const chain: readonly AnyMiddleware[] = [pass];
 * ```
 */
export type AnyMiddleware =
  & ((call: MiddlewareCall<never>, next: never) => unknown)
  & { readonly security?: Security };

/**
 * One step from the root of the node tree to a leaf: a static child by name, or
 * a fallback edge by its capture name. Route positions may differ from these
 * (moves, collapse); typed clients, operation ids and GraphQL names follow
 * the tree.
 *
 * @example
 * ```ts
 * import type { TreeStep } from "@ramify/api/tree/node";
 *
 * const steps: TreeStep[] = [
 *   { kind: "child", name: "books" },
 *   { kind: "fallback", name: "bookId" },
 *   { kind: "child", name: "read" },
 * ];
 * ```
 */
export type TreeStep =
  | { readonly kind: "child"; readonly name: string }
  | { readonly kind: "fallback"; readonly name: string };

/**
 * The function of a leaf. It receives one flat input object (path captures,
 * query and body merged) and cannot tell where a value came from.
 *
 * @typeParam I the input object
 * @typeParam O what the handler returns (may be a promise or an async iterable)
 * @typeParam C the context values its middleware adds
 *
 * @example
 * ```ts
 * import type { Handler } from "@ramify/api/tree/node";
 *
 * type Greeting = { name: string };
 * const greet: Handler<Greeting, string> = (input) => `hi ${input.name}`;
 * ```
 */
export type Handler<I = never, O = unknown, C extends object = Record<never, never>> = (
  input: I,
  context: HandlerContext & C,
) => O;

/**
 * A parameterised child edge: it captures the current address value under
 * `name` and continues into `subtree`. Static children always win over it.
 *
 * @example
 * ```ts
 * import type { Fallback } from "@ramify/api/tree/node";
 *
 * const byId: Fallback = { name: "id", subtree: { handler: () => null } };
 * ```
 */
export interface Fallback<Name extends string = string, Sub extends Node = Node> {
  /** The key the captured value is bound under in the handler's input. */
  readonly name: Name;
  /** The node the address continues into. */
  readonly subtree: Sub;
}

/**
 * A node of the tree: a leaf when it has a handler, a branch when it has
 * children, possibly both. Built with `op()` and `api()`.
 *
 * @example
 * ```ts
 * import type { Node } from "@ramify/api/tree/node";
 *
 * const tree: Node = {
 *   children: { ping: { handler: () => "pong", meta: { tags: { readOnly: true } } } },
 * };
 * ```
 */
export interface Node {
  /** Present on leaves. */
  readonly handler?: Handler<never, unknown>;
  /** Present on branches: segment name to child. */
  readonly children?: Readonly<Record<string, Node>>;
  /** The open metadata bag. */
  readonly meta?: Meta;
  /** The wildcard-capture child edge. */
  readonly fallback?: Fallback;
}

/**
 * A node with a handler, typed by its handler's input and result, by the input
 * its callers send (`W`, the schema's input when a schema validates it) and by
 * its output schema (`S`, `undefined` without one), which decides what callers
 * receive.
 *
 * @example
 * ```ts
 * import type { Leaf } from "@ramify/api/tree/node";
 *
 * const ping: Leaf<Record<string, never>, string> = { handler: () => "pong", meta: {} };
 * ```
 */
export interface Leaf<
  I = never,
  O = unknown,
  W = I,
  S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
  E extends ErrorDeclarations = Record<never, never>,
> extends Node {
  /** The operation. */
  readonly handler: Handler<I, O>;
  /** The merged meta of the leaf's contributions. */
  readonly meta: LeafMeta<I, W, S, E>;
}

/**
 * The meta of a {@linkcode Leaf}: its input schema, when present, turns what a
 * caller sends (`W`) into what the handler receives (`I`); its output schema
 * (`S`) turns what the handler returns into what callers receive.
 *
 * @example
 * ```ts
 * import type { LeafMeta } from "@ramify/api/tree/node";
 *
 * const meta: LeafMeta<{ id: string }> = { description: "Reads one book" };
 * ```
 */
export interface LeafMeta<
  I = never,
  W = I,
  S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
  E extends ErrorDeclarations = Record<never, never>,
> extends Meta {
  /** Validates what a caller sends into what the handler receives. */
  readonly input?: StandardSchemaV1<W, I>;
  /** Checks and shapes what the handler returns (each item, for a stream). */
  readonly output?: S;
  /** The errors the leaf may raise, by code. */
  readonly errors?: E;
}

/**
 * What a handler may return under an output schema `S`: the schema's input
 * type (alone or in a `reply()`), at once, as a promise, or as a stream of items. Without an output
 * schema, anything. Under a schema of files (zod's `z.file()`) a `Blob` is a file too.
 *
 * @example
 * ```ts
 * import type { Produces } from "@ramify/api/tree/node";
 * import { z } from "zod";
 *
 * const Count = z.number();
 * const value: Produces<typeof Count> = Promise.resolve(3);
 * ```
 */
export type Produces<S> = [S] extends [never] ? unknown
  : [S] extends [StandardSchemaV1] ? ProducesOf<FileOrBlob<StandardSchemaV1.InferInput<S>>>
  : unknown;

/** A file may be returned as a `Blob` (the call path checks it as a `File`). */
type FileOrBlob<In> = [In] extends [File] ? In | Blob : In;

// `InferInput` (an indexed access) rather than `infer`: inferring through a
// zod schema's structure made about 9 more instantiations per `op()`.
type ProducesOf<In> =
  | In
  | Reply<In>
  | Promise<In | Reply<In>>
  | AsyncIterable<In | StreamEvent<In> | StreamGap>
  | Promise<AsyncIterable<In | StreamEvent<In> | StreamGap>>;

/**
 * A node with children, keeping the children's and the fallback's types so that
 * typed clients can mirror the tree.
 *
 * @example
 * ```ts
 * import type { Branch, Leaf } from "@ramify/api/tree/node";
 *
 * type Books = Branch<{ list: Leaf<Record<string, never>, string[]> }>;
 * ```
 */
export interface Branch<
  C extends Readonly<Record<string, Node>> = Readonly<Record<string, Node>>,
  F extends Fallback | undefined = undefined,
> extends Node {
  /** The static children. */
  readonly children: C;
  /** The wildcard-capture edge, when there is one. */
  readonly fallback?: F;
}

/**
 * Whether a value has the shape of a {@linkcode Node}: a non-array object with a
 * handler, children or a fallback, each of the right kind.
 *
 * @example
 * ```ts
 * import { isNode } from "@ramify/api/tree/node";
 *
 * console.log(isNode({ children: {} })); // true
 * console.log(isNode({ title: "Dune" })); // false
 * ```
 */
export function isNode(value: unknown): value is Node {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return false;
  }
  const node = value as Record<string, unknown>;
  const { handler, children, fallback, meta } = node;
  if (handler === undefined && children === undefined && fallback === undefined) {
    return false;
  }
  if (handler !== undefined && typeof handler !== "function") return false;
  if (children !== undefined && !isPlainRecord(children)) return false;
  if (meta !== undefined && !isPlainRecord(meta)) return false;
  if (fallback !== undefined) {
    if (!isPlainRecord(fallback)) return false;
    if (typeof fallback.name !== "string" || !isNode(fallback.subtree)) {
      return false;
    }
  }
  return true;
}

/**
 * Whether a node is a leaf, that is, has a handler.
 *
 * @example
 * ```ts
 * import { isLeaf } from "@ramify/api/tree/node";
 *
 * console.log(isLeaf({ handler: () => 1 })); // true
 * console.log(isLeaf({ children: {} })); // false
 * ```
 */
export function isLeaf(node: Node): node is Leaf<never, unknown> {
  return typeof node.handler === "function";
}

/**
 * Whether a node is a branch, that is, has children or a fallback.
 *
 * @example
 * ```ts
 * import { isBranch } from "@ramify/api/tree/node";
 *
 * console.log(isBranch({ children: {} })); // true
 * ```
 */
export function isBranch(node: Node): boolean {
  return node.children !== undefined || node.fallback !== undefined;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
