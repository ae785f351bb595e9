/**
 * The two constructors of a tree: `op()` makes a leaf, `api()` makes a branch.
 * Both check what they are given and fail at once, naming the place, so that a
 * bad tree never reaches a projection.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 *
 * const tree = api({
 *   ping: op(() => "pong", { tags: { readOnly: true } }),
 * });
 * ```
 *
 * @module
 */

import type {
  Branch,
  Fallback,
  Handler,
  HandlerContext,
  HttpDirective,
  Leaf,
  Meta,
  Node,
  Produces,
} from "./node.ts";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { isNode } from "./node.ts";
import { type ErrorDeclarations, errorsProblem } from "./errors.ts";
import { mergeMeta } from "./merge.ts";
import { tagConflict } from "./tags.ts";
import { scopesProblem, withScopes } from "./scopes.ts";
import { inputShapeProblem, isStandardSchema } from "./schema.ts";
import { isPlainObject, kindOf, setOwn } from "./plain_data.ts";
import { type ContractLeaf, type ContractOutput, unimplemented } from "./contract.ts";

// An interface over `Meta`, not `LeafMeta<…> & {…}`: about 8 fewer
// instantiations per op() (bench/types), the same shape.
/**
 * One contribution to a leaf's meta: a plain meta object, a verb bundle or a
 * `use()`. Its `input` schema, when present, types the handler's parameter;
 * its `errors` type the clients' errors; a `use()` types the handler's context.
 *
 * @example
 * ```ts
 * import type { Contribution } from "@ramify/api/tree";
 *
 * const described: Contribution = { description: "Lists the books" };
 * ```
 */
export interface Contribution<
  I = never,
  W = I,
  S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
  E extends ErrorDeclarations = Record<never, never>,
  C = unknown,
> extends Meta {
  /** Validates what a caller sends (`W`) into what the handler receives (`I`). */
  readonly input?: StandardSchemaV1<W, I>;
  /** Checks and shapes what the handler returns. */
  readonly output?: S;
  /** The errors the leaf may raise, by code. */
  readonly errors?: E;
  /** Types only: the context values a `use()` adds. */
  readonly "~context"?: C;
}

/**
 * Makes a leaf: a node whose handler is `fn` and whose meta is the merge of all
 * contributions, left to right (see `mergeMeta`). A bare function gives empty
 * meta.
 *
 * `meta.http.directives` is the one key combined differently: directives of
 * different kinds accumulate across contributions and a later directive replaces
 * an earlier one of the same kind, so `op(fn, http.patch, http.moveTo(".."))`
 * keeps PATCH and moves it. (`mergeMeta` itself replaces arrays, as specified.)
 *
 * With an `input` Standard Schema the handler's parameter is typed from the
 * schema's output; without one, from the handler's own annotation. With an
 * `output` schema the handler must return the schema's input type (or a
 * promise or stream of it), and callers receive the schema's output type: the
 * result is parsed by it on every surface, so unknown keys never leave.
 *
 * @example Typed from a schema
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const add = op(({ title }) => ({ id: "1", title }), {
 *   input: z.object({ title: z.string() }),
 * });
 * ```
 *
 * @example Typed from the handler
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const read = op(({ id }: { id: string }) => ({ id }), http.get);
 * ```
 *
 * @example Checked against an output schema
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const User = z.object({ id: z.string(), name: z.string() });
 * const me = op(() => ({ id: "7", name: "Ann", passwordHash: "x" }), { output: User });
 * const numericId = () => ({ id: 7, name: "Ann" });
 * // @ts-expect-error `id` must be a string
 * op(numericId, { output: User });
 * ```
 *
 * @throws {TypeError} when `fn` is not a function, a contribution is not a
 * plain object, `input`/`output` is not a Standard Schema, a named handler's
 * `input` does not describe an object, or the tags
 * contradict each other.
 */
export function op<
  I = Record<string, unknown>,
  W = I,
  S extends StandardSchemaV1 | undefined = undefined,
  O extends Produces<S> = Produces<S>,
  E extends ErrorDeclarations = Record<never, never>,
  C extends object = Record<never, never>,
