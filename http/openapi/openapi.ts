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
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { isVoidSchema, type JsonSchema, toJsonSchema } from "../../tree/schema.ts";
import { tagsOf } from "../../tree/tags.ts";
import { httpProjection } from "../server/projection.ts";
import { type HttpOperation, type HttpRoute, listOperations } from "../server/route.ts";
import { ComponentRegistry } from "./_components.ts";
import { coercionPlan } from "../server/coerce.ts";

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
  /** `info.license`. */
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
 * One OpenAPI operation object.
 *
 * @example
 * ```ts
 * import type { OpenApiOperation } from "@ramify/api/http";
 *
 * const operation: OpenApiOperation = { operationId: "ping", responses: {} };
 * ```
 */
export interface OpenApiOperation {
  /** Unique across the document. */
  readonly operationId: string;
  /** One line. */
  readonly summary?: string;
  /** Longer text. */
  readonly description?: string;
  /** Groups. */
  readonly tags?: readonly string[];
  /** Marked deprecated. */
  readonly deprecated?: boolean;
  /** Path and query parameters. */
  readonly parameters?: readonly Readonly<Record<string, unknown>>[];
  /** The JSON body. */
  readonly requestBody?: Readonly<Record<string, unknown>>;
  /** By status. */
  readonly responses: Readonly<Record<string, unknown>>;
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

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" } as const;
const VALIDATION_REF = { $ref: "#/components/schemas/ValidationProblem" } as const;
/** Verbs whose input travels in the query, as `createFetch` reads it. */
const QUERY_VERBS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

function buildDocument(route: HttpRoute, opts: OpenApiOptions): OpenApiDocument {
  const operations = listOperations(route);
  const ids = operationIds(operations);
  const registry = new ComponentRegistry();
  registry.define("Problem", PROBLEM_SCHEMA);
  registry.define("ValidationProblem", VALIDATION_PROBLEM_SCHEMA);
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const groups = new Set<string>();
  operations.forEach((operation, index) => {
    const item = paths[operation.path] ??= {};
    const described = describeOperation(operation, ids[index], registry);
    for (const tag of described.tags ?? []) groups.add(tag);
    item[operation.method.toLowerCase()] = described;
  });
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
      ...(opts.securitySchemes === undefined ? {} : { securitySchemes: opts.securitySchemes }),
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
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
  const words = operation.steps.filter((s) => s.kind === "child").map((s) => s.name);
  const parts = (words.length === 0 ? ["root"] : words).flatMap((w) =>
    w.split(/[^A-Za-z0-9]+/).filter(Boolean)
  );
  const id = parts.map((p, i) => i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : capitalize(p))
    .join("");
  if (id === "") return "operation";
  return /^[A-Za-z_]/.test(id) ? id : `op${capitalize(id)}`;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function describeOperation(
  operation: HttpOperation,
  operationId: string,
  registry: ComponentRegistry,
): OpenApiOperation {
  const meta = operation.node.meta ?? {};
  const overrides = meta.openapi ?? {};
  const hint = capitalize(operationId);
  const rawInput = jsonSchemaOf(operation, "input", meta.input);
  const input = rawInput === undefined
    ? undefined
    : registry.prepare(rawInput, { owner: hint, side: "Input" }, false);
  const properties = propertiesOf(input);
  const required = new Set(Array.isArray(input?.required) ? input.required as string[] : []);
  const parameters: Record<string, unknown>[] = operation.params.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: properties[name] ?? { type: "string" },
  }));
  const rest = Object.keys(properties).filter((name) => !operation.params.includes(name));
  const carriesBody = !QUERY_VERBS.has(operation.method);
  if (!carriesBody) {
    const plan = coercionPlan(rawInput);
    for (const name of rest) {
      parameters.push(queryParameter(name, properties[name], required, plan?.get(name)?.type));
    }
  }
  const requestBody = carriesBody && (input === undefined || rest.length > 0)
    ? bodyOf(input, operation.params, required, registry, hint)
    : undefined;
  const deprecated = overrides.deprecated ??
    (tagsOf(operation.node).deprecated === true ? true : undefined);
  const group = operation.path.split("/")[1];
  const tags = overrides.tags ?? (group && !group.startsWith("{") ? [group] : undefined);
  const summary = overrides.summary ?? firstLine(meta.description) ?? summaryOf(operation);
  const description = overrides.description ?? meta.description;
  return {
    operationId,
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined || description === summary ? {} : { description }),
    ...(tags === undefined ? {} : { tags }),
    ...(deprecated === undefined ? {} : { deprecated }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: responsesOf(operation, input !== undefined, carriesBody, registry, hint),
  };
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  const properties = schema?.properties;
  return typeof properties === "object" && properties !== null
    ? properties as Record<string, JsonSchema>
    : {};
}

/**
 * A query parameter as `createFetch` reads it (the same coercion plan decides):
 * arrays as repeated keys, objects as JSON text, everything else as a plain value.
 */
