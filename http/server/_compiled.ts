/**
 * The router's per-route state: what a route's requests need from its
 * operation. What can fail is checked when the router is built (a bad success
 * status, a bad `idempotencyKey`); the leaf's call path and the coercion plan
 * of its query and forms are made by the first request that needs them, so a
 * start pays for the routes it serves, not for every route of the tree.
 *
 * Internal: used by the router alone.
 *
 * @module
 */

import { isVoidSchema } from "../../tree/schema.ts";
import type { HttpVerb, Node } from "../../tree/node.ts";
import type { LeafCall } from "../../tree/call.ts";
import { takesNothing } from "../../tree/leaves.ts";
import type { HttpOperation, HttpRoute, ResponseKind } from "../../route/route.ts";
import { mediaTypeOf } from "../../web/bytes.ts";
import type { PatternSegment, RouteDefinition } from "./matchers/types.ts";
import { encodeSegment } from "../../route/path.ts";
import { type CoercionPlan, coercionPlan } from "../../web/coerce.ts";
import { idempotencyKeyOf } from "./idempotency.ts";
import type { TaskLeaf } from "../../tasks/runtime.ts";

const BODYLESS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The first path segment of the status resources of tasks (`/.tasks/{id}`):
 * it starts with a dot, so that no route of a tree with a long-running leaf
 * may take it (the router refuses one that does).
 */
export const TASKS_SEGMENT = ".tasks";

/** The input key a resumed stream's `Last-Event-ID` goes to. */
export const LAST_EVENT_ID = "lastEventId";

/**
 * One operation as the router answers it. Its call path is made by its first
 * call, its coercion plan when first read: the hot path reads fields, as it
 * would of a route prepared at start, and checks no flag.
 */
export class Compiled {
  readonly operation: HttpOperation;
  /** The success status of a value: `meta.http.status`, else 200. */
  readonly status: number;
  readonly keyed: ReturnType<typeof idempotencyKeyOf>;
  /** Whether it reads its callers' input: every leaf but one that takes nothing (`takesNothing`). */
  readonly takesInput: boolean;
  /** Whether its input is read from the body (it takes input, and a verb with a body). */
  readonly readsBody: boolean;
  /** Whether a body it never reads is still checked for a form from another site. */
  readonly guardsForms: boolean;
  readonly response: ResponseKind;
  /** A stream whose input takes `lastEventId`, so a client can resume it. */
  readonly resumable: boolean;
  /** The one media type the output schema names for bytes, for bytes without their own. */
  readonly mediaType: string | undefined;
  call: LeafCall;
  #plan: CoercionPlan | undefined | null = null;

  constructor(operation: HttpOperation, captures: readonly string[], starter?: Starter) {
    const method: HttpVerb = operation.method;
    this.operation = operation;
    this.status = successStatus(operation);
    this.keyed = idempotencyKeyOf(operation);
    const takesInput = !takesNothing(operation.node);
    this.takesInput = takesInput;
    this.readsBody = takesInput && !BODYLESS.has(method);
    this.guardsForms = !takesInput && !BODYLESS.has(method);
    this.response = operation.response;
    this.resumable = operation.response === "event-stream" && acceptsLastEventId(operation);
    this.mediaType = mediaTypeOf(operation);
    this.call = (input, context) => {
      this.call = callOf(operation, captures);
      return this.call(input, context);
    };
    // Decided here, once: a long-running leaf's route starts a task and
    // answers its handle (a `Response`, sent as it is); other routes pay nothing.
    if (starter !== undefined && operation.entry.longRunning) {
      this.call = starter(taskLeafOf(operation, captures), this.status, operation.node);
    }
  }

  /** How a form's and the query's strings are coerced, as the input schema asks (none: strings). */
  get plan(): CoercionPlan | undefined {
    if (this.#plan === null) {
      this.#plan = this.operation.entry.input === "schema" ? planFor(this.operation) : undefined;
    }
    return this.#plan;
  }
}

/**
 * The operations at one path, by method, with the captures of the path and
 * what `Allow` lists there.
 */
export interface Slot {
  readonly methods: Readonly<Partial<Record<string, Compiled>>>;
  readonly params: readonly string[];
  readonly allow: string;
}

