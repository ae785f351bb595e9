/**
 * The catalogue: a tree described once, for every surface. Each leaf's entry
 * holds what a projection reads of it — where it sits (steps, names,
 * captures, label), what it takes (its input mode), its tags with their
 * implications, its input and output JSON Schemas, whether it needs a
 * confirmation, the errors it declares, and its one prepared call — each
 * worked out when first read and kept. `catalogueOf(tree)` is made once per
 * tree: surfaces that ask again get the same entries.
 *
 * Read by the surfaces; public at `@ramify/api/tree/catalogue` for servers
 * and projections of your own, not at `./tree` (what authors write).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { catalogueOf } from "./catalogue.ts";
 *
 * const tree = api({ books: api({ list: op(() => [], { tags: { readOnly: true } }) }) });
 * const [list] = catalogueOf(tree).entries;
 * console.log(list.label, list.tags.idempotent, list.input); // "books/list" true "open"
 * ```
 *
 * @module
 */

import type { Leaf, Node, Tags, TreeStep } from "./node.ts";
import { type InputMode, type LeafEntry, leavesOf } from "./leaves.ts";
import { tagsOf } from "./tags.ts";
import { datePathsOf, type JsonSchema, toJsonSchema } from "./schema.ts";
import type { DatePath } from "./dates.ts";
import { createCall, type LeafCall } from "./call.ts";
import type { ErrorDeclarations } from "./errors.ts";
import { needsConfirmation } from "./interaction.ts";
import { type StringPlan, stringPlanOf } from "./string_plan.ts";
import { declaredBytes } from "./bytes.ts";
import { type Invalidates, invalidatesOf } from "./invalidation.ts";
import { scopesOf } from "./scopes.ts";

/**
 * One leaf as every surface sees it.
 *
 * @example
 * ```ts
 * import type { CatalogueEntry } from "./catalogue.ts";
 *
 * const describe = (entry: CatalogueEntry) => `${entry.label}: ${entry.input}`;
 * ```
 */
export interface CatalogueEntry extends LeafEntry {
  /** Its own tags, implications applied (`readOnly` gives `idempotent`). */
  readonly tags: Tags;
  /**
   * Its input schema's JSON Schema (2020-12): none without an input schema,
   * or when its library gives none. Reading it throws a TypeError when the
   * library fails to convert the schema.
   */
  readonly inputSchema: JsonSchema | undefined;
  /** Its output schema's JSON Schema, as `inputSchema` is read. */
  readonly outputSchema: JsonSchema | undefined;
  /**
   * How text becomes its input (a query, form fields, command-line flags):
   * each property of its input schema by type; none without properties.
   * Read as `inputSchema` is.
   */
  readonly strings: StringPlan | undefined;
  /** Where its output's dates sit, for a client to revive (`[]` for none). */
  readonly dates: readonly DatePath[];
  /** What its output schema declares of a binary result (the media types), if it is one. */
  readonly bytes: { readonly types: readonly string[] } | undefined;
  /** The reads a call of it makes stale, as the clients' caches drop them. */
  readonly invalidates: Invalidates | undefined;
  /**
   * The OAuth scopes it declares, its subtrees' included (`meta.scopes`), or
   * `undefined` when it declares none and its guard's defaults decide.
   */
  readonly scopes: readonly string[] | undefined;
  /** Whether a caller must confirm a call first (tag `destructive`). */
  readonly confirms: boolean;
  /**
   * Whether a call of it is a task with a durable handle (tag `longRunning`):
   * every surface starts it through `@ramify/api/tasks` and answers the handle.
   */
  readonly longRunning: boolean;
  /** The errors it declares, by code (none: `{}`). */
  readonly errors: ErrorDeclarations;
  /** Its prepared call, a `reply()` unwrapped (every surface but HTTP). */
  readonly call: LeafCall;
  /**
   * The same prepared call with a `reply()` kept whole, for HTTP, which sends
   * its status, headers and cookies (one preparation serves both).
   */
  readonly replyCall: LeafCall;
  /**
   * Its prepared call for other names of its captures (a route moved onto
   * its own, `http.moveTo("*id")`), a `reply()` kept with `"keep"`: the
   * catalogue's own where the names are its captures.
   */
  callWith(captures: readonly string[], replies?: "keep"): LeafCall;
}

/**
 * A tree's catalogue: its leaves in tree order, and each by its steps.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { catalogueOf } from "./catalogue.ts";
 *
 * const catalogue = catalogueOf(api({ ping: op(() => "pong") }));
 * console.log(catalogue.at([{ kind: "child", name: "ping" }])?.label); // "ping"
 * ```
 */
