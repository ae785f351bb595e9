/**
 * Contract-first: a tree whose leaves are made with `op.contract()` describes
 * the API without implementing it. Every projection that needs no handler
 * reads it (the OpenAPI document, the SDL, tool descriptions, the client
 * manifest, typed clients, CLI help); `implement(contract, handlers)` gives its
 * leaves their handlers, type-checked against the leaves' schemas, and returns
 * the tree the servers take. Servers refuse a tree that still has a contract
 * leaf, naming it.
 *
 * @example
 * ```ts
 * import { api, implement, op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const Book = z.object({ id: z.string(), title: z.string() });
 * const contract = api({
 *   add: op.contract({ input: z.object({ title: z.string() }), output: Book }),
 * });
 * const tree = implement(contract, { add: ({ title }) => ({ id: "1", title }) });
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ErrorDeclarations } from "./errors.ts";
import type { Branch, Fallback, Handler, Leaf, Node, Produces } from "./node.ts";
import { leavesOf } from "./leaves.ts";
import { isPlainObject, kindOf } from "./plain_data.ts";
import { datePathsOf, toJsonSchema } from "./schema.ts";
import { reviveDates } from "./dates.ts";
import { exampleOf } from "./_example.ts";

/**
 * The handler a contract leaf holds until it is implemented: calling it throws
 * a `TypeError`. It carries `"~contract": true`, by which servers and
 * {@linkcode implement} recognise it.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import type { Unimplemented } from "@ramify/api/tree";
 *
 * const placeholder: Unimplemented = op.contract().handler;
 * console.log(placeholder["~contract"]); // true
 * ```
 */
export type Unimplemented = Handler<never, unknown> & { readonly "~contract": true };

/**
 * A leaf of a contract: a {@linkcode Leaf} typed by its schemas whose handler
 * is {@linkcode Unimplemented}. Made by `op.contract()`.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import type { ContractLeaf } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const count: ContractLeaf<Record<string, unknown>, number> = op.contract({ output: z.number() });
 * ```
 */
export type ContractLeaf<
  I = Record<string, unknown>,
  O = unknown,
  W = I,
  S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
  E extends ErrorDeclarations = Record<never, never>,
> = Leaf<I, O, W, S, E> & { readonly handler: Unimplemented };

/**
 * What a contract leaf promises to its callers: its output schema's input type
 * (which the schema then parses), or `unknown` without an output schema.
 *
 * @example
 * ```ts
 * import type { ContractOutput } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const n: ContractOutput<z.ZodNumber> = 3;
 * ```
 */
export type ContractOutput<S> = [S] extends [StandardSchemaV1<infer In, infer _Out>] ? In
  : unknown;

/**
 * The handlers a contract needs, mirroring its tree: a function per contract
 * leaf, typed by the leaf's input and output schemas, under its child name or
 * its fallback's capture name. Leaves that already have a handler take none.
 *
 * @example
 * ```ts
 * import { api, op, type HandlersOf } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const contract = api({ count: op.contract({ output: z.number() }) });
 * const handlers: HandlersOf<typeof contract> = { count: () => 3 };
 * ```
 */
export type HandlersOf<N> = N extends { readonly handler: Unimplemented } ? HandlerOf<N>
  : N extends Branch<infer C, infer F> ? NonEmpty<
      & {
        readonly [K in keyof C as [HandlersOf<C[K]>] extends [never] ? never : K]: HandlersOf<C[K]>;
      }
      & FallbackHandlers<F>
    >
  : never;

type HandlerOf<L> = L extends Leaf<infer I, infer _O, infer _W, infer S> ? Handler<I, Produces<S>>
  : never;

type FallbackHandlers<F> = F extends Fallback<infer Name, infer Sub>
  ? [HandlersOf<Sub>] extends [never] ? Record<never, never>
  : { readonly [K in Name]: HandlersOf<Sub> }
  : Record<never, never>;

type NonEmpty<T> = [keyof T] extends [never] ? never : { [K in keyof T]: T[K] };

/**
 * The tree {@linkcode implement} returns: the contract's tree, each contract
 * leaf now a plain {@linkcode Leaf} of the same types.
 *
 * @example
 * ```ts
 * import { api, op, type Implemented } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const contract = api({ count: op.contract({ output: z.number() }) });
 * type Tree = Implemented<typeof contract>;
 * ```
 */
export type Implemented<N> = N extends { readonly handler: Unimplemented }
  ? N extends Leaf<infer I, infer O, infer W, infer S, infer E> ? Leaf<I, O, W, S, E> : never
  : N extends Branch<infer C, infer F> ? Branch<
      { readonly [K in keyof C]: Implemented<C[K]> },
      F extends Fallback<infer Name, infer Sub> ? Fallback<Name, Implemented<Sub>> : F
    >
  : N;

/**
 * A new placeholder handler for a contract leaf (what `op.contract()` holds):
 * it throws a `TypeError` when called.
 *
 * @example
 * ```ts
 * import { unimplemented } from "@ramify/api/tree";
 *
 * console.log(unimplemented()["~contract"]); // true
 * ```
 */
export function unimplemented(): Unimplemented {
  // Anonymous on purpose: op() names a leaf by its handler's name.
  return Object.defineProperty(
    () => {
      throw new TypeError(
        "a contract leaf has no handler; implement(contract, handlers) gives it one",
      );
    },
    "~contract",
    { value: true, enumerable: true },
  ) as unknown as Unimplemented;
}

/**
 * Whether a node is a contract leaf, that is, holds an {@linkcode Unimplemented}
 * handler.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { isContractLeaf } from "@ramify/api/tree/catalogue";
 *
 * console.log(isContractLeaf(op.contract()), isContractLeaf(op(() => 1))); // true false
 * ```
 */