/**
 * Makes the call of a long-running leaf's route from the leaf's task call and
 * its success status (the router's task routes, `_tasks.ts`).
 */
export type Starter = (leaf: TaskLeaf, status: number, node: Node) => LeafCall;

/**
 * Every position with operations, as matcher definitions of slots; a
 * long-running leaf's call made by `starter`.
 */
export function definitionsOf(route: HttpRoute, starter?: Starter): RouteDefinition<Slot>[] {
  const definitions: RouteDefinition<Slot>[] = [];
  const walk = (position: HttpRoute, segments: PatternSegment[], params: string[]) => {
    const slot = slotOf(position.methods, params, starter);
    if (slot !== undefined) definitions.push({ segments, value: slot });
    for (const name of Object.keys(position.children)) {
      const child = position.children[name];
      walk(child, [...segments, { kind: "static", value: encodeSegment(name) }], params);
    }
    if (position.param !== undefined) {
      const { name, route: child } = position.param;
      walk(child, [...segments, { kind: "param", name }], [...params, name]);
    }
  };
  walk(route, [], []);
  return definitions;
}

function slotOf(
  operations: HttpRoute["methods"],
  params: readonly string[],
  starter: Starter | undefined,
): Slot | undefined {
  // Null prototype: a request method such as "constructor" must find nothing.
  let methods: Partial<Record<string, Compiled>> | undefined;
  let allow = "";
  let get = false;
  for (const verb of Object.keys(operations)) {
    const operation = operations[verb as HttpVerb];
    if (operation === undefined) continue;
    methods ??= Object.create(null) as Partial<Record<string, Compiled>>;
    methods[operation.method] = new Compiled(operation, params, starter);
    allow += `${operation.method}, `;
    // A HEAD of a long-running GET would start a task whose handle no one reads.
    if (operation.method === "GET" && !operation.entry.longRunning) get = true;
  }
  if (methods === undefined) return undefined;
  return { methods, params, allow: `${allow}${get ? "HEAD, " : ""}OPTIONS` };
}

/**
 * The declared success status, checked when the router is built. A result of
 * nothing answers it without a body, or 204 where none is declared (see
 * `valueResponse`), as the document says.
 */
function successStatus(operation: HttpOperation): number {
  const status = operation.node.meta?.http?.status;
  if (status === undefined) return 200;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 299) {
    throw new TypeError(
      `${operation.method} ${operation.path}: meta.http.status must be an integer from 200 to 299, got ${
        String(status)
      }`,
    );
  }
  const output = operation.node.meta?.output;
  if (status === 204 && output !== undefined && !isVoidSchema(output)) {
    throw new TypeError(
      `${operation.method} ${operation.path}: meta.http.status 204 sends no content, but the output schema holds a value; declare another status or output: z.void()`,
    );
  }
  return status;
}

/**
 * The leaf's call with a `reply()` kept: the catalogue's, prepared once for
 * every surface, where the path binds the captures the tree gives the leaf;
 * one for the path's own where a move changed them (`http.moveTo("*id")`).
 */
function callOf(operation: HttpOperation, captures: readonly string[]): LeafCall {
  return operation.entry.callWith(captures, "keep");
}

/**
 * What a task of a long-running leaf runs: the catalogue's prepared call with
 * a `reply()` unwrapped (a task keeps JSON data), or one for the path's own
 * captures where a move changed them.
 */
function taskLeafOf(operation: HttpOperation, captures: readonly string[]): TaskLeaf {
  const { entry } = operation;
  return { label: entry.label, call: entry.callWith(captures) };
}

/** A stream resumes only where its input schema names `lastEventId`: others start over. */
function acceptsLastEventId(operation: HttpOperation): boolean {
  if (operation.entry.input === "open") return false;
  try {
    const properties = operation.entry.inputSchema?.properties;
    return typeof properties === "object" && properties !== null &&
      Object.hasOwn(properties, LAST_EVENT_ID);
  } catch {
    return false;
  }
}

function planFor(operation: HttpOperation): CoercionPlan | undefined {
  try {
    return coercionPlan(operation.entry.strings);
  } catch {
    // A schema without a JSON Schema form still validates; its query stays strings.
    return undefined;
  }
}