function queryParameter(
  name: string,
  schema: JsonSchema,
  required: ReadonlySet<string>,
  read: string | undefined,
): Record<string, unknown> {
  const description = typeof schema.description === "string"
    ? { description: schema.description }
    : {};
  const base = { name, in: "query", required: required.has(name), ...description };
  if (read === "object") return { ...base, content: { "application/json": { schema } } };
  return { ...base, schema, ...(read === "array" ? { style: "form", explode: true } : {}) };
}

function bodyOf(
  input: JsonSchema | undefined,
  params: readonly string[],
  required: ReadonlySet<string>,
  registry: ComponentRegistry,
  hint: string,
): Record<string, unknown> {
  const schema = input === undefined
    ? { type: "object", description: "Any named inputs (no schema is declared)" }
    : withoutParams(input, params, registry, hint);
  return {
    required: [...required].some((name) => !params.includes(name)),
    content: { "application/json": { schema } },
  };
}

/** The body schema: the input less its path captures, named when titled. */
function withoutParams(
  schema: JsonSchema,
  params: readonly string[],
  registry: ComponentRegistry,
  hint: string,
): JsonSchema {
  if (params.length === 0) return registry.prepare(schema, { owner: hint, side: "Input" }, true);
  const properties: Record<string, unknown> = { ...propertiesOf(schema) };
  for (const name of params) delete properties[name];
  const required = (Array.isArray(schema.required) ? schema.required as string[] : [])
    .filter((name) => !params.includes(name));
  const { required: _all, title: _title, $id: _id, ...rest } = schema;
  return { ...rest, properties, ...(required.length === 0 ? {} : { required }) };
}

function responsesOf(
  operation: HttpOperation,
  hasInputSchema: boolean,
  carriesBody: boolean,
  registry: ComponentRegistry,
  hint: string,
): Record<string, unknown> {
  const outputSchema = operation.node.meta?.output;
  const raw = jsonSchemaOf(operation, "output", outputSchema);
  const output = raw === undefined
    ? undefined
    : registry.prepare(raw, { owner: hint, side: "Output" }, true);
  const responses: Record<string, unknown> = {};
  if (operation.response === "event-stream") {
    responses["200"] = {
      description: "Server-Sent Events: each `data` line is one JSON value" +
        (output === undefined ? "" : " of the event schema"),
      content: {
        "text/event-stream": {
          schema: { type: "string" },
          ...(output === undefined ? {} : { "x-event-schema": output }),
        },
      },
    };
  } else if (outputSchema !== undefined && isVoidSchema(outputSchema)) {
    responses["204"] = { description: "Done; no content" };
  } else {
    responses["200"] = {
      description: "The result",
      content: { "application/json": { schema: output ?? {} } },
    };
    if (outputSchema === undefined) {
      responses["204"] = { description: "Done; no content (the handler returned nothing)" };
    }
  }
  responses["400"] = problem("The request is malformed (body, encoding or parameters)");
  if (carriesBody) {
    responses["413"] = problem("The body is larger than the server accepts");
    responses["415"] = problem("The body's content type is not accepted");
  }
  if (hasInputSchema) {
    responses["422"] = {
      description: "The input does not match the operation's schema",
      content: { "application/problem+json": { schema: VALIDATION_REF } },
    };
  }
  responses["500"] = problem("The server failed; nothing internal is disclosed");
  return responses;
}

function problem(description: string) {
  return { description, content: { "application/problem+json": { schema: PROBLEM_REF } } };
}

/** A readable default summary from the tree path: `books.{bookId}.checkout.start` is "Books checkout start". */
function summaryOf(operation: HttpOperation): string {
  const words = operation.steps.filter((s) => s.kind === "child").map((s) => s.name).join(" ");
  return words === "" ? "Root" : capitalize(words);
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split("\n")[0];
}

/** The JSON Schema of one side; schemas that only accept `undefined` have none. */
function jsonSchemaOf(
  operation: HttpOperation,
  side: "input" | "output",
  schema: StandardSchemaV1 | undefined,
): JsonSchema | undefined {
  if (schema === undefined || (side === "output" && isVoidSchema(schema))) {
    return undefined;
  }
  try {
    return toJsonSchema(schema, side);
  } catch (error) {
    throw new Error(
      `toOpenApi: the ${side} schema of ${operation.method} ${operation.path} has no JSON Schema form: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: "object",
  description: "RFC 9457 problem details",
  properties: {
    type: { type: "string", description: "A URI naming the problem type" },
    title: { type: "string", description: "A short summary of the problem type" },
    status: { type: "integer", description: "The HTTP status" },
    detail: { type: "string", description: "What went wrong with this request" },
  },
  required: ["type", "title", "status"],
};

const VALIDATION_PROBLEM_SCHEMA: JsonSchema = {
  description: "A problem whose issues say which inputs failed validation",
  allOf: [
    PROBLEM_REF,
    {
      type: "object",
      properties: {
        issues: {
          type: "array",
          items: {
            type: "object",
            properties: {
              message: { type: "string" },
              path: { type: "array", items: { type: ["string", "integer"] } },
            },
            required: ["message", "path"],
          },
        },
      },
      required: ["issues"],
    },
  ],
};
