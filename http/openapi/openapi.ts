/**
 * OpenAPI 3.1 from the tree: `toOpenApi(node, opts?)` and
 * `toOpenApiFromRoute(route, opts?)` describe every route the routers serve,
 * from the same `HttpRoute`, so the document and the server cannot disagree.
 *
 * @example
 * ```ts
 * import { api, op, toOpenApi } from "@ramify/api";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const doc = await toOpenApi(api({ ping: op(() => "pong", http.get) }), {
 *   title: "Ping",
 *   version: "1.0.0",
 * });
 * console.log(Object.keys(doc.paths)); // ["/ping"]
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import type { JsonSchema } from "../../tree/schema.ts";
import { httpProjection } from "../../route/projection.ts";
import { type HttpOperation, type HttpRoute, listOperations } from "../../route/route.ts";
import { ComponentRegistry } from "./_components.ts";
import { addTaskPaths } from "./_tasks.ts";
import { ResponseTables } from "./_shared.ts";
import { securityOf } from "../../tree/middleware.ts";
import {
  capitalize,
  describeOperation,
  type OpenApiOperation,
  PROBLEM_SCHEMA,
  VALIDATION_PROBLEM_SCHEMA,
} from "./_operation.ts";

export type { OpenApiOperation } from "./_operation.ts";

/**
 * Options of {@linkcode toOpenApi} and {@linkcode toOpenApiFromRoute}.
 *
 * @example
 * ```ts
 * import type { OpenApiOptions } from "@ramify/api/http";
 *
 * const opts: OpenApiOptions = {
 *   title: "Bookstore",
 *   version: "1.2.0",
 *   servers: [{ url: "https://api.example.com" }],
 * };
 * ```
 */
export interface OpenApiOptions {
  /** `info.title`. Default `"API"`. */
  readonly title?: string;
  /** `info.version`, the version of the described API. Default `"0.0.0"`. */
  readonly version?: string;
  /** `info.summary`. */
  readonly summary?: string;
  /** `info.description` (CommonMark). */
  readonly description?: string;
  /** `info.termsOfService`, a URL. */
  readonly termsOfService?: string;
  /** `info.contact`. */
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  /**
   * `info.license`, by SPDX `identifier` or `url`. Default none: the API's
   * license is its author's to say (linters such as Redocly's `info-license`
   * warn while it is missing).
   */
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
  /** `servers`. Default: one server at `/`. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  /** `components.securitySchemes`. */
  readonly securitySchemes?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Descriptions of operation groups (tags), by name; listed in first-use order. */
  readonly tags?: Readonly<Record<string, string>>;
  /** The document-wide `security`. Default `[]`: no authentication is declared. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

/**
 * An OpenAPI 3.1 document (the parts this library writes are typed; the rest
 * stays open).
 *
 * @example
 * ```ts
 * import type { OpenApiDocument } from "@ramify/api/http";
 *
 * const doc: OpenApiDocument = {
 *   openapi: "3.1.0",
 *   info: { title: "API", version: "1.0.0" },
 *   servers: [{ url: "/" }],
 *   security: [],
 *   paths: {},
 *   components: { schemas: {} },
 * };
 * ```
 */
export interface OpenApiDocument {
  /** The OpenAPI version, `3.1.0`. */
  readonly openapi: "3.1.0";
  /** Title, version, description and the rest of `info`. */
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly summary?: string;
    readonly description?: string;
    readonly termsOfService?: string;
    readonly contact?: OpenApiOptions["contact"];
    readonly license?: OpenApiOptions["license"];
  };
  /** Where the API is served. */
  readonly servers: readonly { readonly url: string; readonly description?: string }[];
  /** The document-wide security requirements. */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** Operation groups, in first-use order. */
  readonly tags?: readonly { readonly name: string; readonly description: string }[];
  /** Path templates to lowercase verbs to operations. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  /** Shared schemas (and security schemes when given). */
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes?: OpenApiOptions["securitySchemes"];
  };
}

/**
 * The OpenAPI 3.1 document of a tree. Built once per tree and options; later
 * calls return the same document.
 *
 * @example
 * ```ts
 * import { api, op, toOpenApi } from "@ramify/api";
 *
 * const doc = await toOpenApi(api({ add: op(() => 1) }), { version: "2.0.0" });
 * console.log(doc.info.version); // "2.0.0"
 * ```
 */
export function toOpenApi(node: Node, opts?: OpenApiOptions): Promise<OpenApiDocument> {
  let route = routes.get(node);
  if (route === undefined) {
    try {
      route = httpProjection(node);
    } catch (error) {
      return Promise.reject(error);
    }
    routes.set(node, route);
  }
  return toOpenApiFromRoute(route, opts);
}

const routes = new WeakMap<Node, HttpRoute>();
const documents = new WeakMap<HttpRoute, Map<string, Promise<OpenApiDocument>>>();

/**
 * The OpenAPI 3.1 document of a route tree. Deterministic: the same route and
 * options give the same bytes; built once per route and options, and frozen
 * (so the cached document cannot be changed: `structuredClone` it to edit).
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { toOpenApiFromRoute } from "@ramify/api/http";
 *
 * const doc = await toOpenApiFromRoute(httpProjection(api({ add: op(() => 1) })));
 * console.log(doc.paths["/add"].post.operationId); // "add"
 * ```
 *
 * @throws {Error} when two operations claim one `operationId`, or a schema has
 * no JSON Schema form.
 */