export interface Catalogue {
  /** Every leaf, in tree order (a node's own handler, its children, its fallback). */
  readonly entries: readonly CatalogueEntry[];
  /** The leaf the steps lead to, if any. */
  at(steps: readonly TreeStep[]): CatalogueEntry | undefined;
}

const catalogues = new WeakMap<Node, Catalogue>();

/**
 * The catalogue of a tree, made on first ask and kept with the tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { catalogueOf } from "./catalogue.ts";
 *
 * const tree = api({ ping: op(() => "pong") });
 * console.log(catalogueOf(tree) === catalogueOf(tree)); // true
 * ```
 */
export function catalogueOf(tree: Node): Catalogue {
  let catalogue = catalogues.get(tree);
  if (catalogue === undefined) {
    const entries = leavesOf(tree).map((entry) => new Entry(entry));
    // Made on the first look-up: a surface that only walks the entries pays nothing for it.
    let bySteps: Map<string, CatalogueEntry> | undefined;
    const at = (steps: readonly TreeStep[]) => {
      bySteps ??= new Map(entries.map((entry) => [keyOf(entry.steps), entry]));
      return bySteps.get(keyOf(steps));
    };
    catalogue = { entries, at };
    catalogues.set(tree, catalogue);
  }
  return catalogue;
}

// Steps as a key: a child named "{id}" and a fallback named "id" stay apart.
function keyOf(steps: readonly TreeStep[]): string {
  return JSON.stringify(steps.map((step) => [step.kind, step.name]));
}

const UNSET = Symbol("unset");

/** An entry whose every derived field is worked out when first read, once. */
class Entry implements CatalogueEntry {
  readonly #at: LeafEntry;
  #inputSchema: JsonSchema | undefined | typeof UNSET = UNSET;
  #outputSchema: JsonSchema | undefined | typeof UNSET = UNSET;
  #strings: StringPlan | undefined | typeof UNSET = UNSET;
  #call: LeafCall | undefined;
  #replyCall: LeafCall | undefined;

  constructor(at: LeafEntry) {
    this.#at = at;
  }

  get leaf(): Leaf<never, unknown> {
    return this.#at.leaf;
  }
  get steps(): readonly TreeStep[] {
    return this.#at.steps;
  }
  get names(): readonly string[] {
    return this.#at.names;
  }
  get captures(): readonly string[] {
    return this.#at.captures;
  }
  get label(): string {
    return this.#at.label;
  }
  get input(): InputMode {
    return this.#at.input;
  }
  get tags(): Tags {
    return tagsOf(this.leaf);
  }
  get inputSchema(): JsonSchema | undefined {
    if (this.#inputSchema === UNSET) this.#inputSchema = schemaOf(this.leaf, "input");
    return this.#inputSchema;
  }
  get outputSchema(): JsonSchema | undefined {
    if (this.#outputSchema === UNSET) this.#outputSchema = schemaOf(this.leaf, "output");
    return this.#outputSchema;
  }
  get strings(): StringPlan | undefined {
    if (this.#strings === UNSET) this.#strings = stringPlanOf(this.inputSchema);
    return this.#strings;
  }
  get dates(): readonly DatePath[] {
    const output = this.leaf.meta?.output;
    return output === undefined ? [] : datePathsOf(output, "output");
  }
  get bytes(): { readonly types: readonly string[] } | undefined {
    try {
      return declaredBytes(this.outputSchema);
    } catch {
      return undefined;
    }
  }
  get invalidates(): Invalidates | undefined {
    return invalidatesOf(this.leaf).invalidates;
  }
  get scopes(): readonly string[] | undefined {
    return scopesOf(this.leaf);
  }
  get confirms(): boolean {
    return needsConfirmation(this.leaf);
  }
  get longRunning(): boolean {
    return this.tags.longRunning === true;
  }
  get errors(): ErrorDeclarations {
    return this.leaf.meta.errors ?? NO_ERRORS;
  }
  get call(): LeafCall {
    return this.#call ??= createCall(this.leaf, { captures: this.captures });
  }
  get replyCall(): LeafCall {
    return this.#replyCall ??= createCall(this.leaf, { captures: this.captures, replies: "keep" });
  }
  callWith(captures: readonly string[], replies?: "keep"): LeafCall {
    const same = captures.length === this.captures.length &&
      captures.every((name, i) => name === this.captures[i]);
    if (same) return replies === "keep" ? this.replyCall : this.call;
    return createCall(this.leaf, replies === "keep" ? { captures, replies } : { captures });
  }
}

const NO_ERRORS: ErrorDeclarations = Object.freeze({});

function schemaOf(leaf: Node, side: "input" | "output"): JsonSchema | undefined {
  const schema = leaf.meta?.[side];
  return schema === undefined ? undefined : toJsonSchema(schema, side);
}