>(
  // `Handler<I, O, C>` written out: the alias cost about 6 instantiations per op().
  fn: (input: I, context: HandlerContext & C) => O,
  ...contributions: ReadonlyArray<Contribution<I, W, S, E, C> | undefined>
  // Typed by its arguments only, never by where it is placed (api()'s `Node`
  // would make `I` never); one NoInfer around the whole costs less than five.
): NoInfer<Leaf<I, O, W, S, E>> {
  if (typeof fn !== "function") {
    throw new TypeError(`op(): the handler must be a function, got ${kindOf(fn)}`);
  }
  const place = fn.name ? `op(${fn.name})` : "op()";
  contributions.forEach((contribution, index) => {
    if (isStandardSchema(contribution)) {
      throw new TypeError(
        `${place}: contribution ${
          index + 1
        } is a schema, not meta; pass it as { input: schema } (or { output: schema })`,
      );
    }
    if (contribution !== undefined && !isPlainObject(contribution)) {
      throw new TypeError(
        `${place}: contribution ${index + 1} must be a meta object or a verb bundle, got ${
          kindOf(contribution)
        }`,
      );
    }
  });
  const meta = withFoldedMiddleware(
    withFoldedDirectives(mergeMeta(...contributions), contributions),
    contributions,
  );
  checkMeta(meta, place);
  // An anonymous handler is named by the api() that places it.
  if (fn.name) checkInputShape({ handler: fn as unknown as Handler, meta }, place);
  return freezeNode({ handler: fn as unknown as Handler, meta }) as unknown as Leaf<I, O, W, S, E>;
}

/**
 * Makes a contract leaf: the leaf `op()` would make from the same
 * contributions, without its handler (see `implement`). Its types come from
 * the schemas: `input` types what callers send and the handler receives,
 * `output` what it returns, `errors` the declared errors.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 * import { z } from "zod";
 *
 * const contract = api({ count: op.contract(http.get, { output: z.number() }) });
 * ```
 *
 * @throws {TypeError} as `op()` does for its contributions.
 */
op.contract = function contract<
  I = Record<string, unknown>,
  W = I,
  S extends StandardSchemaV1 | undefined = undefined,
  E extends ErrorDeclarations = Record<never, never>,
>(
  ...contributions: ReadonlyArray<Contribution<I, W, S, E> | undefined>
): NoInfer<ContractLeaf<I, ContractOutput<S>, W, S, E>> {
  // The schemas type the leaf; op() checks and freezes it as any other.
  const leafOf = op as unknown as (
    fn: Handler,
    ...metas: ReadonlyArray<Meta | undefined>
  ) => unknown;
  return leafOf(unimplemented(), ...contributions) as ContractLeaf<I, ContractOutput<S>, W, S, E>;
};

/**
 * Options of {@linkcode api}.
 *
 * @example
 * ```ts
 * import type { ApiOptions } from "@ramify/api/tree";
 *
 * const opts: ApiOptions = { meta: { description: "The books" } };
 * ```
 */
export interface ApiOptions<F extends Fallback | undefined = Fallback | undefined> {
  /** The branch's own meta; never inherited by its children. */
  readonly meta?: Meta;
  /** The wildcard-capture edge. */
  readonly fallback?: F;
}

/**
 * Makes a branch from a map of segment name to node, with optional meta and a
 * fallback that captures any other segment value under `fallback.name`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const books = api(
 *   { list: op(() => [], http.get) },
 *   {
 *     fallback: {
 *       name: "bookId",
 *       subtree: api({ read: op(({ bookId }: { bookId: string }) => ({ bookId }), http.get) }),
 *     },
 *   },
 * );
 * ```
 *
 * @throws {TypeError} when `children` is not a plain object, a child is not a
 * node or has an unusable name, the fallback lacks a name or subtree, its name
 * collides with a static child, or the tags contradict each other.
 */
export function api<
  C extends Readonly<Record<string, Node>>,
  const F extends Fallback | undefined = undefined,
>(children: C, opts?: ApiOptions<F>): Branch<C, F> {
  if (!isPlainObject(children)) {
    throw new TypeError(
      `api(): children must be an object of name to node, got ${kindOf(children)}`,
    );
  }
  for (const name of Object.keys(children)) {
    checkSegmentName(name, `api(): child "${name}"`);
    if (!isNode(children[name])) {
      throw new TypeError(
        `api(): child "${name}" is not a node (got ${
          kindOf(children[name])
        }); build it with op() or api()`,
      );
    }
    checkInputShape(children[name], `api(): child "${name}"`);
  }
  if (opts !== undefined && !isPlainObject(opts)) {
    throw new TypeError(`api(): options must be an object, got ${kindOf(opts)}`);
  }
  const fallback = opts?.fallback as Fallback | undefined;
  if (fallback !== undefined) checkFallback(fallback, children);
  const meta = opts?.meta;
  if (meta !== undefined) {
    if (!isPlainObject(meta)) {
      throw new TypeError(`api(): meta must be an object, got ${kindOf(meta)}`);
    }
    checkMeta(meta, "api()");
  }
  const branch = freezeNode({
    children: Object.freeze({ ...children }),
    ...(meta === undefined ? {} : { meta }),
    ...(fallback === undefined ? {} : {
      fallback: Object.freeze({ name: fallback.name, subtree: fallback.subtree }),
    }),
  }) as Branch<C, F>;
  // A subtree's scopes go onto its leaves, so each leaf holds the union along its path.
  const scopes = meta?.scopes as readonly string[] | undefined;
  return scopes === undefined || scopes.length === 0 ? branch : withScopes(branch, scopes);
}