export function toOpenApiFromRoute(
  route: HttpRoute,
  opts: OpenApiOptions = {},
): Promise<OpenApiDocument> {
  let byOptions = documents.get(route);
  if (byOptions === undefined) documents.set(route, byOptions = new Map());
  const key = JSON.stringify(opts);
  let document = byOptions.get(key);
  if (document === undefined) {
    try {
      document = Promise.resolve(deepFreeze(buildDocument(route, opts)));
    } catch (error) {
      return Promise.reject(error);
    }
    byOptions.set(key, document);
  }
  return document;
}

function buildDocument(route: HttpRoute, opts: OpenApiOptions): OpenApiDocument {
  const operations = listOperations(route);
  const ids = operationIds(operations);
  const registry = new ComponentRegistry();
  registry.define("Problem", PROBLEM_SCHEMA);
  registry.define("ValidationProblem", VALIDATION_PROBLEM_SCHEMA);
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const groups = new Set<string>();
  const tables = new ResponseTables();
  const schemes = securitySchemesOf(operations, opts.securitySchemes ?? {});
  operations.forEach((operation, index) => {
    const item = paths[operation.path] ??= {};
    const described = describeOperation(operation, ids[index], registry, tables);
    if (described.tags !== undefined) { for (const tag of described.tags) groups.add(tag); }
    item[VERBS[operation.method] ?? operation.method.toLowerCase()] = described;
  });
  addTaskPaths(paths, operations, registry);
  const info = {
    title: opts.title ?? "API",
    version: opts.version ?? "0.0.0",
    ...pick(opts, ["summary", "description", "termsOfService", "contact", "license"]),
  };
  return {
    openapi: "3.1.0",
    info,
    servers: opts.servers ?? [{ url: "/" }],
    security: opts.security ?? [],
    ...(opts.tags === undefined ? {} : {
      tags: [...groups].filter((name) => opts.tags?.[name] !== undefined).map((name) => ({
        name,
        description: opts.tags![name],
      })),
    }),
    paths,
    components: {
      schemas: registry.schemas,
      ...(Object.keys(schemes).length === 0 ? {} : { securitySchemes: schemes }),
    },
  };
}

/** The given schemes and every guard's, one name per scheme. */
function securitySchemesOf(
  operations: readonly HttpOperation[],
  given: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): Record<string, Readonly<Record<string, unknown>>> {
  const schemes: Record<string, Readonly<Record<string, unknown>>> = { ...given };
  for (const operation of operations) {
    for (const { name, scheme } of securityOf(operation.node)) {
      const known = schemes[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(scheme)) {
        throw new Error(
          `toOpenApi: two guards name the security scheme ${name} differently; give one a name of its own`,
        );
      }
      schemes[name] = scheme;
    }
  }
  return schemes;
}

/** The lowercase key of each verb, made once. */
const VERBS: Readonly<Record<string, string>> = {
  GET: "get",
  HEAD: "head",
  POST: "post",
  PUT: "put",
  PATCH: "patch",
  DELETE: "delete",
  OPTIONS: "options",
};

function deepFreeze<T>(value: T): T {
  // Parts shared between operations are frozen already: each is walked once.
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else {
    // The document is plain data: own keys only, with no array made to list them.
    for (const key in value) deepFreeze(value[key]);
  }
  return value;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<T> {
  const picked: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

/** Stable, unique ids: the tree path in camelCase, disambiguated in document order. */
function operationIds(operations: readonly HttpOperation[]): string[] {
  const taken = new Set<string>();
  const explicit = new Set<string>();
  for (const operation of operations) {
    const id = operation.node.meta?.openapi?.operationId;
    if (id === undefined) continue;
    if (explicit.has(id)) {
      throw new Error(`toOpenApi: operationId "${id}" is given to more than one operation`);
    }
    explicit.add(id);
  }
  return operations.map((operation) => {
    const override = operation.node.meta?.openapi?.operationId;
    if (override !== undefined) return override;
    const base = camelId(operation);
    let id = base;
    if (taken.has(id) || explicit.has(id)) {
      id = `${base}${capitalize(operation.method.toLowerCase())}`;
    }
    for (let n = 2; taken.has(id) || explicit.has(id); n++) id = `${base}${n}`;
    taken.add(id);
    return id;
  });
}

function camelId(operation: HttpOperation): string {
  let id = "";
  let named = false;
  for (const step of operation.steps) {
    if (step.kind !== "child") continue;
    named = true;
    // Names of letters and digits alone (most) are one word each: no split needed.
    const parts = WORD.test(step.name) ? [step.name] : step.name.split(/[^A-Za-z0-9]+/);
    for (const part of parts) {
      if (part === "") continue;
      id += id === "" ? part.charAt(0).toLowerCase() + part.slice(1) : capitalize(part);
    }
  }
  if (!named) id = "root";
  if (id === "") return "operation";
  return /^[A-Za-z_]/.test(id) ? id : `op${capitalize(id)}`;
}

const WORD = /^[A-Za-z0-9]+$/;