export function isContractLeaf(node: Node): boolean {
  const handler = node.handler as { readonly "~contract"?: unknown } | undefined;
  return typeof handler === "function" && handler["~contract"] === true;
}

/**
 * Fails when a tree still has a contract leaf, naming the first one: what the
 * servers call before they take a tree.
 *
 * @example
 * ```ts
 * import { api, assertImplemented, op } from "@ramify/api/tree";
 *
 * assertImplemented(api({ ping: op(() => "pong") }), "createFetch");
 * ```
 *
 * @throws {TypeError} naming `place` and the leaf, when a leaf is not implemented.
 */
export function assertImplemented(tree: Node, place: string): void {
  const open = leavesOf(tree).find((entry) => isContractLeaf(entry.leaf));
  if (open === undefined) return;
  throw new TypeError(
    `${place}: the leaf ${open.label} is a contract without a handler; ` +
      "serve implement(contract, handlers) instead",
  );
}

/**
 * Gives a contract's leaves their handlers: `handlers` mirrors the tree (a
 * function per contract leaf, under its child name or its fallback's capture
 * name), each typed by the leaf's input and output schemas. Returns the tree
 * `op(handler, meta)` and `api()` would have built, with the same meta.
 * Leaves that already have a handler are kept as they are.
 *
 * @example
 * ```ts
 * import { api, implement, op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const Book = z.object({ bookId: z.string(), title: z.string() });
 * const contract = api({}, {
 *   fallback: {
 *     name: "bookId",
 *     subtree: api({ read: op.contract({ input: z.object({ bookId: z.string() }), output: Book }) }),
 *   },
 * });
 * const tree = implement(contract, {
 *   bookId: { read: ({ bookId }) => ({ bookId, title: "Dune" }) },
 * });
 * ```
 *
 * @throws {TypeError} when a contract leaf has no handler function, or
 * `handlers` names something the contract does not need.
 */
export function implement<const T extends Node>(
  contract: T,
  handlers: NoInfer<HandlersOf<T>>,
): Implemented<T> {
  return build(contract, handlers, "(root)") as Implemented<T>;
}

/**
 * A contract implemented by answers made from its output schemas: each
 * contract leaf returns the schema's first example, default or constant, else
 * the smallest value of its type within its bounds (dates as `Date`s, where
 * the schema takes them). A leaf without an output schema returns nothing.
 * For a front end or another team to build against before the server exists.
 *
 * @example
 * ```ts
 * import { api, mock, op } from "@ramify/api/tree";
 * import { createFetch } from "@ramify/api/http";
 * import { http } from "@ramify/api/http/verbs";
 * import { z } from "zod";
 *
 * const contract = api({ count: op.contract(http.get, { output: z.number().int().min(1) }) });
 * const response = await createFetch(mock(contract))(new Request("http://localhost/count"));
 * console.log(await response.json()); // 1
 * ```
 *
 * @throws {TypeError} when an output schema has no JSON Schema form.
 */
export function mock<const T extends Node>(contract: T): Implemented<T> {
  return build(contract, mockHandlers(contract), "(root)") as Implemented<T>;
}

function mockHandlers(node: Node): unknown {
  if (isContractLeaf(node)) {
    const output = node.meta?.output;
    if (output === undefined) return () => undefined;
    const schema = toJsonSchema(output, "input");
    const dates = datePathsOf(output, "input");
    // A fresh value per call: a caller may change what it receives.
    return () => reviveDates(exampleOf(schema ?? {}), dates);
  }
  const handlers: Record<string, unknown> = {};
  const edges = Object.entries(node.children ?? {});
  if (node.fallback !== undefined) edges.push([node.fallback.name, node.fallback.subtree]);
  for (const [name, child] of edges) {
    const below = mockHandlers(child);
    if (below !== undefined) handlers[name] = below;
  }
  return Object.keys(handlers).length === 0 ? undefined : handlers;
}

function build(node: Node, handlers: unknown, label: string): Node {
  if (isContractLeaf(node)) {
    if (typeof handlers !== "function") {
      throw new TypeError(
        `implement(): the leaf ${label} needs a handler function, got ${kindOf(handlers)}`,
      );
    }
    return Object.freeze({ ...node, handler: handlers as Handler });
  }
  if (node.children === undefined && node.fallback === undefined) {
    if (handlers !== undefined) {
      throw new TypeError(`implement(): ${label} is implemented already; give it no handler`);
    }
    return node;
  }
  if (handlers !== undefined && !isPlainObject(handlers)) {
    throw new TypeError(
      `implement(): the handlers of ${label} must be an object, got ${kindOf(handlers)}`,
    );
  }
  const given: Record<string, unknown> = handlers ?? {};
  const known = new Set(Object.keys(node.children ?? {}));
  if (node.fallback !== undefined) known.add(node.fallback.name);
  const extra = Object.keys(given).find((name) => !known.has(name));
  if (extra !== undefined) {
    throw new TypeError(`implement(): ${labelIn(label, extra)} is not in the contract`);
  }
  const children: Record<string, Node> = {};
  for (const [name, child] of Object.entries(node.children ?? {})) {
    children[name] = build(child, given[name], labelIn(label, name));
  }
  const fallback = node.fallback;
  return Object.freeze({
    ...node,
    ...(node.children === undefined ? {} : { children: Object.freeze(children) }),
    ...(fallback === undefined ? {} : {
      fallback: Object.freeze({
        name: fallback.name,
        subtree: build(
          fallback.subtree,
          given[fallback.name],
          labelIn(label, `{${fallback.name}}`),
        ),
      }),
    }),
  });
}

function labelIn(label: string, name: string): string {
  return label === "(root)" ? name : `${label}/${name}`;
}