function checkFallback(
  fallback: unknown,
  children: Readonly<Record<string, Node>>,
): asserts fallback is Fallback {
  if (!isPlainObject(fallback)) {
    throw new TypeError(
      `api(): fallback must be an object { name, subtree }, got ${kindOf(fallback)}`,
    );
  }
  const { name, subtree } = fallback;
  if (typeof name !== "string" || name === "") {
    throw new TypeError("api(): fallback needs a non-empty string name");
  }
  checkSegmentName(name, `api(): fallback "${name}"`);
  if (!isNode(subtree)) {
    throw new TypeError(
      `api(): fallback "${name}" needs a subtree node, got ${kindOf(subtree)}`,
    );
  }
  if (Object.hasOwn(children, name)) {
    throw new TypeError(
      `api(): fallback name "${name}" collides with the static child "${name}"`,
    );
  }
  checkInputShape(subtree, `api(): fallback "${name}" subtree`);
}

// A name becomes a path segment, an argument or a field: it must survive all.
const RESERVED_IN_NAMES = /[/?#{}\s]/;

function checkSegmentName(name: string, place: string) {
  if (name === "" || RESERVED_IN_NAMES.test(name) || name === "." || name === "..") {
    throw new TypeError(
      `${place}: a name must be non-empty, not "." or "..", and hold no "/", "?", "#", "{", "}" or white space`,
    );
  }
}

function checkMeta(meta: Meta, place: string) {
  const conflict = tagConflict(meta.tags);
  if (conflict !== undefined) {
    throw new TypeError(`${place}: contradicting tags: ${conflict}`);
  }
  const errors = errorsProblem(meta.errors, isStandardSchema);
  if (errors !== undefined) throw new TypeError(`${place}: ${errors}`);
  const scopes = scopesProblem(meta.scopes);
  if (scopes !== undefined) throw new TypeError(`${place}: ${scopes}`);
  if (meta.use !== undefined) {
    if (!Array.isArray(meta.use) || meta.use.some((entry) => typeof entry !== "function")) {
      throw new TypeError(`${place}: meta.use must be a list of middleware functions`);
    }
  }
  for (const key of ["input", "output"] as const) {
    const schema: unknown = meta[key];
    if (schema !== undefined && !isStandardSchema(schema)) {
      throw new TypeError(
        `${place}: meta.${key} must be a Standard Schema (zod, valibot, arktype, ...), got ${
          kindOf(schema)
        }`,
      );
    }
  }
}

/** Middleware of every `use()` contribution, in order (`mergeMeta` alone would keep the last). */
function withFoldedMiddleware(meta: Meta, contributions: ReadonlyArray<Meta | undefined>): Meta {
  const lists = contributions.filter((contribution) => contribution?.use !== undefined);
  if (lists.length < 2) return meta;
  return { ...meta, use: lists.flatMap((contribution) => contribution?.use ?? []) };
}

function checkInputShape(node: Node, place: string) {
  const input = node.meta?.input;
  if (typeof node.handler !== "function" || !isStandardSchema(input)) return;
  const problem = inputShapeProblem(input);
  if (problem !== undefined) throw new TypeError(`${place}: ${problem}`);
}

function withFoldedDirectives(
  meta: Meta,
  contributions: ReadonlyArray<Meta | undefined>,
): Meta {
  const byKind = new Map<HttpDirective["kind"], HttpDirective>();
  for (const contribution of contributions) {
    for (const directive of contribution?.http?.directives ?? []) {
      byKind.set(directive.kind, directive);
    }
  }
  if (byKind.size === 0) return meta;
  return { ...meta, http: { ...meta.http, directives: [...byKind.values()] } };
}

/** Freezes a node over copies of its meta's plain objects; schemas stay untouched. */
function freezeNode<T extends Node>(node: T): T {
  if (node.meta === undefined) return Object.freeze(node);
  return Object.freeze({ ...node, meta: frozenCopy(node.meta) });
}

function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, frozenCopy(value[key]));
  return Object.freeze(copy) as T;
}
